// Quickselect against a sort: for random values (ties, negatives, one value, all
// equal) and random positions, each selected value is the one a full sort puts there.
import t from "tap";
import { selectPositions } from "../../src/peer-index/select.js";
import { createSeededRandom } from "../helpers/seeded-random.js";

const random = createSeededRandom("select-1");

t.test("selected values are the sorted values at those positions", async (t) => {
  let mismatches = 0;
  for (let round = 0; round < 500; round++) {
    const n = 1 + random.int(round < 100 ? 8 : 2_000);
    const spread = random.pick([1, 3, 100, 1e6, 2 ** 53]);
    const values = Float64Array.from(
      { length: n },
      () => Math.floor(random.next() * spread) - (random.chance(0.2) ? spread / 2 : 0),
    );
    const sorted = [...values].sort((a, b) => a - b);
    const positions = Array.from({ length: 1 + random.int(6) }, () => random.int(n));
    positions.push(n - 1, 0, positions[0]!); // the ends, and a repeat
    const found = selectPositions(values, n, positions);
    for (const p of positions) if (found.get(p) !== sorted[p]) mismatches++;
  }
  t.equal(mismatches, 0);
});

t.test("positions outside [0, n) are left out", async (t) => {
  t.same([...selectPositions(Float64Array.of(3, 1, 2), 3, [-1, 3, 1])], [[1, 2]]);
});
