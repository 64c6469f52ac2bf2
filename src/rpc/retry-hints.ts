/**
 * How long a refused caller should wait, as each kind of client reads it: HTTP's
 * `Retry-After` (seconds) for REST and Connect, and gRPC's own server pushback,
 * `grpc-retry-pushback-ms`, which gRPC clients' retry policies honour (gRPC A6) and
 * which they read only from a trailers-only answer (trailers-only.ts).
 */
export function retryHints(seconds: number): Record<string, string> {
  return { "retry-after": String(seconds), "grpc-retry-pushback-ms": String(seconds * 1000) };
}

/** The wait a refusal for the database's sake asks for (REST's Retry-After of a 503, problem-document.ts). */
export const DATABASE_RETRY_SECONDS = 2;
