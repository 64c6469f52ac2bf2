// The bands the console marks the client's amount in (src/console/web/src/figures/bands.ts)
// must be the server's (src/benchmark/bands.ts, SEMANTICS.md 4): a copy that drifted would
// mark the wrong band beside the API's counts.
import t from "tap";
import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS, bandOfCents, type BandScale } from "../../src/benchmark/bands.js";
import { toNumber } from "../../src/benchmark/decimal.js";
import { UPPER_BOUNDS, bandSeqOf } from "../../src/console/web/src/figures/bands.js";

const SCALES: BandScale[] = [LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS];

t.test("the same upper bounds as the server, band for band", async (t) => {
  t.same(Object.keys(UPPER_BOUNDS).sort(), SCALES.map((s) => s.kind).sort(), "the same three distributions");
  for (const scale of SCALES)
    t.same(UPPER_BOUNDS[scale.kind], scale.upperBounds.map(toNumber), `${scale.kind}: every bound`);
});

t.test("the same band for amounts at, just under and just over every bound", async (t) => {
  for (const scale of SCALES) {
    const amounts = [
      0,
      0.01,
      ...scale.upperBounds.flatMap((b) => [toNumber(b) - 0.01, toNumber(b), toNumber(b) + 0.01]),
      1e13,
    ];
    for (const amount of amounts) {
      t.equal(
        bandSeqOf(scale.kind, amount),
        bandOfCents(scale, Math.round(amount * 100)) + 1,
        `${scale.kind} ${amount}`,
      );
    }
  }
});

t.test("a band is (lower, upper]: the bound itself is in the lower band", async (t) => {
  t.equal(bandSeqOf("limit", 100_000), 1);
  t.equal(bandSeqOf("limit", 100_000.01), 2);
  t.equal(bandSeqOf("limit", 5_000_000), 7, "the e2e test's client limit: 2M-5M");
  t.equal(bandSeqOf("limit", 2e9), LIMIT_BANDS.labels.length, "above the last bound: the open band");
});
