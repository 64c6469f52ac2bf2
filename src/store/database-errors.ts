import knex from "knex";

// Connection-level failures: the server is down, restarting or unreachable.
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention).
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-3])$/;
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);

/** Whether an error means "the database cannot be reached now", as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof knex.KnexTimeoutError) return true; // no connection could be acquired
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|Query read timeout/i.test(error.message);
}
