// The peer index against PostgreSQL, engine to engine: for data sets made to break a
// columnar engine (band bounds and one cent either side, empty amounts, ties, amounts
// at and past 2^53 cents, empty peer groups) and generated ones, every engine call on
// random peer groups must give identical statistics, and the cases' bytes the index
// renders for limit adequacy must be the writers' bytes. Coverages holding an amount
// the index cannot hold exactly must be handed to SQL, and only those.
//
// Reproduce with CPB_PROPERTY_SEED=<seed>; CPB_ENGINE_GROUPS sets the groups per data set.
import t from "tap";
import { Decimal } from "../../src/benchmark/decimal.js";
import type { PeerEngine } from "../../src/benchmark/peer-engine.js";
import { wideningSpace } from "../../src/benchmark/peer-group-widening.js";
import { DEFAULT_TRAILING, timeWindow, type TimeWindow } from "../../src/benchmark/time-window.js";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { buildSnapshot } from "../../src/peer-index/build-snapshot.js";
import { createIndexPeerEngine } from "../../src/peer-index/index-engine.js";
import { startScanThread } from "../../src/peer-index/scan-thread.js";
import { createSqlPeerEngine } from "../../src/store/sql-peer-engine.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { readCsv } from "../ingest/helpers/read-csv.js";
import { HOSTILE_AS_OF, writeHostileDataset } from "./helpers/hostile-dataset.js";
import { withWrittenCases } from "./helpers/written-cases.js";
import {
  drawLossExperience,
  drawLossYears,
  drawPeerGroup,
  drawRpm,
  drawSelected,
  drawTrendPeriods,
  drawWindow,
  type DrawPool,
} from "./helpers/random-peer-group.js";

const SEED = process.env.CPB_PROPERTY_SEED ?? "cpb-engines-1";
const GROUPS = Number(process.env.CPB_ENGINE_GROUPS ?? 150);
t.comment(`engine seed: ${SEED} (set CPB_PROPERTY_SEED to reproduce), ${GROUPS} peer groups per data set`);

interface DatasetCase {
  name: string;
  asOf: string;
  write(dir: string, random: SeededRandom): Promise<unknown>;
  /** Coverages the index must hand to SQL. */
  sqlCoverages: number[];
}

const cases: DatasetCase[] = [
  { name: "hostile", asOf: HOSTILE_AS_OF, write: (dir, random) => writeHostileDataset(dir, random), sqlCoverages: [2] },
  {
    name: "hostile, 4x",
    asOf: HOSTILE_AS_OF,
    write: (dir, random) => writeHostileDataset(dir, random, 4),
    sqlCoverages: [2],
  },
  ...["a", "b"].map((seed) => ({
    name: `generated ${seed}`,
    asOf: "2026-08-31",
    write: (dir: string) =>
      generateDataset(dir, {
        companies: 300,
        programs: 3000,
        losses: 600,
        seed: `${SEED}-${seed}`,
        asOf: "2026-08-31",
      }),
    sqlCoverages: [],
  })),
];

/** The engine, with a count of the calls it answered for each coverage. */
function counted(engine: PeerEngine, calls: Map<number, number>): PeerEngine {
  const count = (coverageId: number) => calls.set(coverageId, (calls.get(coverageId) ?? 0) + 1);
  return {
    coverageReference: (id) => (count(id), engine.coverageReference(id)),
    assessment: (peers, ...rest) => (count(peers.coverageId), engine.assessment(peers, ...rest)),
    rpm: (peers, ...rest) => (count(peers.coverageId), engine.rpm(peers, ...rest)),
    programCount: (peers, ...rest) => (count(peers.coverageId), engine.programCount(peers, ...rest)),
    lossCount: (peers, ...rest) => (count(peers.coverageId), engine.lossCount(peers, ...rest)),
    limitAdequacy: (peers, ...rest) => (count(peers.coverageId), engine.limitAdequacy(peers, ...rest)),
    trend: (peers, ...rest) => (count(peers.coverageId), engine.trend(peers, ...rest)),
    lossExperience: (peers, ...rest) => (count(peers.coverageId), engine.lossExperience(peers, ...rest)),
    widenings: (space) => (count(space.peers.coverageId), engine.widenings(space)),
  };
}

/** The trailing months that give `window` at `asOf` (drawWindow draws allowed ones). */
function trailingOf(window: TimeWindow, asOf: string): { oldest: number; newest: number } {
  for (const oldest of [24, 12, 9, 6, 3]) {
    for (const newest of [12, 9, 6, 3, 0]) {
      const candidate = timeWindow(asOf, { oldest, newest });
      if (newest < oldest && candidate.start === window.start && candidate.end === window.end)
        return { oldest, newest };
    }
  }
  throw new Error(`no trailing months give ${JSON.stringify(window)}`);
}

/** Statistics as plain JSON: decimals as their exact text, typed arrays as lists. */
function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Decimal) return `decimal ${v.toFixed()}`;
      if (ArrayBuffer.isView(v)) return Array.from(v as Float64Array);
      return v;
    }),
  );
}

async function drawPool(dir: string): Promise<DrawPool> {
  const [companies, programs, losses, lines, coverages] = await Promise.all(
    ["companies.csv", "programs.csv", "losses.csv", "lines_of_business.csv", "coverages.csv"].map((file) =>
      readCsv(dir, file),
    ),
  );
  return {
    naics: companies!.map((c) => c.naics ?? ""),
    coverageIds: coverages!.map((c) => Number(c.coverage_id)),
    lineOfBusinessIds: lines!.map((l) => Number(l.line_of_business_id)),
    organizationTypes: [...new Set(companies!.map((c) => (c.organization_type ?? "").toUpperCase()))],
    amounts: [
      ...companies!.flatMap((c) => [c.revenues ?? "", c.employees ?? "", c.market_cap ?? ""]),
      ...programs!.flatMap((p) => [p.limit ?? "", p.premium ?? "", p.retention ?? ""]),
      ...losses!.map((l) => l.total_amount ?? ""),
    ].filter((text) => text !== ""),
    years: losses!.map((l) => Number((l.accident_date || l.filing_date || "2020").slice(0, 4))),
    lossAmounts: losses!.map((l) => l.total_amount ?? "").filter((text) => text !== ""),
  };
}

for (const datasetCase of cases) {
  t.test(datasetCase.name, async (t) => {
    const random = createSeededRandom(`${SEED}/${datasetCase.name}`);
    const dir = await createTempDir(t, "cpb-engines-");
    await datasetCase.write(dir, random);
    const { knex, url } = await createTestDatabase(t);
    await importDataset(knex, dir);
    const snapshot = await buildSnapshot(url);
    const fallbackCalls = new Map<number, number>();
    const sql = createSqlPeerEngine(knex);
    const index = createIndexPeerEngine(() => snapshot, counted(sql, fallbackCalls));
    // Every trend of two periods or more, every suggestions scan, every assessment's
    // placing and every RPM scan shared by the two threads (scan-thread.ts), the scan thread computing one
    // part or more of each.
    const scanThread = startScanThread({ cores: 2, minRowsToSplit: 0, waitForJoin: true })!;
    t.teardown(() => scanThread.close());
    scanThread.adopt(snapshot);
    while (scanThread.state() === "starting") await new Promise((resolve) => setTimeout(resolve, 20));
    const sharedJobs = { periods: 0, widenings: 0, placing: 0, rpm: 0 };
    const split = createIndexPeerEngine(() => snapshot, counted(sql, fallbackCalls), {
      scanThread: {
        ...scanThread,
        start(snapshot, job) {
          const started = scanThread.start(snapshot, job);
          if (started) sharedJobs[job.kind]++;
          return started;
        },
      },
    });
    const pool = await drawPool(dir);

    t.strictSame(
      [...snapshot.coverages].filter(([, c]) => !c.exact).map(([id]) => id),
      datasetCase.sqlCoverages,
      "exactly the coverages with values past 2^53 - 1 are left to SQL",
    );
    if (datasetCase.name.startsWith("hostile"))
      t.ok(snapshot.largeRpms.size > 0, "RPMs past 2^53 - 1 cents are held exactly, in BigInt");

    let mismatches = 0;
    for (let group = 0; group < GROUPS && mismatches < 5; group++) {
      const peers = drawPeerGroup(pool, random);
      const window = drawWindow(datasetCase.asOf, random);
      const years = drawLossYears(pool, random);
      const periods = drawTrendPeriods(datasetCase.asOf, random);
      const selected = drawSelected(pool, createSeededRandom(`${SEED}/${group}`));
      const assessment = (e: PeerEngine) => e.assessment(peers, window, selected, { withLossCount: group % 2 === 0 });
      const clientRpm = drawRpm(pool, createSeededRandom(`${SEED}/rpm/${group}`));
      const rpm = (e: PeerEngine) => e.rpm(peers, window, clientRpm);
      const trend = (e: PeerEngine) => e.trend(peers, periods);
      const experience = drawLossExperience(datasetCase.asOf, pool, createSeededRandom(`${SEED}/experience/${group}`));
      const space = wideningSpace(peers, datasetCase.asOf, trailingOf(window, datasetCase.asOf));
      const widenings = (e: PeerEngine) => e.widenings(space);
      // SQL answers each question once: a call shared by two threads is held to the
      // answer of the same call on one (SQL's are the slow half of this test).
      const sqlAnswers = new Map<string, Promise<unknown>>();
      const asked = (name: string, e: PeerEngine, ask: (e: PeerEngine) => Promise<unknown>) => {
        if (e !== sql) return ask(e);
        if (!sqlAnswers.has(name)) sqlAnswers.set(name, ask(sql));
        return sqlAnswers.get(name)!;
      };
      const shared = (e: PeerEngine) => (e === index ? split : e);
      const calls: [string, (engine: PeerEngine) => Promise<unknown>][] = [
        ["coverageReference", (e) => e.coverageReference(peers.coverageId)],
        ["assessment", (e) => asked("assessment", e, assessment)],
        ["assessment shared by two threads", (e) => asked("assessment", shared(e), assessment)],
        ["rpm", (e) => asked("rpm", e, rpm)],
        ["rpm shared by two threads", (e) => asked("rpm", shared(e), rpm)],
        ["programCount", (e) => e.programCount(peers, window)],
        ["lossCount", (e) => e.lossCount(peers, years)],
        [
          "limitAdequacy",
          async (e) =>
            withWrittenCases(await e.limitAdequacy(peers, years, timeWindow(datasetCase.asOf, DEFAULT_TRAILING))),
        ],
        ["trend", (e) => asked("trend", e, trend)],
        ["trend shared by two threads", (e) => asked("trend", shared(e), trend)],
        ["lossExperience", (e) => e.lossExperience(peers, experience.span, experience.limits)],
        ["widenings", (e) => asked("widenings", e, widenings)],
        ["widenings shared by two threads", (e) => asked("widenings", shared(e), widenings)],
      ];
      for (const [name, call] of calls) {
        const [expected, actual] = [plain(await call(sql)), plain(await call(index))];
        if (JSON.stringify(expected) === JSON.stringify(actual)) continue;
        mismatches++;
        t.strictSame(actual, expected, `${name} #${group} differs`, {
          peers: plain(peers),
          window,
          years,
          experience: plain(experience),
        });
      }
    }
    t.equal(mismatches, 0, `${GROUPS} peer groups, every call answered identically`);
    t.ok(
      sharedJobs.periods > 0 && sharedJobs.widenings > 0 && sharedJobs.placing > 0 && sharedJobs.rpm > 0,
      "trends, suggestions scans, assessments and RPM scans were shared",
      sharedJobs,
    );
    t.equal(
      scanThread.counts().answered,
      sharedJobs.periods + sharedJobs.widenings + sharedJobs.placing + sharedJobs.rpm,
      "the scan thread computed parts of every one",
    );
    t.equal(scanThread.counts().declined, 0, "and declined none");
    const unexpected = [...fallbackCalls.keys()].filter((id) => !datasetCase.sqlCoverages.includes(id));
    t.strictSame(unexpected, [], "the index answered every other coverage itself");
    if (datasetCase.sqlCoverages.length) t.ok(fallbackCalls.size > 0, "calls on the inexact coverage went to SQL");
  });
}
