import type { Knex } from "knex";
import { callerGone, currentCaller } from "../load-control/caller-watch.js";

/**
 * A request's queries end with the request (issue 14): when its caller goes away or its
 * deadline passes, the statement it is running in PostgreSQL is cancelled, so nobody
 * pays for an answer nobody will read.
 *
 * The request's signal reaches the queries as its caller (caller-watch.ts): every query
 * a call starts, however deep, is bound to it.
 */

/** What of Knex's PostgreSQL client this uses: its statement runner and its raw connections. */
interface PgClient {
  _query(connection: PgConnection, query: { sql: string; bindings?: unknown[]; options?: object }): Promise<unknown>;
  acquireRawConnection(): Promise<PgConnection>;
  destroyRawConnection(connection: PgConnection): Promise<void>;
}

interface PgConnection {
  processID: number;
}

/**
 * Binds every statement run for a caller (caller-watch.ts) to its signal: one whose
 * caller no longer waits runs nothing, and an abort while it runs sends PostgreSQL a cancel for its
 * backend (pg_cancel_backend, from a connection of its own, as Knex's own query timeout
 * does: the pool may have none to spare).
 */
export function cancelQueriesWithTheirRequest(knex: Knex): void {
  const client = knex.client as unknown as PgClient;
  const run = client._query.bind(client);
  const cancel = async (connection: PgConnection) => {
    const canceller = await client.acquireRawConnection();
    try {
      await run(canceller, { sql: "select pg_cancel_backend($1)", bindings: [connection.processID], options: {} });
    } finally {
      await client.destroyRawConnection(canceller);
    }
  };
  client._query = (connection, query) => {
    const caller = currentCaller();
    if (!caller) return run(connection, query);
    const gone = callerGone(caller);
    if (gone !== undefined) return Promise.reject(gone as Error);
    const { signal } = caller;
    const onAbort = () => void cancel(connection).catch(() => undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    return run(connection, query).finally(() => signal.removeEventListener("abort", onAbort));
  };
}
