/** grpc-timeout's units, in milliseconds (gRPC over HTTP/2: "Timeout"). */
const GRPC_TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };
const GRPC_TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const CONNECT_TIMEOUT = /^\d{1,10}$/;

/**
 * When a call's deadline passes, on performance.now()'s clock, counted from when its
 * request arrived: gRPC and gRPC-Web send `grpc-timeout`, Connect `connect-timeout-ms`.
 * Undefined for none, or for a malformed one, which connect-es itself refuses. Read
 * here rather than with connect-es's own parsers, which it marks internal.
 */
export function deadlineOf(header: Headers, receivedAt: number): number | undefined {
  const grpc = header.get("grpc-timeout");
  if (grpc !== null) {
    const match = GRPC_TIMEOUT.exec(grpc);
    return match ? receivedAt + Number(match[1]) * GRPC_TIMEOUT_UNIT_MS[match[2]!]! : undefined;
  }
  const connect = header.get("connect-timeout-ms");
  return connect !== null && CONNECT_TIMEOUT.test(connect) ? receivedAt + Number(connect) : undefined;
}
