// Choosing a company fills the builder in (src/console/web/src/builder/company-prefill.ts);
// what the new company lacks must be cleared, not kept from the company chosen before.
import t from "tap";
import type { Company } from "../../src/console/web/src/api/types.js";
import { prefillFromCompany } from "../../src/console/web/src/builder/company-prefill.js";
import { parsePeerGroup } from "../../src/console/web/src/state/peer-group.js";

const company = (fields: Partial<Company>): Company => ({
  id: 7,
  companyName: "Acme",
  organizationType: "PUB",
  naics2: 52,
  naics3: 524,
  revenues: 10_000_000,
  numberOfEmployees: 120,
  marketCap: null,
  ...fields,
});

// The builder after another company (sector 31, revenues around $1M, private) was chosen.
const previous = parsePeerGroup(
  "?companyId=1&naics=31&coverageId=2&exposureRangeLow=500000&exposureRangeHigh=2000000&organizationType=PRV",
);

t.test("a full record: its sector, half to twice its size, its type; the coverage kept", async (t) => {
  t.same(prefillFromCompany(company({}), previous, null), {
    companyId: "7",
    naics: ["52"],
    exposureType: "Revenues",
    exposureRangeLow: "5000000",
    exposureRangeHigh: "20000000",
    organizationType: ["PUB"],
  });
});

t.test("what the company lacks is cleared, not left from the previous company", async (t) => {
  const patch = prefillFromCompany(
    company({
      naics2: null,
      naics3: null,
      revenues: null,
      numberOfEmployees: null,
      marketCap: null,
      organizationType: "",
    }),
    previous,
    null,
  );
  t.same(patch.naics, [], "no NAICS code: none, not 31");
  t.equal(patch.exposureRangeLow, "", "no exposure figure: the range is emptied");
  t.equal(patch.exposureRangeHigh, "");
  t.same(patch.organizationType, [], "no organization type: all");
});

t.test("another exposure type when the company lacks the broker's", async (t) => {
  const patch = prefillFromCompany(company({ revenues: null }), previous, null);
  t.equal(patch.exposureType, "Employees");
  t.equal(patch.exposureRangeLow, "60");
  t.equal(patch.exposureRangeHigh, "240");
  t.same(
    prefillFromCompany(company({ naics2: null }), previous, null).naics,
    ["524"],
    "the subsector when the sector is missing",
  );
});
