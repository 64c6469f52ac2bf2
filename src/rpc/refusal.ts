import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { RetryInfoSchema } from "../../gen/google/rpc/error_details_pb.js";

/**
 * A refusal: `unavailable`, with how long the caller should wait as each kind of client
 * reads it: HTTP's `Retry-After` (seconds) for REST and Connect; gRPC's own server
 * pushback, `grpc-retry-pushback-ms`, which gRPC clients' retry policies honour (gRPC
 * A6) and read only from a trailers-only answer (trailers-only.ts); and the standard
 * `google.rpc.RetryInfo` detail, for tools that read error details.
 */
export function refusal(message: string, seconds: number): ConnectError {
  return new ConnectError(
    message,
    Code.Unavailable,
    { "retry-after": String(seconds), "grpc-retry-pushback-ms": String(seconds * 1000) },
    [{ desc: RetryInfoSchema, value: create(RetryInfoSchema, { retryDelay: { seconds: BigInt(seconds) } }) }],
  );
}

/** The wait a refusal for the database's sake asks for (REST's Retry-After of a 503, problem-document.ts). */
export const DATABASE_RETRY_SECONDS = 2;
