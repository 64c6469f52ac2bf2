import t from "tap";
import { traceIdOf } from "../../src/server/trace-context.js";

t.test("the trace id of a W3C traceparent, and nothing for a malformed one", async (t) => {
  const id = "4bf92f3577b34da6a3ce929d0e0e4736";
  t.equal(traceIdOf(`00-${id}-00f067aa0ba902b7-01`), id);
  t.equal(traceIdOf(` 00-${id}-00f067aa0ba902b7-00 `), id, "surrounding spaces");
  t.equal(traceIdOf(`01-${id}-00f067aa0ba902b7-01-future`), id, "a later version: its first four fields");
  for (const bad of [
    undefined,
    ["a", "b"],
    "",
    `00-${id}-00f067aa0ba902b7-01-extra`,
    `ff-${id}-00f067aa0ba902b7-01`,
    `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
    `00-${id}-${"0".repeat(16)}-01`,
    `00-${id.toUpperCase()}-00f067aa0ba902b7-01`,
    `00-${id.slice(1)}-00f067aa0ba902b7-01`,
  ]) {
    t.equal(traceIdOf(bad), undefined, String(bad));
  }
});
