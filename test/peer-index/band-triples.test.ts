// A program's band triple must give back each amount's band (SEMANTICS.md section 4),
// NO_BAND for an amount it lacks, and which amounts it has.
import t from "tap";
import { bandOfCents, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../../src/benchmark/bands.js";
import { AMOUNTS_HELD, BAND_TRIPLES, bandTriple, TRIPLE_BANDS } from "../../src/peer-index/band-triples.js";
import { NO_BAND } from "../../src/peer-index/snapshot.js";

t.test("a triple gives back the bands of its amounts", async (t) => {
  const amounts = [NaN, 0, 1, 10_000_000, 10_000_001, 100_000_000, 250_000_000_000, 2 ** 53 - 1];
  let checked = 0;
  for (const limit of amounts)
    for (const premium of amounts)
      for (const retention of amounts) {
        const triple = bandTriple(limit, premium, retention);
        const band = (scale: typeof LIMIT_BANDS, cents: number) =>
          Number.isNaN(cents) ? NO_BAND : bandOfCents(scale, cents);
        const held = (+!Number.isNaN(limit) << 2) | (+!Number.isNaN(premium) << 1) | +!Number.isNaN(retention);
        if (
          triple >= 0 &&
          triple < BAND_TRIPLES &&
          TRIPLE_BANDS.limit[triple] === band(LIMIT_BANDS, limit) &&
          TRIPLE_BANDS.premium[triple] === band(PREMIUM_BANDS, premium) &&
          TRIPLE_BANDS.retention[triple] === band(RETENTION_BANDS, retention) &&
          AMOUNTS_HELD[triple] === held
        )
          checked++;
      }
  t.equal(checked, amounts.length ** 3, "every combination decodes to its bands");
  t.equal(BAND_TRIPLES, 19 * 19 * 18);
  t.ok(BAND_TRIPLES <= 0xffff, "a triple fits the 16-bit column");
  t.equal(bandTriple(NaN, NaN, NaN), BAND_TRIPLES - 1, "no amounts: the last triple");
});
