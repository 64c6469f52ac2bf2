import type { ConnectNodeAdapterOptions } from "@connectrpc/connect-node";

// The request and response types of connect-node's handlers (HTTP/1.1 or HTTP/2),
// which the package uses but does not export by name.
type NodeHandler = NonNullable<ConnectNodeAdapterOptions["fallback"]>;
export type NodeRequest = Parameters<NodeHandler>[0];
export type NodeResponse = Parameters<NodeHandler>[1];

/**
 * Whether a closed response reached its caller whole. `writableFinished` alone does not
 * say: an HTTP/2 stream the caller reset reports it true, as if its answer were sent.
 */
export function answeredWhole(res: NodeResponse): boolean {
  if (!res.writableEnded || !res.writableFinished) return false;
  const stream = "stream" in res ? res.stream : undefined;
  return !stream?.rstCode;
}
