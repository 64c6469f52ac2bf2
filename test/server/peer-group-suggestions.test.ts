// Peer-group suggestions (SEMANTICS.md section 14, issue 30) end to end on a hand-made
// book whose every row needs a known move: the exact answer over REST (GET and POST
// alike) and Connect, by both engines; the bounds' 400s; under DISCLOSURE_RULE=standard
// a refused original with null counts, and a refusal of another peer-group operation
// that carries the best suggestion over REST, Connect and gRPC.
import t from "tap";
import type { Knex } from "knex";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { DisclosureRefusalSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { PeerGroupService } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";

const AS_OF = "2026-08-31";
const PATH = "/commercialpolicybenchmark/v2.0/peergroup/suggestpeergroups";

/**
 * The requested group: NAICS 524, lines [11], revenues 1,000 to 2,000, PRV, the last 12
 * months: 10 programs of 10 companies. Beyond it, rows that need one move each: the
 * naics move 10 programs of 5 companies (NAICS 522), one exposure move 3 (revenues
 * 3,000), organizationType 2 (PUB), lineOfBusiness 4 and window 6 (more programs of the
 * group's own companies). All curated, so the rule's source condition always holds.
 */
async function insertBook(knex: Knex): Promise<void> {
  await knex("coverages").insert({ coverage_id: 1, name: "Directors & Officers" });
  await knex("lines_of_business").insert([
    { line_of_business_id: 11, coverage_id: 1, name: "Side A" },
    { line_of_business_id: 12, coverage_id: 1, name: "Side B" },
  ]);
  const companies = [
    ...Array.from({ length: 10 }, () => ({ naics: "524126", revenues: "1500", organization_type: "PRV" })),
    ...Array.from({ length: 5 }, () => ({ naics: "522110", revenues: "1500", organization_type: "PRV" })),
    ...Array.from({ length: 3 }, () => ({ naics: "524126", revenues: "3000", organization_type: "PRV" })),
    ...Array.from({ length: 2 }, () => ({ naics: "524126", revenues: "1500", organization_type: "PUB" })),
  ].map((company, i) => ({ company_id: 1001 + i, company_name: `Company ${i}`, ...company }));
  await knex("companies").insert(companies);
  const program = (company: number, line = 11, date = "2026-01-01") => ({
    company_id: 1001 + company,
    coverage_id: 1,
    line_of_business_id: line,
    effective_date: date,
    limit_amount: "1000000",
    premium: "10000",
    retention: "0",
    source: "curated",
  });
  const programs = [
    ...Array.from({ length: 20 }, (_, i) => program(i)),
    ...Array.from({ length: 5 }, (_, i) => program(10 + i)), // NAICS 522: a second program each
    ...Array.from({ length: 4 }, (_, i) => program(i, 12)),
    ...Array.from({ length: 6 }, (_, i) => program(4 + i, 11, "2025-03-01")),
  ];
  await knex("programs").insert(programs.map((row, i) => ({ program_id: i + 1, ...row })));
}

const GROUP = {
  naics: ["524"],
  coverageId: 1,
  lineOfBusinessId: [11],
  exposureRangeLow: 1000,
  exposureRangeHigh: 2000,
  organizationType: ["prv"],
  oldestTrailing: 12,
};
const sent = (over: object) => ({
  naics: ["524"],
  coverageId: 1,
  lineOfBusinessId: [11],
  exposureType: "Revenues",
  exposureRangeLow: 1000,
  exposureRangeHigh: 2000,
  organizationType: ["PRV"],
  oldestTrailing: 12,
  newestTrailing: 0,
  ...over,
});

/** By hand: cost 1 window (16) and naics (20); cost 2 the pairs with no qualifying single move; the rest dropped by the subset rule. */
const EXPECTED = {
  original: { programCount: 10, companyCount: 10, meets: false },
  suggestions: [
    { moves: ["window"], programCount: 16, companyCount: 10, peerGroup: sent({ oldestTrailing: 24 }) },
    { moves: ["naics"], programCount: 20, companyCount: 15, peerGroup: sent({ naics: ["52"] }) },
    {
      moves: ["exposure", "organizationType"],
      programCount: 15,
      companyCount: 15,
      peerGroup: sent({ exposureRangeLow: 500, exposureRangeHigh: 4000, organizationType: [] }),
    },
    {
      moves: ["lineOfBusiness", "organizationType"],
      programCount: 16,
      companyCount: 12,
      peerGroup: sent({ lineOfBusinessId: [0], organizationType: [] }),
    },
    {
      moves: ["exposure", "lineOfBusiness"],
      programCount: 17,
      companyCount: 13,
      peerGroup: sent({ exposureRangeLow: 500, exposureRangeHigh: 4000, lineOfBusinessId: [0] }),
    },
  ],
};

/** The PUB companies alone: 2 companies, refused under the rule (min_companies). */
const REFUSED = { ...GROUP, organizationType: ["PUB"] };
/** Its best suggestion at minPrograms 30: 31 programs need every move but lineOfBusiness. */
const BEST = {
  moves: ["naics", "exposure", "organizationType", "window"],
  programCount: 31,
  companyCount: 20,
  peerGroup: sent({
    naics: ["52"],
    exposureRangeLow: 500,
    exposureRangeHigh: 4000,
    organizationType: [],
    oldestTrailing: 24,
  }),
};

for (const engine of ENGINES) {
  t.test(`${engine} engine`, async (t) => {
    const { knex, url } = await createTestDatabase(t);
    await insertBook(knex);
    const peerIndex = engine === "index" ? await startPeerIndex(t, knex, url) : undefined;
    const open = await startTestServer(t, knex, { asOf: AS_OF, peerIndex });
    const guarded = await startTestServer(t, knex, { asOf: AS_OF, peerIndex, disclosure: STANDARD_RULE });
    const post = async (base: string, body: object, path = PATH) => {
      const res = await fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };

    t.test("the answer, figure by figure, GET and POST alike", async (t) => {
      t.same(await post(open.url, { ...GROUP, minPrograms: 15, maxSuggestions: 10 }), { status: 200, json: EXPECTED });
      const query =
        "naics=524&CoverageId=1&lobId=11&exposureRangeLow=1000.004&exposureRangeHigh=2000&organizationType=Prv&oldestTrailing=12&minPrograms=15";
      const get = await fetch(`${open.url}${PATH}?${query}`);
      t.same(
        await get.json(),
        { ...EXPECTED, suggestions: EXPECTED.suggestions.slice(0, 3) },
        "maxSuggestions defaults to 3; any spelling §11 reads the same way",
      );
      const all = await post(open.url, { ...GROUP, minPrograms: 10 });
      t.same(all.json.original, { ...EXPECTED.original, meets: true }, "the original qualifies at exactly minPrograms");
      t.same(
        (all.json.suggestions as { moves: string[] }[]).map((s) => s.moves),
        [["organizationType"], ["exposure"], ["lineOfBusiness"]],
        "and suggestions are answered anyway",
      );
      t.same(
        await post(open.url, { ...GROUP, minPrograms: 36 }),
        { status: 200, json: { original: EXPECTED.original, suggestions: [] } },
        "no qualifying candidate: []",
      );
      const connect = createClient(PeerGroupService, createConnectTransport({ baseUrl: open.url, httpVersion: "1.1" }));
      const answer = await connect.suggestPeerGroups({
        ...GROUP,
        organizationType: ["PRV"],
        minPrograms: 15,
        maxSuggestions: 1,
      });
      t.same(
        [
          answer.original?.programCount,
          answer.suggestions[0]?.moves,
          answer.suggestions[0]?.programCount,
          answer.suggestions[0]?.peerGroup?.oldestTrailing,
        ],
        [10n, ["window"], 16n, 24],
        "Connect",
      );
    });

    t.test(
      "minPrograms and maxSuggestions: absent or null the default, anything else out of bounds a 400 naming the field",
      async (t) => {
        t.equal((await post(open.url, { ...GROUP, minPrograms: null, maxSuggestions: null })).status, 200);
        for (const [body, field] of [
          [{ minPrograms: 0 }, "minPrograms"],
          [{ minPrograms: 100_001 }, "minPrograms"],
          [{ maxSuggestions: 0 }, "maxSuggestions"],
          [{ maxSuggestions: 11 }, "maxSuggestions"],
          [{ maxSuggestions: -1 }, "maxSuggestions"],
          [{ minPrograms: "many" }, "minPrograms"],
        ] as const) {
          const { status, json } = await post(open.url, { ...GROUP, ...body });
          t.match(
            { status, json },
            { status: 400, json: { code: "invalid_argument", errors: [{ field }] } },
            JSON.stringify(body),
          );
        }
        t.equal(
          (await post(open.url, { ...GROUP, minPrograms: 100_000, maxSuggestions: 10 })).status,
          200,
          "the upper bounds themselves",
        );
        const both = await post(open.url, { coverageId: 1, minPrograms: 0, newestTrailing: 24 });
        t.same(
          (both.json.errors as { field: string }[]).map((e) => e.field),
          ["naics", "exposureRangeLow", "exposureRangeHigh", "newestTrailing", "minPrograms"],
          "every problem at once, the peer group's as for any peer-group call",
        );
      },
    );

    t.test("under the rule: a refused original shows null counts; only passing groups are offered", async (t) => {
      const { status, json } = await post(guarded.url, { ...REFUSED, minPrograms: 10 });
      t.equal(status, 200, "suggestions never refuse");
      t.same(json.original, { programCount: null, companyCount: null, meets: false });
      t.same((json.suggestions as object[])[0], {
        moves: ["organizationType"],
        programCount: 12,
        companyCount: 12,
        peerGroup: sent({ organizationType: [] }),
      });
      const unguarded = await post(open.url, { ...REFUSED, minPrograms: 1 });
      t.same(
        unguarded.json.original,
        { programCount: 2, companyCount: 2, meets: true },
        "without the rule, the same group qualifies",
      );
      const guardedSmall = await post(guarded.url, { ...REFUSED, minPrograms: 1 });
      t.notOk(
        (guardedSmall.json.suggestions as { programCount: number }[]).some((s) => s.programCount < 5),
        "no offered group under 5 companies",
      );
    });

    t.test("a refusal of any peer-group operation carries the best suggestion", async (t) => {
      for (const path of [
        "assessment/getTotalProgramCount",
        "assessment/getassessmentdata",
        "assessment/getrpmdistributiondata",
      ]) {
        const { status, json } = await post(
          guarded.url,
          { ...REFUSED, limit: 5e6, premium: 5e4 },
          `/commercialpolicybenchmark/v2.0/${path}`,
        );
        t.equal(status, 400, path);
        t.same(json.disclosure, { condition: "min_companies", threshold: 5, suggestion: BEST }, `${path}: REST`);
      }
      const wide = await post(
        guarded.url,
        { ...REFUSED, naics: ["99"] },
        "/commercialpolicybenchmark/v2.0/assessment/getTotalProgramCount",
      );
      t.same(
        wide.json.disclosure,
        { condition: "min_companies", threshold: 5, suggestion: null },
        "no group qualifies: null",
      );
      // Limit adequacy ignores oldestTrailing: its group is in the default window, which
      // holds the older programs already, so no window move.
      const adequacy = await post(
        guarded.url,
        REFUSED,
        "/commercialpolicybenchmark/v2.0/lossdetails/getlimitadequacydata",
      );
      const inDefaultWindow = { ...BEST, moves: ["naics", "exposure", "organizationType"] };
      t.same(
        adequacy.json.disclosure,
        { condition: "min_companies", threshold: 5, suggestion: inDefaultWindow },
        "limit adequacy: suggested in its default window",
      );

      const request = { ...REFUSED, organizationType: ["PUB"] };
      const connect = createClient(
        AssessmentService,
        createConnectTransport({ baseUrl: guarded.url, httpVersion: "1.1" }),
      );
      const error = await connect.getTotalProgramCount(request).then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
      t.equal(error?.code, Code.FailedPrecondition, "Connect");
      const detail = error?.findDetails(DisclosureRefusalSchema)[0];
      t.same(
        [detail?.suggestion?.moves, detail?.suggestion?.programCount, detail?.suggestion?.peerGroup?.naics],
        [BEST.moves, 31n, ["52"]],
        "Connect: the detail's suggestion",
      );

      const grpcError = await callWithGrpcJs(guarded.url, AssessmentService.method.getTotalProgramCount, request).then(
        () => undefined,
        (e: { code: number; metadata: { get(key: string): unknown[] } }) => e,
      );
      t.equal(grpcError?.code, 9, "gRPC FAILED_PRECONDITION");
      const trailer = new Headers({
        "grpc-status": "9",
        "grpc-status-details-bin": (grpcError?.metadata.get("grpc-status-details-bin")[0] as Buffer).toString("base64"),
      });
      const grpcDetail = findTrailerError(trailer)?.findDetails(DisclosureRefusalSchema)[0];
      t.same(
        [
          grpcDetail?.suggestion?.moves,
          grpcDetail?.suggestion?.programCount,
          grpcDetail?.suggestion?.peerGroup?.exposureRangeHigh,
        ],
        [BEST.moves, 31n, 4000],
        "gRPC (grpc-js): the detail's suggestion",
      );

      const passes = await post(guarded.url, GROUP, "/commercialpolicybenchmark/v2.0/assessment/getTotalProgramCount");
      t.same(
        passes,
        { status: 200, json: 10 as unknown as Record<string, unknown> },
        "a group that passes is answered as ever",
      );
    });
  });
}
