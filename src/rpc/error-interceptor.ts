import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { isDatabaseUnavailable, isReadConflict } from "../store/database-errors.js";
import { codeName } from "./http-status.js";
import { DATABASE_RETRY_SECONDS, refusal } from "./refusal.js";
import { requestInfoKey } from "../load-control/request-info.js";

/**
 * Errors cross the boundary once, here: a ConnectError passes as it is; a database
 * that cannot be reached, or a read it cancelled for a conflict (a hot standby
 * replaying an import), becomes `unavailable` (a 503 with Retry-After over REST);
 * anything else is a bug, logged with its cause and answered as a bare `internal`,
 * never with its message, which could show internals. The outcome code is noted
 * for the request's log line, which waits for it (request-info.ts).
 */
export function createErrorInterceptor(fallbackLog: Logger): Interceptor {
  return (next) => async (req) => {
    const info = req.contextValues.get(requestInfoKey);
    const settled = info?.handlerStarted();
    try {
      const res = await next(req);
      if (info) info.outcome.code = "ok";
      return res;
    } catch (cause) {
      const error = toConnectError(cause, info?.log ?? fallbackLog, req.method.name);
      if (info) info.outcome.code = codeName(error.code);
      throw error;
    } finally {
      settled?.();
    }
  };
}

function toConnectError(cause: unknown, log: Logger, method: string): ConnectError {
  if (cause instanceof ConnectError) return cause;
  if (isDatabaseUnavailable(cause)) {
    log.warn({ err: cause, method }, "database unavailable");
    return refusal("the database is unavailable; try again shortly", DATABASE_RETRY_SECONDS);
  }
  if (isReadConflict(cause)) {
    log.warn({ err: cause, method }, "database read cancelled for a conflict");
    return refusal("the database cancelled this read while it applied new data; try again", DATABASE_RETRY_SECONDS);
  }
  log.error({ err: cause, method }, "unexpected error");
  return new ConnectError("internal error", Code.Internal);
}
