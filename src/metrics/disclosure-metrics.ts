import { Counter, type Registry } from "prom-client";
import type { DisclosureGuard } from "../services/disclosure-guard.js";

/** Peer groups refused under the disclosure rule, by the condition they broke, read at scrape time. */
export function registerDisclosureMetrics(registry: Registry, guard: DisclosureGuard): void {
  new Counter({
    name: "cpb_disclosure_refusals_total",
    help: "Calls refused (failed_precondition) because their peer group broke the disclosure rule, by condition.",
    labelNames: ["condition"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [condition, count] of guard.refusals()) this.inc({ condition }, count);
    },
  });
}
