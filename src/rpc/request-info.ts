import { createContextKey } from "@connectrpc/connect";
import type { Logger } from "pino";

/** What every handler may know of the call it serves, whatever the protocol. */
export interface RequestInfo {
  readonly requestId: string;
  /** A child logger bound to the request id. */
  readonly log: Logger;
  /** Filled in while the call runs, for the request's one log line. */
  readonly outcome: { code?: string; subject?: string; clientId?: string };
}

export const requestInfoKey = createContextKey<RequestInfo | undefined>(undefined, {
  description: "request id and logger of the call",
});
