// Names and unknown ids from the reference data (src/console/web/src/reference/): the
// NAICS sectors split over several codes are labelled as parts of one, the same way
// everywhere; ids an old link holds that the data no longer has are named.
import t from "tap";
import type { ReferenceData } from "../../src/console/web/src/api/types.js";
import {
  coverageName,
  lineOfBusinessName,
  naicsLabel,
  organizationTypeName,
} from "../../src/console/web/src/reference/reference-names.js";
import { unknownIds } from "../../src/console/web/src/reference/unknown-ids.js";
import { parsePeerGroup } from "../../src/console/web/src/state/peer-group.js";

const REFERENCE: ReferenceData = {
  coverages: [
    { coverageId: 1, name: "Directors & Officers", linesOfBusiness: [{ lineOfBusinessId: 10, name: "Side A" }] },
  ],
  organizationTypes: [
    { code: "PUB", name: "Public" },
    { code: "PRV", name: "Private" },
  ],
  naicsSectors: [
    { code: "31", name: "Manufacturing", subsectors: [{ code: "311", name: "Food Manufacturing" }] },
    { code: "32", name: "Manufacturing", subsectors: [] },
    { code: "45", name: "Retail Trade", subsectors: [] },
    { code: "49", name: "Transportation and Warehousing", subsectors: [] },
    {
      code: "52",
      name: "Finance and Insurance",
      subsectors: [{ code: "524", name: "Insurance Carriers and Related Activities" }],
    },
  ],
  datasetVersion: 1,
};

t.test("NAICS sectors that span several codes say which part they are", async (t) => {
  t.equal(naicsLabel(REFERENCE, "31"), "31 Manufacturing (part of 31-33)");
  t.equal(naicsLabel(REFERENCE, "32"), "32 Manufacturing (part of 31-33)");
  t.equal(naicsLabel(REFERENCE, "45"), "45 Retail Trade (part of 44-45)");
  t.equal(naicsLabel(REFERENCE, "49"), "49 Transportation and Warehousing (part of 48-49)");
  t.equal(naicsLabel(REFERENCE, "52"), "52 Finance and Insurance");
  t.equal(naicsLabel(REFERENCE, "311"), "311 Food Manufacturing", "a subsector is not a split sector");
  t.equal(naicsLabel(REFERENCE, "524"), "524 Insurance Carriers and Related Activities");
  t.equal(naicsLabel(null, "33"), "33 (part of 31-33)", "before the reference data loads");
  t.equal(naicsLabel(REFERENCE, "99"), "99", "a code without a title");
});

t.test("names, with one fallback wording for ids the data lacks", async (t) => {
  t.equal(coverageName(REFERENCE, "1"), "Directors & Officers");
  t.equal(coverageName(REFERENCE, "9"), "Coverage 9");
  t.equal(lineOfBusinessName(REFERENCE, "1", "10"), "Side A");
  t.equal(lineOfBusinessName(REFERENCE, "1", "11"), "Line of business 11");
  t.equal(organizationTypeName(REFERENCE, "pub"), "Public", "codes compare case-insensitively");
  t.equal(organizationTypeName(null, "PRV"), "Private", "the spec's codes before the reference data loads");
  t.equal(organizationTypeName(REFERENCE, "XYZ"), "XYZ");
});

t.test("unknownIds: a coverage, its lines of business and organization types the data lacks", async (t) => {
  t.same(
    unknownIds(parsePeerGroup("?coverageId=1&lineOfBusinessId=10&organizationType=pub"), REFERENCE),
    [],
    "all known",
  );
  t.same(unknownIds(parsePeerGroup("?coverageId=1&lineOfBusinessId=10,11&organizationType=PUB,XYZ"), REFERENCE), [
    "line of business 11 (of Directors & Officers)",
    "organization type XYZ",
  ]);
  t.same(
    unknownIds(parsePeerGroup("?coverageId=999&lineOfBusinessId=10"), REFERENCE),
    ["coverage 999"],
    "an unknown coverage's lines are not judged",
  );
  t.same(unknownIds(parsePeerGroup("?coverageId=999"), null), [], "nothing said before the reference data loads");
});
