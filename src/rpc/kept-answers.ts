import {
  create,
  isMessage,
  toBinary,
  type DescMessage,
  type DescService,
  type MessageInitShape,
  type MessageShape,
  type UnknownField,
} from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { AnswerCache } from "../load-control/answer-cache.js";
import { answersInBinary } from "./answer-codec.js";
import { responseCaptureKey } from "./response-capture.js";
import { DATASET_VERSION_HEADER, tellDatasetVersion } from "./dataset-version.js";

type UnaryMethod = (request: never, context: HandlerContext) => Promise<unknown>;

/**
 * A service's implementation with kept answers for gRPC, gRPC-Web and Connect callers, in
 * the answer cache REST uses and under the same data tag (so the same version notice ends
 * them). The key is the method and its request message in binary, and the dataset
 * version the answer was read from is kept with it, for the hit's metadata. A hit skips the
 * figures and the answer's encoding too: the kept bytes go back as the unknown fields of
 * an empty answer message, which protobuf-es writes out as they are. A miss encodes its
 * answer once, for the cache and the caller alike. Every interceptor (errors,
 * authentication) runs as before, around it.
 *
 * Only binary codecs (a JSON codec writes no unknown fields), and not for REST calls,
 * whose face keeps its own JSON bytes.
 */
export function withKeptAnswers<S extends DescService>(
  service: S,
  implementation: ServiceImpl<S>,
  cache: AnswerCache,
): ServiceImpl<S> {
  const methods = implementation as unknown as Record<string, UnaryMethod>;
  const wrapped: Record<string, UnaryMethod> = {};
  for (const method of service.methods) {
    const compute = methods[method.localName]!;
    if (method.methodKind !== "unary") {
      wrapped[method.localName] = compute;
      continue;
    }
    wrapped[method.localName] = async (request, context) => {
      if (context.values.get(responseCaptureKey) || !answersInBinary(context)) return compute(request, context);
      const input = toBinary(method.input, request);
      const ticket = cache.open(`proto\n${service.typeName}\n${method.name}\n${Buffer.from(input).toString("base64")}`);
      if (!ticket) return compute(request, context);
      if (ticket.cached) {
        if (ticket.cachedDataVersion !== undefined) tellDatasetVersion(context, ticket.cachedDataVersion);
        return encodedAnswer(method.output, ticket.cached[0]!);
      }
      const answer = await compute(request, context);
      const bytes = toBinary(
        method.output,
        isMessage(answer, method.output) ? answer : create(method.output, answer as MessageInitShape<DescMessage>),
      );
      const dataVersion = context.responseHeader.get(DATASET_VERSION_HEADER) ?? undefined;
      ticket.keep([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)], dataVersion);
      return encodedAnswer(method.output, bytes);
    };
  }
  return wrapped as unknown as ServiceImpl<S>;
}

/** An answer message that encodes as `bytes`: each top-level field of them kept as an unknown field. */
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
