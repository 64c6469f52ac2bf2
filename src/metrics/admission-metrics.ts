import { Counter, Gauge, type Registry } from "prom-client";
import type { AdmissionGate } from "../load-control/admission-gate.js";
import { mirrorCount } from "./mirrored-count.js";

/** The admission gate of the peer-group calls (admission-gate.ts), read at scrape time. */
export function registerAdmissionMetrics(registry: Registry, gate: AdmissionGate): void {
  const registers = [registry];
  new Gauge({
    name: "cpb_admission_running",
    help: "Peer-group calls computing now (at most ANALYTICS_CONCURRENCY).",
    registers,
    collect() {
      this.set(gate.stats().running);
    },
  });
  new Gauge({
    name: "cpb_admission_queued",
    help: "Peer-group calls waiting for a turn (at most ANALYTICS_QUEUE).",
    registers,
    collect() {
      this.set(gate.stats().queued);
    },
  });
  new Counter({
    name: "cpb_admission_refused_total",
    help: "Peer-group calls refused at once (unavailable, Retry-After): the queue was full or the wait foreseen too long.",
    registers,
    collect() {
      mirrorCount(this, gate.stats().refused);
    },
  });
}
