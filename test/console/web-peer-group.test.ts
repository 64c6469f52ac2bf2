// The peer group in the URL (src/console/web/src/state/peer-group.ts): a link must read
// back as the group it was written from, with defaults left out and nonsense defaulted.
import t from "tap";
import {
  DEFAULT_NEWEST,
  DEFAULT_OLDEST,
  DEFAULT_LOSS_YEARS,
  DEFAULT_PERIOD_MONTHS,
  missingInputs,
  parsePeerGroup,
  serializePeerGroup,
  type PeerGroup,
} from "../../src/console/web/src/state/peer-group.js";

const GROUP: PeerGroup = {
  companyId: "42",
  naics: ["52", "541"],
  coverageId: "3",
  lineOfBusinessId: ["7", "9"],
  exposureType: "Market Cap",
  exposureRangeLow: "1000000",
  exposureRangeHigh: "2500000.50",
  organizationType: ["PUB", "PRV"],
  oldestTrailing: 12,
  newestTrailing: 3,
  limit: "5000000",
  premium: "40000.25",
  retention: "250000",
  amountsCoverageId: "",
  periodMonths: 6,
  years: 10,
  otherLimits: ["10000000", "15000000.50"],
};

t.test("round trip: serialize then parse gives the same group", async (t) => {
  t.same(parsePeerGroup(serializePeerGroup(GROUP)), GROUP);
  const plain: PeerGroup = {
    ...GROUP,
    lineOfBusinessId: [],
    organizationType: [],
    exposureType: "Revenues",
    oldestTrailing: DEFAULT_OLDEST,
    newestTrailing: DEFAULT_NEWEST,
    limit: "",
    premium: "",
    retention: "",
    periodMonths: DEFAULT_PERIOD_MONTHS,
    years: DEFAULT_LOSS_YEARS,
    otherLimits: [],
  };
  t.same(parsePeerGroup(serializePeerGroup(plain)), plain, "with every default");
});

t.test("the link uses the API's names and leaves defaults out", async (t) => {
  const search = serializePeerGroup(GROUP);
  t.equal(
    search,
    "?companyId=42&naics=52%2C541&coverageId=3&lineOfBusinessId=7%2C9&exposureType=Market+Cap&exposureRangeLow=1000000&exposureRangeHigh=2500000.50&organizationType=PUB%2CPRV&oldestTrailing=12&newestTrailing=3&limit=5000000&premium=40000.25&retention=250000&periodMonths=6&years=10&otherLimits=10000000%2C15000000.50",
  );
  t.equal(serializePeerGroup(parsePeerGroup("")), "", "an empty group is an empty query");
  t.equal(
    serializePeerGroup(
      parsePeerGroup("?naics=52&exposureType=Revenues&oldestTrailing=24&newestTrailing=0&periodMonths=12&years=5"),
    ),
    "?naics=52",
    "defaults dropped",
  );
});

t.test("the API's own spellings of 'every' read as none chosen; bad values fall back", async (t) => {
  const group = parsePeerGroup(
    "?lineOfBusinessId=0&organizationType=All&exposureType=Bananas&oldestTrailing=7&newestTrailing=x&naics=52,,%2053&periodMonths=4",
  );
  t.same(group.lineOfBusinessId, []);
  t.same(group.organizationType, []);
  t.equal(group.exposureType, "Revenues");
  t.equal(group.oldestTrailing, DEFAULT_OLDEST);
  t.equal(group.newestTrailing, DEFAULT_NEWEST);
  t.same(group.naics, ["52", "53"]);
  t.equal(group.periodMonths, DEFAULT_PERIOD_MONTHS, "a period length the trend does not offer");
});

t.test("missingInputs: what keeps a group from being asked for", async (t) => {
  t.same(missingInputs(GROUP), []);
  t.same(missingInputs(parsePeerGroup("")), [
    "Choose at least one NAICS code.",
    "Choose a coverage.",
    "Enter the exposure range (both ends).",
  ]);
  t.match(missingInputs({ ...GROUP, limit: "5,000" }), [
    "The client's limit must be an amount in dollars, up to 2 decimals.",
  ]);
  t.match(missingInputs({ ...GROUP, newestTrailing: 12 }), [/newest end/]);
});
