// The bound the disclosure rule's company conditions are settled by (programs-per-company.ts).
import t from "tap";
import { maxProgramsPerCompany } from "../../src/peer-index/programs-per-company.js";

t.test("the most programs one company holds in a run of rows, the tally left clear", async (t) => {
  const company = Uint32Array.from([3, 1, 3, 0, 3, 1, 2, 2, 2, 2]);
  const tally = new Uint32Array(4);
  t.equal(maxProgramsPerCompany(company, { start: 0, end: 6 }, tally), 3, "company 3, three times");
  t.strictSame(Array.from(tally), [0, 0, 0, 0]);
  t.equal(maxProgramsPerCompany(company, { start: 5, end: 10 }, tally), 4, "company 2, four times");
  t.equal(maxProgramsPerCompany(company, { start: 4, end: 4 }, tally), 0, "no rows");
});
