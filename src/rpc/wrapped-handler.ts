import type { UniversalHandler } from "@connectrpc/connect/protocol";

/**
 * A handler that answers through `wrapped` and otherwise is `handler`: the same
 * protocols, method and path, so that the router serves it in the handler's place.
 */
export function wrappedHandler(
  handler: UniversalHandler,
  wrapped: (req: Parameters<UniversalHandler>[0]) => ReturnType<UniversalHandler>,
): UniversalHandler {
  return Object.assign(wrapped, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}
