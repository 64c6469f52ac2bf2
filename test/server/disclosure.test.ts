// Disclosure control (issue 17) end to end: a peer group that would expose a
// contributor is refused with failed_precondition, the condition and its threshold,
// over REST, Connect and gRPC, by both engines; with DISCLOSURE_RULE=none, the same
// groups are answered as ever.
import t from "tap";
import type { Knex } from "knex";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { DisclosureRefusalSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { STANDARD_RULE, type DisclosureRule } from "../../src/benchmark/disclosure-rule.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { startTestServer } from "../helpers/server.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";
const GROUP = { naics: ["52"], coverageId: 1, exposureType: "Revenues", exposureRangeLow: 0, exposureRangeHigh: 1e9 };

/** Companies in NAICS 52, each with its programs' sources (one program per entry), all in the default window. */
async function insertGroup(knex: Knex, companies: (string | null)[][]): Promise<void> {
  await knex("coverages").insert({ coverage_id: 1, name: "Directors & Officers" });
  await knex("lines_of_business").insert({ line_of_business_id: 11, coverage_id: 1, name: "Side A" });
  await knex("companies").insert(
    companies.map((_, i) => ({
      company_id: 1001 + i,
      company_name: `Company ${i}`,
      organization_type: "PRV",
      naics: "524126",
      revenues: "1000000",
    })),
  );
  let id = 1;
  const programs = companies.flatMap((sources, i) =>
    sources.map((source) => ({
      program_id: id++,
      company_id: 1001 + i,
      coverage_id: 1,
      line_of_business_id: 11,
      effective_date: "2026-01-01",
      limit_amount: String(1_000_000 * id),
      premium: "10000",
      retention: "0",
      source,
    })),
  );
  await knex("programs").insert(programs);
}

const repeat = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);

interface Case {
  name: string;
  companies: (string | null)[][];
  refused?: { condition: string; threshold: number; message: RegExp };
}

const CASES: Case[] = [
  {
    name: "4 companies",
    companies: repeat(4, ["curated"]),
    refused: {
      condition: "min_companies",
      threshold: 5,
      message: /4 companies; at least 5 are needed to keep contributors' programs confidential: widen/,
    },
  },
  { name: "5 companies", companies: repeat(5, ["curated"]) },
  {
    name: "the top two at 85%",
    companies: [repeat(9, "curated"), repeat(8, "curated"), ["curated"], ["curated"], ["curated"]],
  },
  {
    name: "the top two over 85%",
    companies: [repeat(9, "curated"), repeat(9, "curated"), ["curated"], ["curated"], ["curated"]],
    refused: {
      condition: "max_top2_share",
      threshold: 85,
      message: /^two companies hold more than 85% of this peer group's/,
    },
  },
  {
    name: "a source at 25% of the partner programs, curated aside",
    companies: [["P1", "curated"], ["P2", "curated"], ["P3"], ["P4"], ["curated"]],
  },
  {
    name: "a source over 25%",
    companies: [["P1", "P1"], ["P2"], ["P3"], ["P4"], ["curated"]],
    refused: {
      condition: "max_source_share",
      threshold: 25,
      message: /^one data-sharing partner contributed more than 25% of the partner data behind this peer group's/,
    },
  },
  {
    name: "no source is one partner source",
    companies: [[null, "P1"], [null], [null], ["P2"], ["P3"], ["P4"], ["P5"]],
    refused: { condition: "max_source_share", threshold: 25, message: /more than 25%/ },
  },
];

for (const engine of ENGINES) {
  for (const { name, companies, refused } of CASES) {
    t.test(`${engine} engine, ${name}: ${refused ? `refused (${refused.condition})` : "answered"}`, async (t) => {
      const { knex, url } = await createTestDatabase(t);
      await insertGroup(knex, companies);
      const peerIndex = engine === "index" ? await startPeerIndex(t, knex, url) : undefined;
      const logLines: Record<string, unknown>[] = [];
      const start = (disclosure: DisclosureRule) =>
        startTestServer(t, knex, { asOf: AS_OF, disclosure, peerIndex, logLines });
      const server = await start(STANDARD_RULE);
      const readyz = (await (await fetch(`${server.url}/readyz`)).json()) as { disclosure: unknown };
      t.same(
        readyz.disclosure,
        { rule: "standard", minCompanies: 5, maxSourceSharePercent: 25, maxTop2SharePercent: 85 },
        "/readyz shows the rule in force",
      );

      for (const [path, body] of [
        ["assessment/getTotalProgramCount", GROUP],
        ["assessment/getassessmentdata", { ...GROUP, limit: 5e6, premium: 5e4 }],
        ["assessment/getrpmdistributiondata", { ...GROUP, limit: 5e6, premium: 5e4 }],
        ["lossdetails/getlimitadequacydata", { ...GROUP, limit: 5e6 }],
      ] as const) {
        const res = await fetch(`${server.url}${P}/${path}`, { method: "POST", body: JSON.stringify(body) });
        const answer = (await res.json()) as Record<string, unknown>;
        if (!refused) {
          t.equal(res.status, 200, `${path} answered`);
          continue;
        }
        t.equal(res.status, 400, path);
        t.match(
          answer,
          {
            code: "failed_precondition",
            detail: refused.message,
            disclosure: { condition: refused.condition, threshold: refused.threshold },
          },
          `${path}: the condition, in words and for machines`,
        );
      }
      const losses = await fetch(`${server.url}${P}/assessment/getTotalLossCount`, {
        method: "POST",
        body: JSON.stringify(GROUP),
      });
      t.equal(losses.status, 200, "loss counts stay answerable: loss events are public records");

      if (refused) {
        const connect = createClient(
          AssessmentService,
          createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
        );
        const error = await connect.getTotalProgramCount(GROUP).then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
        t.equal(error?.code, Code.FailedPrecondition, "Connect");
        t.match(error?.rawMessage, refused.message);
        t.match(
          error?.findDetails(DisclosureRefusalSchema)[0],
          { condition: refused.condition, threshold: refused.threshold },
          "with the detail",
        );
        const grpc = await callWithGrpcJs(server.url, AssessmentService.method.getTotalProgramCount, GROUP).then(
          () => undefined,
          (e: { code: number; details: string }) => e,
        );
        t.equal(grpc?.code, 9, "gRPC FAILED_PRECONDITION");

        const refusals = logLines.filter((line) => line.msg === "disclosure refusal");
        t.ok(refusals.length >= 6, "every refusal logged");
        t.match(
          refusals[0],
          {
            requestId: String,
            subject: "anonymous",
            disclosure: { condition: refused.condition, threshold: refused.threshold },
          },
          "with the caller, the condition and the request id",
        );
        t.notMatch(
          JSON.stringify(refusals),
          /"(programs|companies|topTwoCompanyPrograms|partnerPrograms|largestSourcePrograms|count)":/,
          "never the figures",
        );
      }

      const open = await start({ kind: "none" });
      const count = await fetch(`${open.url}${P}/assessment/getTotalProgramCount`, {
        method: "POST",
        body: JSON.stringify(GROUP),
      });
      t.equal(count.status, 200, "DISCLOSURE_RULE=none answers the same group");
      t.equal(await count.json(), companies.flat().length);
    });
  }
}
