import type { Knex } from "knex";
import { Gauge, type Registry } from "prom-client";

/** What tarn's Pool (knex's own pool) tells of itself; knex's types hide `max`. */
interface TarnPoolView {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

/**
 * The database pool of the API (store/database.ts), read at scrape time: connections
 * in use and idle, callers waiting for one, connections being opened, and the most it
 * may hold. Nothing is reported once knex is destroyed (during a stop) or without a pool.
 */
export function registerPoolMetrics(registry: Registry, knex: Knex): void {
  const registers = [registry];
  const pool = (): TarnPoolView | undefined => {
    const candidate = knex.client.pool as Partial<TarnPoolView> | undefined;
    return typeof candidate?.numUsed === "function" ? (candidate as TarnPoolView) : undefined;
  };
  new Gauge({
    name: "cpb_db_pool_connections",
    help: "Connections of the database pool, by state: used (a query holds it) or free (idle).",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const current = pool();
      this.reset();
      if (!current) return;
      this.set({ state: "used" }, current.numUsed());
      this.set({ state: "free" }, current.numFree());
    },
  });
  const single = (name: string, help: string, read: (pool: TarnPoolView) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const current = pool();
        if (current) this.set(read(current));
        else this.remove();
      },
    });
  single("cpb_db_pool_pending_acquires", "Callers waiting for a connection of the database pool.", (p) =>
    p.numPendingAcquires(),
  );
  single("cpb_db_pool_pending_creates", "Connections of the database pool being opened.", (p) => p.numPendingCreates());
  single("cpb_db_pool_max_connections", "The most connections the database pool may hold.", (p) => p.max);
}
