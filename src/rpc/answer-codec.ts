import type { HandlerContext } from "@connectrpc/connect";

/** Content types whose messages go out in protobuf binary: gRPC, gRPC-Web and Connect with the proto codec. */
const BINARY_CONTENT_TYPE = /^application\/(?:grpc(?:-web)?(?:\+proto)?|proto|connect\+proto)(?:;|$)/i;

/**
 * Whether this call's answer goes out in protobuf binary, where unknown fields are
 * written as they are. The REST face's in-process calls say so too (they ask in
 * binary and take the answer message itself, response-capture.ts); a JSON codec, or a
 * Connect GET, writes no unknown fields.
 */
export function answersInBinary(context: HandlerContext): boolean {
  return BINARY_CONTENT_TYPE.test(context.requestHeader.get("content-type") ?? "");
}
