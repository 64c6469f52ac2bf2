import { create, toBinary, type DescMessage, type DescService, type MessageShape, type UnknownField } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import type { Interceptor } from "@connectrpc/connect";
import type { AnswerCache } from "../server/answer-cache.js";
import { responseCaptureKey } from "./response-capture.js";

/** Content types whose messages go out in protobuf binary: gRPC, gRPC-Web and Connect with the proto codec. */
const BINARY_CONTENT_TYPE = /^application\/(?:grpc(?:-web)?(?:\+proto)?|proto|connect\+proto)(?:;|$)/i;

/**
 * Kept answers for gRPC, gRPC-Web and Connect callers, in the answer cache REST uses, under
 * the same data tag (so the same version notice ends them). The key is the method and its
 * request message in binary. A hit skips the handler and its figures, and the answer's
 * encoding too: the kept bytes go back as the unknown fields of an empty answer message,
 * which protobuf-es writes out as they are. A miss encodes its answer once, for the cache
 * and the caller alike. Only binary codecs: a JSON codec does not write unknown fields.
 * REST calls pass through (the REST face keeps its own JSON bytes), as do streams and the
 * services not named (health answers are not data).
 */
export function createKeptAnswersInterceptor(cache: AnswerCache, services: readonly DescService[]): Interceptor {
  const kept = new Set(services);
  return (next) => async (req) => {
    if (req.stream || !kept.has(req.service) || req.contextValues.get(responseCaptureKey) || !BINARY_CONTENT_TYPE.test(req.header.get("content-type") ?? "")) return next(req);
    const input = toBinary(req.method.input, req.message);
    const ticket = cache.open(`proto\n${req.method.parent.typeName}\n${req.method.name}\n${Buffer.from(input).toString("base64")}`);
    if (!ticket) return next(req);
    const answer = ticket.cached?.[0];
    if (answer) return { stream: false, service: req.service, method: req.method, header: new Headers(), trailer: new Headers(), message: encodedAnswer(req.method.output, answer) };
    const res = await next(req);
    if (res.stream) return res;
    const bytes = toBinary(req.method.output, res.message);
    ticket.keep([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
    return { ...res, message: encodedAnswer(req.method.output, bytes) };
  };
}

/** An answer message that encodes as `bytes`: each top-level field of them as an unknown field. */
function encodedAnswer<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> {
  const fields: UnknownField[] = [];
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    fields.push({ no, wireType, data: reader.skip(wireType, no) });
  }
  const message = create(schema);
  message.$unknown = fields;
  return message;
}
