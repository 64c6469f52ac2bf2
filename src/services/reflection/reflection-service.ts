import { create } from "@bufbuild/protobuf";
import { Code, type ServiceImpl } from "@connectrpc/connect";
import * as v1 from "../../../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { withImports, type DescriptorSet } from "./descriptor-set.js";

/**
 * gRPC server reflection (grpc.reflection.v1, and v1alpha for older tools: the same
 * messages under another package), so that grpcurl, buf curl, Postman and other tools
 * find the services without a copy of the .proto files. Like grpc-go, a file is sent
 * with the files it imports, each file at most once per stream after the one asked for.
 */
export function createReflectionServices(descriptors: DescriptorSet) {
  const v1Service: ServiceImpl<typeof v1.ServerReflection> = {
    serverReflectionInfo: answering(descriptors, (request: v1.ServerReflectionRequest, messageResponse) =>
      create(v1.ServerReflectionResponseSchema, { validHost: request.host, originalRequest: request, messageResponse }),
    ),
  };
  const v1alphaService: ServiceImpl<typeof v1alpha.ServerReflection> = {
    serverReflectionInfo: answering(descriptors, (request: v1alpha.ServerReflectionRequest, messageResponse) =>
      create(v1alpha.ServerReflectionResponseSchema, {
        validHost: request.host,
        originalRequest: request,
        messageResponse,
      }),
    ),
  };
  return { v1: v1Service, v1alpha: v1alphaService };
}

/** One stream of either version: each request answered in turn, files sent once per stream. */
function answering<R extends Request, S>(descriptors: DescriptorSet, respond: (request: R, answer: Answer) => S) {
  return async function* (requests: AsyncIterable<R>) {
    const sent = new Set<string>();
    for await (const request of requests) yield respond(request, answer(descriptors, request, sent));
  };
}

/** The request, as both versions spell it. */
type Request = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

/** The answer, as both versions spell it (message fields as plain objects). */
type Answer =
  | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: "allExtensionNumbersResponse"; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: "listServicesResponse"; value: { service: { name: string }[] } }
  | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } };

function answer(descriptors: DescriptorSet, request: Request, sent: Set<string>): Answer {
  const { messageRequest: asked } = request;
  switch (asked.case) {
    case "listServices":
      return { case: "listServicesResponse", value: { service: descriptors.serviceNames.map((name) => ({ name })) } };
    case "fileByFilename":
      return files(descriptors, descriptors.fileNamed(asked.value), sent, `no file "${asked.value}"`);
    case "fileContainingSymbol":
      return files(descriptors, descriptors.fileDeclaring(asked.value), sent, `no symbol "${asked.value}"`);
    case "fileContainingExtension": {
      const { containingType, extensionNumber } = asked.value;
      return files(
        descriptors,
        descriptors.fileExtending(containingType, extensionNumber),
        sent,
        `no extension ${extensionNumber} of "${containingType}"`,
      );
    }
    case "allExtensionNumbersOfType": {
      const numbers = descriptors.extensionNumbersOf(asked.value);
      if (!numbers) return notFound(`no message "${asked.value}"`);
      return { case: "allExtensionNumbersResponse", value: { baseTypeName: asked.value, extensionNumber: numbers } };
    }
    default:
      return {
        case: "errorResponse",
        value: { errorCode: Code.InvalidArgument, errorMessage: "the request names nothing to look up" },
      };
  }
}

function files(
  descriptors: DescriptorSet,
  file: ReturnType<DescriptorSet["fileNamed"]>,
  sent: Set<string>,
  missing: string,
): Answer {
  if (!file) return notFound(missing);
  return {
    case: "fileDescriptorResponse",
    value: { fileDescriptorProto: withImports(file, sent).map((f) => descriptors.bytesOf(f)) },
  };
}

const notFound = (message: string): Answer => ({
  case: "errorResponse",
  value: { errorCode: Code.NotFound, errorMessage: message },
});
