import t from "tap";
import { Decimal } from "../../src/benchmark/decimal.js";
import { quantile, quantileOfCents, type QuantileLevel } from "../../src/benchmark/quantile.js";
import { createSeededRandom } from "../helpers/seeded-random.js";

const LEVELS: readonly QuantileLevel[] = ["0.25", "0.5", "0.75"];
const random = createSeededRandom("quantile-of-cents");

/** Sorted cents of one of three sizes: small, near 2^53 (where doubles stop being exact), or past it (a tiny limit's RPM). */
function drawCents(n: number): bigint[] {
  const scale = [1_000_000, 2 ** 53 - 1, 2 ** 62][random.int(3)]!;
  const values = Array.from({ length: n }, () => {
    const value = BigInt(Math.floor(random.next() * scale));
    return random.chance(0.1) ? -value : value;
  });
  return values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

t.test("quantileOfCents is the decimal quantile of the same cents, in dollars", async (t) => {
  let compared = 0;
  for (let round = 0; round < 2_000; round++) {
    const cents = drawCents(random.int(12));
    // Values within 2^53 arrive as numbers, as the snapshot's columns hold them.
    const centsAt = (i: number) => (cents[i]! < 2n ** 53n && cents[i]! > -(2n ** 53n) ? Number(cents[i]!) : cents[i]!);
    for (const p of LEVELS) {
      const expected = quantile(cents.length, p, (i) => new Decimal(cents[i]!.toString())).div(100);
      const actual = quantileOfCents(cents.length, p, centsAt);
      if (!actual.eq(expected) || actual.toString() !== expected.toString())
        t.fail(`q(${p}) of [${cents.join(", ")}]: ${actual.toString()} against ${expected.toString()}`);
      compared++;
    }
  }
  t.equal(compared, 6_000, "6,000 quantiles agree, digit for digit");
  t.equal(
    quantileOfCents(4, "0.25", (i) => [1000, 2000, 3000, 4000][i]!).toString(),
    "17.5",
    "q(0.25) of 10, 20, 30, 40 dollars",
  );
  t.equal(quantileOfCents(0, "0.5", () => 0).toString(), "0", "no values: 0");
  t.equal(quantileOfCents(1, "0.75", () => 7n).toString(), "0.07", "one value: itself");
});
