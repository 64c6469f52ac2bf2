// Chart axes that reach every mark (src/console/web/src/charts/axis-range.ts): ECharts does
// not draw a markLine outside the axis, so the client's RPM above the peers' maximum, or a
// client limit below every loss on the log axis, must widen the axis.
import t from "tap";
import { logMinIncluding, maxIncluding } from "../../src/console/web/src/charts/axis-range.js";

t.test("the top reaches a mark above the data, with headroom", async (t) => {
  t.equal(maxIncluding({ min: 10, max: 100 }, [250]), 275, "the client's RPM above the maximum");
  t.equal(maxIncluding({ min: 10, max: 100 }, [50], 2), 200, "a mark inside: the data's maximum");
  t.equal(maxIncluding({ min: 10, max: 100 }, [250], 1.5), 375);
  t.equal(maxIncluding({ min: 0, max: 0 }, []), 1, "no data, no marks: still an axis");
  t.equal(maxIncluding({ min: Infinity, max: -Infinity }, [Number.NaN, 40]), 44, "an empty series' extent is ignored");
});

t.test("the bottom of a log axis reaches a positive mark below the data", async (t) => {
  t.equal(logMinIncluding({ min: 1000, max: 1e6 }, [150], 1.5), 100, "the client's limit below every loss");
  t.equal(logMinIncluding({ min: 1000, max: 1e6 }, [5000], 1.5), 1000 / 1.5, "a mark inside: the data's minimum");
  t.equal(logMinIncluding({ min: 1000, max: 1e6 }, [0, -5], 2), 500, "no 0 on a log axis: such marks are left out");
  t.equal(logMinIncluding({ min: Infinity, max: -Infinity }, []), 1);
});
