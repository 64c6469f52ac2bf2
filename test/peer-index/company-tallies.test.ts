// The radix grouping behind the index's contributor counts, against a Map: for keys of
// companies anywhere below the largest count a key holds (2^29), with one to three
// radix passes, each figure's companies and two largest must be the plain count's.
import t from "tap";
import { topTwo } from "../../src/benchmark/contributors.js";
import { tallyCompanies } from "../../src/peer-index/company-tallies.js";
import { createSeededRandom } from "../helpers/seeded-random.js";

const random = createSeededRandom(process.env.CPB_PROPERTY_SEED ?? "cpb-company-tallies-1");

/** Per figure (all rows, limit 4, premium 2, retention 1): companies with a row, and the two largest. */
function plainTallies(keys: number[]): { companies: number; topTwo: number }[] {
  return [0, 4, 2, 1].map((bit) => {
    const perCompany = new Map<number, number>();
    for (const key of keys) {
      if (bit === 0 || (key & bit) !== 0)
        perCompany.set(Math.floor(key / 8), (perCompany.get(Math.floor(key / 8)) ?? 0) + 1);
    }
    return { companies: perCompany.size, topTwo: topTwo(perCompany.values()) };
  });
}

for (const companyCount of [1, 7, 256, 2049, 300_000, 2 ** 29]) {
  t.test(`${companyCount} companies`, async (t) => {
    for (const n of [0, 1, 2, 50, 5_000]) {
      // A few companies, some of them many times; the highest index among them.
      const companies = [
        companyCount - 1,
        ...Array.from({ length: 1 + random.int(n + 1) }, () => random.int(companyCount)),
      ];
      const keys = Array.from({ length: n }, () => random.pick(companies) * 8 + random.int(8));
      const [sorted, spare] = [Uint32Array.from(keys), new Uint32Array(n)];
      const tallies = tallyCompanies(sorted, spare, n, companyCount).map(({ companies, topTwo }) => ({
        companies,
        topTwo,
      }));
      t.strictSame(tallies, plainTallies(keys), `${n} keys`);
    }
  });
}
