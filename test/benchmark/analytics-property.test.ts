// Property test of the analytics figures: for random data sets and random valid peer
// groups, every assessment, RPM, count, limit-adequacy, trend, loss-experience and
// suggestions answer of the real server (over REST) must equal the plain reference
// model of test/benchmark/reference, which implements SEMANTICS.md sections 1-9, 11 and
// 13-15 literally. Every request goes to two
// servers on the same database, one per engine (PostgreSQL, the peer index), so the
// two engines are held to the same answers.
//
// Reproduce a run with CPB_PROPERTY_SEED=<seed> (printed below); CPB_PROPERTY_GROUPS
// sets the number of peer groups per data set.
import t from "tap";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { readCsv } from "../ingest/helpers/read-csv.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { EDGE_AS_OF, writeEdgeDataset } from "./helpers/edge-dataset.js";
import { ANALYTICS_OPERATIONS, type AnalyticsOperation } from "./helpers/operations.js";
import { drawLossExperienceAsk, drawRequest, type DrawSource } from "./helpers/random-request.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";
import { toBody, toQuery } from "./helpers/wire-request.js";
import type { ReferenceLossExperience } from "./reference/loss-experience.js";
import type { ReferenceRequest } from "./reference/model-types.js";

const SEED = process.env.CPB_PROPERTY_SEED ?? "cpb-analytics-1";
const GROUPS = Number(process.env.CPB_PROPERTY_GROUPS ?? 20);
/** Most data sets lead up to 2026-08-31; a few end on other month ends (2024-02-29 clamps to 2023-02-28). */
const AS_OF_DATES = ["2026-08-31", "2026-08-31", "2026-08-31", "2026-08-31", "2024-02-29", "2025-03-31", "2026-05-31"];
/** Mismatches shown in full per operation and data set; the rest are counted. */
const SHOWN_PER_OPERATION = 3;

t.comment(`property seed: ${SEED} (set CPB_PROPERTY_SEED to reproduce), ${GROUPS} peer groups per data set`);

interface DatasetCase {
  name: string;
  asOf: string;
  write(dir: string): Promise<unknown>;
}

function generatedCases(random: SeededRandom): DatasetCase[] {
  return AS_OF_DATES.map((asOf, i) => {
    const options = {
      companies: 60 + random.int(91),
      programs: 300 + random.int(501),
      losses: 60 + random.int(91),
      seed: `${SEED}-${i}`,
      asOf,
    };
    return {
      name: `generated ${JSON.stringify(options)}`,
      asOf,
      write: (dir: string) => generateDataset(dir, options),
    };
  });
}

const master = createSeededRandom(SEED);
const cases: DatasetCase[] = [
  { name: "edge cases (hand-made)", asOf: EDGE_AS_OF, write: writeEdgeDataset },
  ...generatedCases(master),
];

async function loadSource(dir: string): Promise<DrawSource> {
  const [companies, programs, losses, linesOfBusiness] = await Promise.all([
    readCsv(dir, "companies.csv"),
    readCsv(dir, "programs.csv"),
    readCsv(dir, "losses.csv"),
    readCsv(dir, "lines_of_business.csv"),
  ]);
  return { dataset: { companies, programs, losses }, linesOfBusiness };
}

interface Call {
  method: string;
  url: string;
  body?: string;
  contentType?: string;
}

function buildCall(base: string, operation: AnalyticsOperation, request: ReferenceRequest, random: SeededRandom): Call {
  const sendIgnored = random.chance(0.2);
  if (operation.method === "GET") {
    const query = toQuery(request, operation.inputs, random);
    if (sendIgnored) for (const [key, value] of Object.entries(operation.ignored)) query.append(key, String(value));
    return { method: "GET", url: `${base}${operation.path}?${query.toString()}` };
  }
  const body = toBody(request, operation.inputs, random);
  if (sendIgnored) Object.assign(body, operation.ignored);
  // The spec's clients send JSON as application/x-www-form-urlencoded; it is read as JSON anyway.
  const contentType = random.pick(["application/json", "application/x-www-form-urlencoded", "text/plain"]);
  return { method: "POST", url: `${base}${operation.path}`, body: JSON.stringify(body), contentType };
}

async function perform(call: Call): Promise<{ status: number; json: unknown; text: string; requestId: string }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (call.contentType) headers["content-type"] = call.contentType;
  const response = await fetch(call.url, { method: call.method, headers, body: call.body });
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // reported below with the text
  }
  return { status: response.status, json, text, requestId: response.headers.get("x-request-id") ?? "" };
}

for (const datasetCase of cases) {
  t.test(datasetCase.name, async (t) => {
    const dir = await createTempDir(t, "cpb-property-");
    await datasetCase.write(dir);
    const { knex, url } = await createTestDatabase(t);
    await importDataset(knex, dir);
    const logLines: object[] = [];
    const peerIndex = await startPeerIndex(t, knex, url);
    const servers = {
      sql: await startTestServer(t, knex, { asOf: datasetCase.asOf, logLines }),
      index: await startTestServer(t, knex, { asOf: datasetCase.asOf, logLines, peerIndex }),
    };
    const source = await loadSource(dir);
    const random = createSeededRandom(`${SEED}/${datasetCase.name}`);
    const mismatches = new Map<string, number>();

    for (let group = 0; group < GROUPS; group++) {
      const request = drawRequest(source, random, datasetCase.asOf);
      // The suggestions' bounds from a stream of their own, so the other draws stay as they were.
      Object.assign(request, drawSuggestionBounds(createSeededRandom(`${SEED}/${datasetCase.name}/bounds/${group}`)));
      const asking = createSeededRandom(`${SEED}/${datasetCase.name}/experience/${group}`);
      Object.assign(request, drawLossExperienceAsk(source, request.coverageId, asking));
      for (const operation of ANALYTICS_OPERATIONS) {
        // The trend's two forms take turns, one a group, to keep the file within its time.
        if (operation.path.endsWith("/getmarkettrend") && (group % 2 === 0) !== (operation.method === "GET")) continue;
        if (operation.path.endsWith("/getlossexperience") && (group % 2 === 1) !== (operation.method === "GET"))
          continue;
        const expected = operation.expected(source.dataset, request, datasetCase.asOf);
        if (operation.path.endsWith("/getlossexperience")) tellLimits(expected as ReferenceLossExperience);
        const wire = buildCall("", operation, request, random);
        for (const engine of ENGINES) {
          const server = servers[engine];
          const call = { ...wire, url: `${server.url}${wire.url}` };
          const name = `${operation.name} (${engine})`;
          const { status, json, text, requestId } = await perform(call);
          const agrees = status === 200 && json !== undefined && sameJson(json, expected);
          if (agrees) {
            t.pass(`${name} #${group}`);
            continue;
          }
          const seen = (mismatches.get(name) ?? 0) + 1;
          mismatches.set(name, seen);
          if (seen > SHOWN_PER_OPERATION) continue;
          const context = {
            seed: SEED,
            dataset: datasetCase.name,
            group,
            normalized: request,
            call: { method: call.method, url: wire.url, body: call.body, contentType: call.contentType },
          };
          if (status !== 200) {
            // The server's error log of this request says why (a 500 answer never does).
            const errors = logLines
              .map((line) => line as { requestId?: string; level?: number; err?: { message?: string } })
              .filter((line) => line.requestId === requestId && (line.level ?? 0) >= 40)
              .map((line) => (line.err?.message ?? JSON.stringify(line)).split(" - ").pop() ?? "");
            t.fail(`${name}: status ${status}`, { ...context, answer: text.slice(0, 2000), log: errors });
          } else t.strictSame(json, expected, `${name} #${group}: answer differs from the reference`, context);
        }
      }
    }
    for (const [name, count] of mismatches) {
      if (count > SHOWN_PER_OPERATION) t.fail(`${name}: ${count - SHOWN_PER_OPERATION} more mismatches not shown`);
    }
  });
}

/** Loss experiences drawn whose limits split a year's paid losses, and those with a limit exactly at a paid amount. */
const limitsSeen = { splitting: 0, atAnAmount: 0 };

function tellLimits({ years }: ReferenceLossExperience): void {
  for (const year of years) {
    if (year.exceeding.some(({ count }) => count > 0 && count < year.paidLossCount)) limitsSeen.splitting++;
    if (year.severity && year.exceeding.some(({ limit }) => limit === year.severity!.max)) limitsSeen.atAnAmount++;
  }
}

t.test("loss experiences whose limits split the paid losses, at an amount too, were drawn", async (t) => {
  t.ok(limitsSeen.splitting > 0 && limitsSeen.atAnAmount > 0, JSON.stringify(limitsSeen));
});

/** minPrograms and maxSuggestions (SEMANTICS.md section 14): often the defaults, else small data sets' sizes. */
function drawSuggestionBounds(random: SeededRandom): Pick<ReferenceRequest, "minPrograms" | "maxSuggestions"> {
  return {
    minPrograms: random.chance(0.4) ? null : random.pick([1, 2, 3, 5, 10, 20, 50, 100, 100_000]),
    maxSuggestions: random.chance(0.5) ? null : 1 + random.int(10),
  };
}

/** Deep equality of a parsed JSON answer and a reference value, types included. */
function sameJson(actual: unknown, expected: unknown): boolean {
  return JSON.stringify(canonical(actual)) === JSON.stringify(canonical(expected));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, canonical(item)]));
  }
  return value;
}
