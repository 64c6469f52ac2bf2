import type { Knex } from "knex";

export interface Readiness {
  /** Whether the service can answer correctly now, and if not, why. */
  check(): Promise<{ ready: boolean; reasons: string[] }>;
}

/** A part of the service that may not be ready yet: the authenticator, the peer index. */
export interface ReadyProbe {
  ready(): boolean;
}

const DATABASE_PROBE_TIMEOUT_MS = 2_000;

/**
 * Ready when the database answers and the authenticator can verify tokens
 * (CONVENTIONS.md, Health), and, with the peer index on, once its first snapshot is
 * in: until then SQL answers, exactly but slowly, so a load balancer should send
 * this replica nothing yet. Never ready again once the server is draining: the load
 * balancer must stop sending before the listener closes.
 */
export function createReadiness(
  knex: Knex,
  authenticator: ReadyProbe,
  peerIndex?: ReadyProbe,
  draining = () => false,
): Readiness {
  return {
    async check() {
      if (draining()) return { ready: false, reasons: ["the server is shutting down"] };
      const reasons: string[] = [];
      if (!(await databaseAnswers(knex))) reasons.push("the database does not answer");
      if (!authenticator.ready()) reasons.push("the signing keys are not loaded");
      if (peerIndex && !peerIndex.ready()) reasons.push("the peer index is being built");
      return { ready: reasons.length === 0, reasons };
    },
  };
}

async function databaseAnswers(knex: Knex): Promise<boolean> {
  try {
    await knex.raw("select 1").timeout(DATABASE_PROBE_TIMEOUT_MS, { cancel: false });
    return true;
  } catch {
    return false;
  }
}
