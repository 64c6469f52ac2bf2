import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { HealthCheckResponse_ServingStatus as Status, type Health } from "../../gen/health/v1/health_pb.js";
import type { Readiness } from "../load-control/readiness.js";

const WATCH_INTERVAL_MS = 5_000;

/**
 * grpc.health.v1.Health, for gRPC load balancers and probes: SERVING exactly when
 * /readyz would answer 200. The overall service ("") and each API service are known.
 */
export function createHealthService(readiness: Readiness, serviceNames: readonly string[]): ServiceImpl<typeof Health> {
  const known = new Set(["", ...serviceNames]);
  const status = async (service: string) => {
    if (!known.has(service)) throw new ConnectError(`unknown service "${service}"`, Code.NotFound);
    return (await readiness.check()).ready ? Status.SERVING : Status.NOT_SERVING;
  };
  return {
    async check(req) {
      return { status: await status(req.service) };
    },
    async *watch(req, ctx) {
      let last: Status | undefined;
      while (!ctx.signal.aborted) {
        const current = await status(req.service);
        if (current !== last) yield { status: current };
        last = current;
        await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS));
      }
    },
    async list() {
      const statuses: Record<string, { status: Status }> = {};
      for (const service of known) statuses[service] = { status: await status(service) };
      return { statuses };
    },
  };
}
