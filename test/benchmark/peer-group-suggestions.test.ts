// The rules of SEMANTICS.md section 14 at their edges, on counts made by hand: which
// moves a group allows, the exposure move's rounding, the subset rule, each ordering
// tie-break, the bounds, the rule's refused original, and no qualifying candidate.
import t from "tap";
import { Decimal } from "../../src/benchmark/decimal.js";
import { STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import type { PeerGroup } from "../../src/benchmark/peer-group.js";
import {
  suggestedPeerGroup,
  suggestPeerGroups,
  type WideningCounts,
} from "../../src/benchmark/peer-group-suggestions.js";
import {
  LINE_MOVE,
  movesOf,
  NAICS_MOVE,
  ORGANIZATION_MOVE,
  possibleMoves,
  WIDENING_CODES,
  widenExposure,
  wideningSpace,
  WINDOW_MOVE,
  withinWidening,
} from "../../src/benchmark/peer-group-widening.js";
import type { Contributors } from "../../src/benchmark/peer-statistics.js";

const AS_OF = "2026-08-31";
const DEFAULT = { oldest: 24, newest: 0 };
const exposure = (moves: number) => moves << 1;

const group = (over: Partial<PeerGroup> = {}): PeerGroup => ({
  naics2: [],
  naics3: ["524"],
  coverageId: 1,
  lineOfBusinessIds: [11],
  exposure: "revenues",
  exposureLow: new Decimal("1000"),
  exposureHigh: new Decimal("2000"),
  organizationTypes: ["PRV"],
  ...over,
});

/** Counts where code c holds programs[c] programs and one company per 2. */
function counts(programs: (code: number) => number): WideningCounts {
  const all = [...Array(WIDENING_CODES).keys()].map(programs);
  return { programs: all, companies: all.map((n) => Math.ceil(n / 2)) };
}

/** Each code's programs: the sum of `perCode` over the codes within it (as an engine counts them). */
function fromRows(perCode: Record<number, number>): WideningCounts {
  return counts((candidate) =>
    Object.entries(perCode).reduce((sum, [code, n]) => sum + (withinWidening(Number(code), candidate) ? n : 0), 0),
  );
}

const bounds = { minPrograms: 30, maxSuggestions: 10 };

t.test("each move's applicability", async (t) => {
  t.equal(
    possibleMoves(group(), { oldest: 12, newest: 0 }),
    NAICS_MOVE | LINE_MOVE | ORGANIZATION_MOVE | WINDOW_MOVE,
    "all four",
  );
  t.equal(possibleMoves(group({ naics2: ["52"], naics3: [] }), DEFAULT) & NAICS_MOVE, 0, "naics: no 3-digit code");
  t.equal(
    possibleMoves(group({ naics2: ["52"], naics3: ["611"] }), DEFAULT) & NAICS_MOVE,
    NAICS_MOVE,
    "naics: one 3-digit code is enough",
  );
  t.equal(
    possibleMoves(group({ lineOfBusinessIds: [] }), DEFAULT) & LINE_MOVE,
    0,
    "lineOfBusiness: already every LOB ([] or [0] as read)",
  );
  t.equal(
    possibleMoves(group({ organizationTypes: [] }), DEFAULT) & ORGANIZATION_MOVE,
    0,
    "organizationType: every type ([] or All as read)",
  );
  t.equal(possibleMoves(group(), DEFAULT) & WINDOW_MOVE, 0, "window: already the default");
  t.equal(possibleMoves(group(), { oldest: 24, newest: 3 }) & WINDOW_MOVE, WINDOW_MOVE, "window: any other");

  // Only the exposure move possible: candidates are 1, 2 and 3 exposure moves, never more.
  const only = group({ naics2: ["52"], naics3: [], lineOfBusinessIds: [], organizationTypes: [] });
  const answer = suggestPeerGroups(
    wideningSpace(only, AS_OF, DEFAULT),
    DEFAULT,
    counts(() => 100),
    { minPrograms: 1, maxSuggestions: 10 },
    { kind: "none" },
  );
  t.same(
    answer.suggestions.map((s) => s.moves),
    [["exposure"]],
    "the subset rule keeps the one exposure move",
  );
  const growing = suggestPeerGroups(
    wideningSpace(only, AS_OF, DEFAULT),
    DEFAULT,
    fromRows({ [exposure(3)]: 40 }),
    bounds,
    { kind: "none" },
  );
  t.same(
    growing.suggestions.map((s) => s.moves),
    [["exposure", "exposure", "exposure"]],
    "the third exposure move, and no fourth",
  );
  const none = suggestPeerGroups(wideningSpace(only, AS_OF, DEFAULT), DEFAULT, fromRows({ 0: 5 }), bounds, {
    kind: "none",
  });
  t.same(
    none,
    { original: { programCount: 5, companyCount: 3, meets: false }, suggestions: [] },
    "no qualifying candidate: []",
  );
});

t.test("the exposure move: low / 2 rounded down to cents, high * 2, three times", async (t) => {
  const [low, high] = widenExposure([new Decimal("0.03"), new Decimal("0.01")]);
  t.equal(low.toFixed(), "0.01", "0.015 rounds down to 0.01");
  t.equal(high.toFixed(), "0.02");
  t.same(
    widenExposure([new Decimal("1000.01"), new Decimal("2000.5")]).map((d) => d.toFixed()),
    ["500", "4001"],
  );
  t.same(
    widenExposure([new Decimal("0.01"), new Decimal("0")]).map((d) => d.toFixed()),
    ["0", "0"],
    "0.005 rounds down to 0",
  );
  const space = wideningSpace(
    group({ exposureLow: new Decimal("999.99"), exposureHigh: new Decimal("1000.01") }),
    AS_OF,
    DEFAULT,
  );
  t.same(
    space.exposureRanges.map(([l, h]) => [l.toFixed(), h.toFixed()]),
    [
      ["999.99", "1000.01"],
      ["499.99", "2000.02"],
      ["249.99", "4000.04"],
      ["124.99", "8000.08"],
    ],
  );
  const sent = suggestedPeerGroup(space, DEFAULT, exposure(3) | LINE_MOVE);
  t.same(
    sent,
    {
      naics: ["524"],
      coverageId: 1,
      lineOfBusinessId: [0],
      exposureType: "Revenues",
      exposureRangeLow: 124.99,
      exposureRangeHigh: 8000.08,
      organizationType: ["PRV"],
      oldestTrailing: 24,
      newestTrailing: 0,
    },
    "the widened group in the POST assessment's names, unmoved fields as the request meant them",
  );
  const moved = suggestedPeerGroup(
    wideningSpace(group({ naics2: ["61"], naics3: ["524", "611", "529"] }), AS_OF, { oldest: 6, newest: 3 }),
    { oldest: 6, newest: 3 },
    NAICS_MOVE | ORGANIZATION_MOVE,
  );
  t.same(
    [moved.naics, moved.organizationType, moved.oldestTrailing, moved.newestTrailing],
    [["52", "61"], [], 6, 3],
    "naics prefixes deduplicated and sorted as text; the window kept",
  );
  t.same(
    suggestedPeerGroup(wideningSpace(group(), AS_OF, { oldest: 6, newest: 3 }), { oldest: 6, newest: 3 }, WINDOW_MOVE)
      .oldestTrailing,
    24,
    "the window move: the default window",
  );
});

t.test("moves in order, exposure once per step", async (t) => {
  t.same(movesOf(WIDENING_CODES - 1), [
    "naics",
    "exposure",
    "exposure",
    "exposure",
    "lineOfBusiness",
    "organizationType",
    "window",
  ]);
  t.same(movesOf(exposure(2) | WINDOW_MOVE), ["exposure", "exposure", "window"]);
});

t.test("the subset rule: dropped when a qualifying candidate uses a subset of its moves", async (t) => {
  const space = wideningSpace(group(), AS_OF, { oldest: 12, newest: 0 });
  const trailing = { oldest: 12, newest: 0 };
  // 40 programs need the naics move only; so naics+anything qualifies too and is dropped.
  const answer = suggestPeerGroups(space, trailing, fromRows({ [NAICS_MOVE]: 40 }), bounds, { kind: "none" });
  t.same(
    answer.suggestions.map((s) => s.moves),
    [["naics"]],
  );
  // naics (40) and lineOfBusiness (40) both qualify: naics+lineOfBusiness is dropped, both kept.
  const two = suggestPeerGroups(space, trailing, fromRows({ [NAICS_MOVE]: 40, [LINE_MOVE]: 40 }), bounds, {
    kind: "none",
  });
  t.same(
    two.suggestions.map((s) => s.moves.join(",")),
    ["lineOfBusiness", "naics"],
    "equal cost and count: the move list as text",
  );
  // Two exposure moves qualify, one does not: exposure x2 is kept, exposure x3 dropped,
  // and naics+exposure (no subset qualifies: one exposure move is not enough alone) kept.
  const steps = suggestPeerGroups(
    space,
    trailing,
    fromRows({ [exposure(2)]: 30, [NAICS_MOVE | exposure(1)]: 30 }),
    bounds,
    { kind: "none" },
  );
  t.same(
    steps.suggestions.map((s) => s.moves.join(",")),
    ["exposure,exposure", "naics,exposure"],
    "equal cost and count: text order",
  );
});

t.test("ordering: cost, then program count ascending, then the move list as text", async (t) => {
  const space = wideningSpace(group(), AS_OF, { oldest: 12, newest: 0 });
  const trailing = { oldest: 12, newest: 0 };
  const answer = suggestPeerGroups(
    space,
    trailing,
    fromRows({ [WINDOW_MOVE]: 50, [ORGANIZATION_MOVE]: 35, [NAICS_MOVE | LINE_MOVE]: 31 }),
    bounds,
    { kind: "none" },
  );
  t.same(
    answer.suggestions.map((s) => [s.moves.join(","), s.programCount]),
    [
      ["organizationType", 35],
      ["window", 50],
      ["naics,lineOfBusiness", 31],
    ],
    "one move before two, whatever the counts; among one move, fewer programs first",
  );
  const capped = suggestPeerGroups(
    space,
    trailing,
    fromRows({ [WINDOW_MOVE]: 50, [ORGANIZATION_MOVE]: 35, [NAICS_MOVE | LINE_MOVE]: 31 }),
    { minPrograms: 30, maxSuggestions: 1 },
    { kind: "none" },
  );
  t.same(
    capped.suggestions.map((s) => s.moves),
    [["organizationType"]],
    "the first maxSuggestions",
  );
  const min = suggestPeerGroups(
    space,
    trailing,
    fromRows({ 0: 30 }),
    { minPrograms: 30, maxSuggestions: 3 },
    { kind: "none" },
  );
  t.same(min.original, { programCount: 30, companyCount: 15, meets: true }, "exactly minPrograms qualifies");
  t.equal(min.suggestions.length, 3, "suggestions answered whether or not the original qualifies");
  const above = suggestPeerGroups(
    space,
    trailing,
    fromRows({ 0: 29 }),
    { minPrograms: 30, maxSuggestions: 3 },
    { kind: "none" },
  );
  t.same(above.original.meets, false, "29 does not");
});

t.test("under the rule: only groups whose programs pass; a refused original shows null counts", async (t) => {
  const space = wideningSpace(group(), AS_OF, { oldest: 12, newest: 0 });
  const trailing = { oldest: 12, newest: 0 };
  const passing: Contributors = {
    programs: 40,
    companies: 10,
    topTwoCompanyPrograms: 8,
    partnerPrograms: 0,
    largestSourcePrograms: 0,
  };
  const base = fromRows({ 0: 40, [NAICS_MOVE]: 10, [LINE_MOVE]: 10 });
  // The original and naics-only fail on companies; lineOfBusiness passes; naics+lineOfBusiness passes.
  const contributors = [...Array(WIDENING_CODES).keys()].map((code) =>
    code === 0 || code === NAICS_MOVE ? { ...passing, companies: 4 } : passing,
  );
  const answer = suggestPeerGroups(space, trailing, { ...base, contributors }, bounds, STANDARD_RULE);
  t.same(answer.original, { programCount: null, companyCount: null, meets: false }, "refused: null counts, not met");
  t.notOk(
    answer.suggestions.some((s) => s.moves.join() === "naics"),
    "a refused candidate is not offered",
  );
  t.same(answer.suggestions[0]?.moves, ["exposure"], "a passing one is");
  t.throws(
    () => suggestPeerGroups(space, trailing, base, bounds, STANDARD_RULE),
    /did not count the contributors/,
    "fails closed without contributors",
  );
});
