import knex from "knex";

/**
 * SQLSTATEs of a database that cannot be reached now (PostgreSQL Appendix A): the
 * connection-exception codes of class 08 that mean a lost or refused connection, and
 * the operator interventions 57P01-57P03 (shut down, crashed, starting up). Not the
 * whole class 08: 08P01 (protocol_violation) is PostgreSQL refusing what was sent, as
 * a query with more than 65535 bind parameters gets; retrying it can never work.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  "08000", // connection_exception
  "08001", // sqlclient_unable_to_establish_sqlconnection
  "08003", // connection_does_not_exist
  "08004", // sqlserver_rejected_establishment_of_sqlconnection
  "08006", // connection_failure
  "08007", // transaction_resolution_unknown: the connection broke during a commit
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);
/** Five digits or upper-case letters (an errno such as EPIPE is checked first). */
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Socket errors of a server that is down, restarting or unreachable. */
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);
/** node-postgres's own texts for a connection lost or a server that stopped answering (it sets no code). */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|Client has encountered a connection error|Query read timeout/i;

/** Whether an error means "the database cannot be reached now", as opposed to a bug or a refused query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof knex.KnexTimeoutError) return true; // no connection could be acquired
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && UNAVAILABLE_ERRNOS.has(code)) return true;
  // PostgreSQL answered: its SQLSTATE alone says why (the message also carries the query's text).
  if (typeof code === "string" && SQLSTATE.test(code)) return UNAVAILABLE_SQLSTATES.has(code);
  return UNAVAILABLE_MESSAGES.test(error.message);
}

/**
 * SQLSTATEs of a read the database gave up on so that something else could go on,
 * where the same read tried again succeeds: on a hot standby, a query cancelled so
 * that the replay of the primary's changes can go on ("canceling statement due to
 * conflict with recovery", 40001 serialization_failure, PostgreSQL 26.4.2), and a
 * deadlock's victim (40P01).
 */
const CONFLICT_SQLSTATES = new Set(["40001", "40P01"]);

/** Whether PostgreSQL cancelled a read for a conflict (a standby's replay, a deadlock): retryable, not a bug. */
export function isReadConflict(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && CONFLICT_SQLSTATES.has(code);
}
