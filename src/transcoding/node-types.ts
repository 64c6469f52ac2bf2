import type { ConnectNodeAdapterOptions } from "@connectrpc/connect-node";

// The request and response types of connect-node's handlers (HTTP/1.1 or HTTP/2),
// which the package uses but does not export by name.
type NodeHandler = NonNullable<ConnectNodeAdapterOptions["fallback"]>;
export type NodeRequest = Parameters<NodeHandler>[0];
export type NodeResponse = Parameters<NodeHandler>[1];
