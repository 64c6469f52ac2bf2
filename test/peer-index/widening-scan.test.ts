// How a suggestions scan is cut into runs of NAICS keys for the two threads
// (src/peer-index/widening-scan.ts): whole keys, every key once, about the rows asked.
import t from "tap";
import { chunkKeys, type WideningPlan } from "../../src/peer-index/widening-scan.js";

/** A plan of keys holding these many rows each (only their ranges matter here). */
const planOf = (sizes: number[]) => {
  const starts = Int32Array.from(sizes.map((_, i) => i * 1000));
  return { starts, ends: Int32Array.from(sizes.map((n, i) => i * 1000 + n)) } as unknown as WideningPlan;
};

t.test("runs of whole keys, each of about the rows asked, covering every key once", async (t) => {
  t.same([...chunkKeys(planOf([10, 10, 10, 10, 10, 10]), 20)], [0, 2, 4, 6], "two keys a run");
  t.same([...chunkKeys(planOf([50, 1, 1, 30]), 20)], [0, 1, 4], "a key larger than a run is a run of its own");
  t.same([...chunkKeys(planOf([5, 5, 5]), 20)], [0, 3], "fewer rows than a run: one run");
  t.same([...chunkKeys(planOf([0, 0, 0]), 1)], [0, 3], "no rows: one run");
  t.same([...chunkKeys(planOf([]), 1)], [0, 0], "no keys: one empty run");
});
