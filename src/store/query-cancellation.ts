import { AsyncLocalStorage } from "node:async_hooks";
import type { Knex } from "knex";

/**
 * A request's queries end with the request (issue 14): when its caller goes away or its
 * deadline passes, the statement it is running in PostgreSQL is cancelled, so nobody
 * pays for an answer nobody will read.
 *
 * The request's signal reaches the queries through AsyncLocalStorage rather than through
 * every store function's parameters: the admission interceptor runs a call inside
 * `withRequestSignal`, and every query that call starts, however deep, is bound to it.
 */
const requestSignal = new AsyncLocalStorage<AbortSignal>();

export function withRequestSignal<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return requestSignal.run(signal, work);
}

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
 * Binds every statement run inside `withRequestSignal` to its signal: one that has
 * aborted runs nothing, and an abort while it runs sends PostgreSQL a cancel for its
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
    const signal = requestSignal.getStore();
    if (!signal) return run(connection, query);
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const onAbort = () => void cancel(connection).catch(() => undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    return run(connection, query).finally(() => signal.removeEventListener("abort", onAbort));
  };
}
