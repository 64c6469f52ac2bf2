import type { Knex } from "knex";
import type { Client } from "pg";

/**
 * One raw pg client from Knex's pool, for what the query builder does not offer:
 * COPY FROM STDIN and a transaction that spans several streams.
 */
export async function acquirePgClient(knex: Knex): Promise<Client> {
  return (await knex.client.acquireConnection()) as Client;
}

/**
 * Returns the client to the pool. A client whose state is unknown (its rollback
 * failed) is marked disposed, the flag Knex's pool checks, so it is closed instead
 * of handed to the next caller mid-transaction.
 */
export async function releasePgClient(knex: Knex, client: Client, broken = false): Promise<void> {
  if (broken) (client as Client & { __knex__disposed?: unknown }).__knex__disposed = "import rollback failed";
  await knex.client.releaseConnection(client);
}
