import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { whenCallEnds } from "./call-end.js";
import type { OperationNamer } from "./operation-names.js";

export type RequestHandler = (req: NodeRequest, res: NodeResponse) => void;

/**
 * From a kept answer (well under a millisecond) to the longest an analytics call may
 * queue and compute (seconds): the default buckets start at 5 ms, where every cached
 * answer would fall into one bucket.
 */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const LABEL_NAMES = ["operation", "protocol", "code"] as const;

/**
 * Counts and times every request of the API port when its response closes, with the
 * labels of its log line (request-log.ts) made bounded: the operation named from a
 * fixed set (operation-names.ts), the protocol, the outcome code. Returns the wrapper
 * that does it around the port's handler.
 */
export function createRequestMetrics(
  registry: Registry,
  nameOperation: OperationNamer,
): (handler: RequestHandler) => RequestHandler {
  const requests = new Counter({
    name: "cpb_requests_total",
    help: "Requests answered (or given up) on the API port, by operation, protocol and outcome code.",
    labelNames: LABEL_NAMES,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "cpb_request_duration_seconds",
    help: "From a request's arrival to its response's close (the log line's durationMs), by operation, protocol and outcome code.",
    labelNames: LABEL_NAMES,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // A plain number read at scrape time: a Gauge's inc and dec would hash labels twice a request.
  let inFlight = 0;
  new Gauge({
    name: "cpb_requests_in_flight",
    help: "Requests on the API port whose response has not closed yet.",
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });

  return (handler) => (req, res) => {
    inFlight++;
    whenCallEnds(
      req,
      res,
      performance.now(),
      ({ path, protocol, code, durationMs }) => {
        const labels = { operation: nameOperation(req.method ?? "GET", path), protocol, code };
        requests.inc(labels);
        duration.observe(labels, durationMs / 1000);
      },
      () => inFlight--,
    );
    handler(req, res);
  };
}
