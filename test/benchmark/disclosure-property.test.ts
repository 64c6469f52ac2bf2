// Property test of disclosure control (issue 17): for random small data sets (so that
// many peer groups are thin) and random peer groups, a server under
// DISCLOSURE_RULE=standard refuses exactly the figures whose programs break the rule,
// as the plain reading says (the reference model's peer programs, contributors.ts and
// the rule), with the condition the rule names first; and answers every other one
// exactly as without the rule. Both engines, over REST.
//
// Reproduce a run with CPB_PROPERTY_SEED=<seed>.
import t from "tap";
import { contributorsOf } from "../../src/benchmark/contributors.js";
import { disclosureRefusal, STANDARD_RULE, type FigureName } from "../../src/benchmark/disclosure-rule.js";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";
import { createSeededRandom } from "../helpers/seeded-random.js";
import { startTestServer } from "../helpers/server.js";
import { readCsv } from "../ingest/helpers/read-csv.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { ANALYTICS_OPERATIONS } from "./helpers/operations.js";
import { drawLossExperienceAsk, drawRequest, type DrawSource } from "./helpers/random-request.js";
import { toBody } from "./helpers/wire-request.js";
import type { CsvRow, ReferenceDataset, ReferenceRequest } from "./reference/model-types.js";
import { peerPrograms } from "./reference/peer-rows.js";
import { lossExperience } from "./reference/loss-experience.js";
import { marketTrend } from "./reference/trend.js";
import { suggestPeerGroups } from "./reference/suggestions.js";

const SEED = process.env.CPB_PROPERTY_SEED ?? "cpb-disclosure-1";
const DATASETS = 3;
const GROUPS = 25;
const AS_OF = "2026-08-31";

t.comment(`property seed: ${SEED} (set CPB_PROPERTY_SEED to reproduce)`);

const has = (row: CsvRow, column: string) => (row[column] ?? "") !== "";

/** The figures an operation answers from peer programs, in the order the service checks them, each with its programs. */
function figuresOf(operation: string, dataset: ReferenceDataset, request: ReferenceRequest): [FigureName, CsvRow[]][] {
  const programs = peerPrograms(dataset, request, AS_OF, "request");
  const distributions: [FigureName, CsvRow[]][] = [
    ["limits", programs.filter((p) => has(p, "limit"))],
    ["premiums", programs.filter((p) => has(p, "premium"))],
    ["retentions", programs.filter((p) => has(p, "retention"))],
  ];
  if (operation === "GET assessment") return [["programs", programs], ...distributions];
  if (operation === "POST assessment") return distributions;
  if (operation.includes("RPM"))
    return [["rates per million", programs.filter((p) => has(p, "premium") && has(p, "limit") && Number(p.limit) > 0)]];
  if (operation === "POST total program count") return [["programs", programs]];
  if (operation.includes("limit adequacy"))
    return [["limits", peerPrograms(dataset, request, AS_OF, "default").filter((p) => has(p, "limit"))]];
  return []; // the loss count: public records
}

/** Whether the rule refuses a set of programs as the program count's (the plain reading). */
function refusedPrograms(rows: CsvRow[]): boolean {
  return (
    disclosureRefusal(
      STANDARD_RULE,
      "programs",
      contributorsOf(rows.map((row) => ({ companyId: row.company_id!, source: row.source || null }))),
    ) !== undefined
  );
}

function expectedRefusal(operation: string, dataset: ReferenceDataset, request: ReferenceRequest) {
  for (const [figure, rows] of figuresOf(operation, dataset, request)) {
    const refusal = disclosureRefusal(
      STANDARD_RULE,
      figure,
      contributorsOf(rows.map((row) => ({ companyId: row.company_id!, source: row.source || null }))),
    );
    if (refusal) return refusal;
  }
  return undefined;
}

/** The request widened to every company of its coverage, in two 12-month periods. */
function wholeBook(source: DrawSource, request: ReferenceRequest): ReferenceRequest {
  const naics = [
    ...new Set(source.dataset.companies.map((c) => (c.naics ?? "").slice(0, 2)).filter((code) => code !== "")),
  ];
  return {
    ...request,
    naics,
    lineOfBusinessId: [0],
    exposureType: "Revenues",
    exposureRangeLow: "0",
    exposureRangeHigh: "1000000000000000",
    organizationType: [],
    periodMonths: 12,
    periods: 2,
  };
}

/** Trend periods over every data set: small books withhold most, so both are counted over all of them. */
const trendPeriods = { withheld: 0, open: 0 };
/** Loss-experience years likewise. */
const lossYears = { withheld: 0, open: 0 };

const master = createSeededRandom(SEED);
for (let d = 0; d < DATASETS; d++) {
  const options = {
    companies: 15 + master.int(30),
    programs: 60 + master.int(200),
    losses: 20 + master.int(40),
    seed: `${SEED}-${d}`,
    asOf: AS_OF,
  };
  t.test(`generated ${JSON.stringify(options)}`, async (t) => {
    const dir = await createTempDir(t, "cpb-disclosure-");
    await generateDataset(dir, options);
    const { knex, url } = await createTestDatabase(t);
    await importDataset(knex, dir);
    const peerIndex = await startPeerIndex(t, knex, url);
    const guarded = {
      sql: await startTestServer(t, knex, { asOf: AS_OF, disclosure: STANDARD_RULE }),
      index: await startTestServer(t, knex, { asOf: AS_OF, disclosure: STANDARD_RULE, peerIndex }),
    };
    const open = await startTestServer(t, knex, { asOf: AS_OF });
    const [companies, programs, losses, linesOfBusiness] = await Promise.all(
      ["companies", "programs", "losses", "lines_of_business"].map((name) => readCsv(dir, `${name}.csv`)),
    );
    const source: DrawSource = {
      dataset: { companies: companies!, programs: programs!, losses: losses! },
      linesOfBusiness: linesOfBusiness!,
    };
    const random = createSeededRandom(`${SEED}/${d}`);
    const seen = { refused: 0, answered: 0, withheld: 0, open: 0, refusedOriginals: 0 };

    for (let group = 0; group < GROUPS; group++) {
      const request = drawRequest(source, random, AS_OF);
      for (const operation of ANALYTICS_OPERATIONS.filter((o) => o.method === "POST")) {
        if (operation.name === "POST market trend") {
          // Never refused (SEMANTICS.md section 13): periods are withheld instead. Every
          // other group is widened to the whole book, whose long periods pass the rule.
          const asked = group % 2 === 0 ? request : wholeBook(source, request);
          const body = JSON.stringify(toBody(asked, operation.inputs, random));
          const trend = marketTrend(source.dataset, asked, AS_OF, STANDARD_RULE);
          seen.withheld += trend.periods.filter((period) => period.withheld).length;
          seen.open += trend.periods.filter((period) => !period.withheld).length;
          for (const engine of ENGINES) {
            const res = await fetch(`${guarded[engine].url}${operation.path}`, { method: "POST", body });
            t.strictSame(
              { status: res.status, json: await res.json() },
              { status: 200, json: trend },
              `${operation.name} (${engine}) #${group}`,
            );
          }
          continue;
        }
        if (operation.name === "POST loss experience") {
          // Never refused (SEMANTICS.md section 15): years are withheld instead, and the
          // total after them. Every other group is widened to the whole book.
          const drawn = drawLossExperienceAsk(
            source,
            request.coverageId,
            createSeededRandom(`${SEED}/${d}/experience/${group}`),
          );
          // The widened groups over the last years, where a small book holds most programs.
          const asked =
            group % 2 === 0
              ? { ...request, ...drawn }
              : { ...wholeBook(source, request), ...drawn, years: 1 + (group % 3) };
          const body = JSON.stringify(toBody(asked, operation.inputs, random));
          const expected = lossExperience(source.dataset, asked, AS_OF, STANDARD_RULE);
          lossYears.withheld += expected.years.filter((year) => year.withheld).length;
          lossYears.open += expected.years.filter((year) => !year.withheld).length;
          for (const engine of ENGINES) {
            const res = await fetch(`${guarded[engine].url}${operation.path}`, { method: "POST", body });
            t.strictSame(
              { status: res.status, json: await res.json() },
              { status: 200, json: expected },
              `${operation.name} (${engine}) #${group}`,
            );
          }
          continue;
        }
        const body = JSON.stringify(toBody(request, operation.inputs, random));
        if (operation.name.includes("suggestions")) {
          // Never refused: only groups that pass are offered, a refused original shows null counts (SEMANTICS.md section 14).
          const expectedSuggestions = suggestPeerGroups(source.dataset, request, AS_OF, (rows) =>
            refusedPrograms(rows),
          );
          for (const engine of ENGINES) {
            const res = await fetch(`${guarded[engine].url}${operation.path}`, { method: "POST", body });
            t.strictSame(
              { status: res.status, json: (await res.json()) as unknown },
              { status: 200, json: expectedSuggestions },
              `${operation.name} (${engine}) #${group}`,
            );
            if (expectedSuggestions.original.programCount === null) seen.refusedOriginals++;
          }
          continue;
        }
        const expected = expectedRefusal(operation.name, source.dataset, request);
        const unguarded = await (await fetch(`${open.url}${operation.path}`, { method: "POST", body })).text();
        for (const engine of ENGINES) {
          const res = await fetch(`${guarded[engine].url}${operation.path}`, { method: "POST", body });
          const text = await res.text();
          const name = `${operation.name} (${engine}) #${group}`;
          if (expected) {
            seen.refused++;
            t.match(
              { status: res.status, ...(JSON.parse(text) as object) },
              {
                status: 400,
                code: "failed_precondition",
                disclosure: { condition: expected.condition, threshold: expected.threshold },
                detail: expected.message,
              },
              name,
            );
          } else {
            seen.answered++;
            t.equal(res.status, 200, name);
            t.equal(text, unguarded, `${name}: the answer without the rule`);
          }
        }
      }
    }
    t.comment(
      `${seen.refused} refused, ${seen.answered} answered, trend periods: ${seen.withheld} withheld, ${seen.open} answered`,
    );
    trendPeriods.withheld += seen.withheld;
    trendPeriods.open += seen.open;
    t.ok(seen.refused > 0 && seen.answered > 0, "both outcomes drawn: the property is exercised");
    t.ok(seen.refusedOriginals > 0, `suggestions for refused groups drawn: ${seen.refusedOriginals}`);
  });
}

t.test("loss-experience years withheld and answered: the rule is exercised per year", async (t) => {
  t.ok(lossYears.withheld > 0 && lossYears.open > 0, JSON.stringify(lossYears));
});

t.test("trend periods withheld and answered: the rule is exercised per period", async (t) => {
  t.ok(
    trendPeriods.withheld > 0 && trendPeriods.open > 0,
    `${trendPeriods.withheld} withheld, ${trendPeriods.open} answered`,
  );
});
