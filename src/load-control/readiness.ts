import type { Knex } from "knex";

export interface Readiness {
  /** Whether the service can answer correctly now, and if not, why. */
  check(): Promise<{ ready: boolean; reasons: string[] }>;
}

/** A part of the service that may not be ready yet: the authenticator, the peer index. */
export interface ReadyProbe {
  ready(): boolean;
}

export interface ReadinessParts {
  authenticator: ReadyProbe;
  peerIndex?: ReadyProbe;
  /** What the dataset version watcher waits for (its words), or undefined once it follows the version. */
  datasetWaitingFor?: () => string | undefined;
  /** Whether the server is draining before it stops. */
  draining?: () => boolean;
}

const DATABASE_PROBE_TIMEOUT_MS = 2_000;

/**
 * Ready when the database answers, the dataset version is known and the authenticator
 * can verify tokens (CONVENTIONS.md, Health), and, with the peer index on, once its
 * first snapshot is in: until then SQL answers, exactly but slowly, so a load balancer
 * should send this replica nothing yet. Never ready again once the server is draining:
 * the load balancer must stop sending before the listener closes. Each reason says
 * what the replica waits for, in words an operator can act on.
 */
export function createReadiness(knex: Knex, parts: ReadinessParts): Readiness {
  return {
    async check() {
      if (parts.draining?.()) return { ready: false, reasons: ["the server is shutting down"] };
      const reasons: string[] = [];
      const database = await databaseProblem(knex);
      if (database) reasons.push(`the database does not answer: ${database}`);
      const dataset = parts.datasetWaitingFor?.();
      if (dataset) reasons.push(`waiting for the dataset version: ${dataset}`);
      if (!parts.authenticator.ready()) reasons.push("the signing keys are not loaded");
      if (parts.peerIndex && !parts.peerIndex.ready()) reasons.push("the peer index is being built");
      return { ready: reasons.length === 0, reasons };
    },
  };
}

/** Undefined when a query is answered within the probe's time, else what went wrong. */
async function databaseProblem(knex: Knex): Promise<string | undefined> {
  try {
    await knex.raw("select 1").timeout(DATABASE_PROBE_TIMEOUT_MS, { cancel: false });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
