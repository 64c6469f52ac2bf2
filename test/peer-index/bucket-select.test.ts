// Selection by buckets of the values' bits against a sort: for random non-negative
// values (ties, NaN for no value, values up to 2^53, all in one bucket or spread over
// many) read through random rows, each selected value is the one a full sort puts
// there; a negative value leaves the selection to the caller.
import t from "tap";
import { bucketSelect } from "../../src/peer-index/bucket-select.js";
import { createSeededRandom } from "../helpers/seeded-random.js";

const random = createSeededRandom("bucket-select-1");

t.test("selected values are the sorted values at those positions", async (t) => {
  let mismatches = 0;
  for (let round = 0; round < 500; round++) {
    const size = 1 + random.int(round < 100 ? 8 : 3_000);
    const spread = random.pick([1, 3, 100, 1e6, 2 ** 53]);
    // Fractions too: below 1 they share zero's bucket, which selection must still order.
    const fractional = random.chance(0.2);
    const column = Float64Array.from({ length: size }, () =>
      random.chance(0.1) ? NaN : fractional ? random.next() * spread : Math.floor(random.next() * spread),
    );
    const rows = Uint32Array.from({ length: random.int(size + 1) }, () => random.int(size));
    const sorted = [...rows]
      .map((row) => column[row]!)
      .filter((v) => !Number.isNaN(v))
      .sort((a, b) => a - b);
    let asked: number[] = [];
    const picked = bucketSelect(column, rows, (n) => {
      asked = Array.from({ length: 1 + random.int(6) }, () => random.int(Math.max(n, 1)));
      asked.push(n - 1, 0, n, -1);
      return asked;
    });
    if (!picked || picked.n !== sorted.length) {
      mismatches++;
      continue;
    }
    for (const p of asked) {
      if (p < 0 || p >= sorted.length) mismatches += +picked.values.has(p);
      else mismatches += +(picked.values.get(p) !== sorted[p]);
    }
  }
  t.equal(mismatches, 0);
});

t.test("a value from 2^53 up, or infinite: undefined", async (t) => {
  for (const large of [2 ** 53, 2 ** 60, Number.MAX_VALUE, Infinity])
    t.equal(
      bucketSelect(Float64Array.of(5, large, 3), Uint32Array.of(0, 1, 2), () => [0]),
      undefined,
      `${large}`,
    );
  t.strictSame(
    bucketSelect(Float64Array.of(2 ** 53 - 1, NaN, 0), Uint32Array.of(0, 1, 2), () => [0, 1]),
    {
      n: 2,
      values: new Map([
        [0, 0],
        [1, 2 ** 53 - 1],
      ]),
    },
  );
});

t.test("a negative value: undefined, and the next call is not disturbed", async (t) => {
  const column = Float64Array.of(5, -1, 3, 7);
  t.equal(
    bucketSelect(column, Uint32Array.of(0, 1, 2), () => [0]),
    undefined,
  );
  t.strictSame(
    bucketSelect(column, Uint32Array.of(0, 2, 3), () => [0, 1, 2]),
    {
      n: 3,
      values: new Map([
        [0, 3],
        [1, 5],
        [2, 7],
      ]),
    },
  );
});

t.test("no rows, or only values missing", async (t) => {
  t.strictSame(
    bucketSelect(Float64Array.of(NaN, NaN), Uint32Array.of(0, 1), () => [0]),
    { n: 0, values: new Map() },
  );
  t.strictSame(
    bucketSelect(Float64Array.of(1), new Uint32Array(0), () => [0]),
    { n: 0, values: new Map() },
  );
});
