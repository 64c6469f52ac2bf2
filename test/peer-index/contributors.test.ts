// The peer index's contributors (Contributors, peer-statistics.ts) against the plain
// reading, contributorsOf (contributors.ts), over the same peer programs read from
// PostgreSQL with the SQL engine's own filters: for random peer groups over a data set
// with company ids past 2^32 and sources of every kind, each figure's contributors
// must be equal, and the whole answer must be the SQL engine's when both count. With
// counting off, no answer carries them and every figure is unchanged. Told the rule,
// the index may leave a broad group's companies uncounted (CompanyBound): its bounds
// must then meet the rule's company conditions, and the rule must decide as on counts.
//
// Reproduce with CPB_PROPERTY_SEED=<seed>; CPB_CONTRIBUTOR_GROUPS sets the peer groups.
import t from "tap";
import { contributorsOf, CURATED_SOURCE } from "../../src/benchmark/contributors.js";
import { Decimal } from "../../src/benchmark/decimal.js";
import { disclosureRefusal, STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import type { PeerEngine } from "../../src/benchmark/peer-engine.js";
import type { PeerGroup } from "../../src/benchmark/peer-group.js";
import type { Contributors } from "../../src/benchmark/peer-statistics.js";
import { DEFAULT_TRAILING, timeWindow, type TimeWindow } from "../../src/benchmark/time-window.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { buildSnapshot } from "../../src/peer-index/build-snapshot.js";
import { createIndexPeerEngine } from "../../src/peer-index/index-engine.js";
import { widenedGroup, wideningSpace, WIDEST } from "../../src/benchmark/peer-group-widening.js";
import { CURATED, NO_SOURCE } from "../../src/peer-index/snapshot.js";
import { peerPrograms } from "../../src/store/peer-filters.js";
import { createSqlPeerEngine } from "../../src/store/sql-peer-engine.js";
import { createTestDatabase } from "../helpers/database.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import {
  CONTRIBUTORS_AS_OF,
  storeUnusualSources,
  UNUSUAL_SOURCES,
  writeContributorsDataset,
} from "./helpers/contributors-dataset.js";
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
import { withWrittenCases } from "./helpers/written-cases.js";

const SEED = process.env.CPB_PROPERTY_SEED ?? "cpb-contributors-1";
const GROUPS = Number(process.env.CPB_CONTRIBUTOR_GROUPS ?? 200);
t.comment(`contributors seed: ${SEED} (set CPB_PROPERTY_SEED to reproduce), ${GROUPS} peer groups`);

/** A peer program as PostgreSQL holds it: the company id exact (a bigint), amounts as text. */
interface PeerProgram {
  companyId: bigint;
  source: string | null;
  limit: string | null;
  premium: string | null;
  retention: string | null;
}

async function readPeerPrograms(
  knex: Parameters<typeof peerPrograms>[0],
  peers: PeerGroup,
  window: TimeWindow,
): Promise<PeerProgram[]> {
  const rows: {
    company_id: string;
    source: string | null;
    limit_amount: string | null;
    premium: string | null;
    retention: string | null;
  }[] = await peerPrograms(knex, peers, window).select(
    "p.company_id",
    "p.source",
    "p.limit_amount",
    "p.premium",
    "p.retention",
  );
  return rows.map((row) => ({
    companyId: BigInt(row.company_id),
    source: row.source,
    limit: row.limit_amount,
    premium: row.premium,
    retention: row.retention,
  }));
}

/** SEMANTICS.md section 7: a program has an RPM when it has a premium and a limit above zero. */
const hasRpm = (p: PeerProgram) => p.premium !== null && p.limit !== null && new Decimal(p.limit).gt(0);

/** The contributors of each set a figure may rest on: all the programs, those with each amount, those with an RPM. */
function contributorsBySet(
  programs: PeerProgram[],
): Record<"programs" | "limit" | "premium" | "retention" | "rpm", Contributors> {
  return {
    programs: contributorsOf(programs),
    limit: contributorsOf(programs.filter((p) => p.limit !== null)),
    premium: contributorsOf(programs.filter((p) => p.premium !== null)),
    retention: contributorsOf(programs.filter((p) => p.retention !== null)),
    rpm: contributorsOf(programs.filter(hasRpm)),
  };
}

/** Mostly random peer groups (most of them narrow), and some as broad as the data. */
function drawGroup(pool: DrawPool, random: SeededRandom): PeerGroup {
  const peers = drawPeerGroup(pool, random);
  if (!random.chance(0.25)) return peers;
  return {
    ...peers,
    naics2: ["52", "05", "31", "23"],
    naics3: [],
    exposure: "revenues",
    exposureLow: new Decimal(0),
    exposureHigh: new Decimal("1e15"),
    organizationTypes: [],
  };
}

type ContributorsOfCall = Contributors | Record<string, Contributors> | undefined;

/** A call's contributors by figure: an assessment's four, or the one of the others. */
function flat(contributors: ContributorsOfCall): Record<string, Contributors> {
  if (contributors === undefined) return {};
  return "programs" in contributors && typeof contributors.programs === "number"
    ? { figure: contributors as Contributors }
    : (contributors as Record<string, Contributors>);
}

/** The standard rule's condition for a figure (the figure's name changes only the words). */
const decisionOf = (contributors: Contributors) =>
  disclosureRefusal(STANDARD_RULE, "programs", contributors)?.condition;

/** Statistics as plain JSON: decimals as their exact text, typed arrays as lists. */
/** Compares as plain JSON, showing the difference, and counts the mismatches (a run stops after a few). */
function expecting(t: { strictSame(found: unknown, wanted: unknown, message: string, extra: object): unknown }) {
  const seen = { mismatches: 0 };
  const expect = (actual: unknown, expected: unknown, what: string, context: object) => {
    if (plain(actual) === plain(expected)) return;
    seen.mismatches++;
    t.strictSame(actual, expected, what, context);
  };
  return { expect, seen };
}

function plain(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Decimal) return `decimal ${v.toFixed()}`;
    if (ArrayBuffer.isView(v)) return Array.from(v as Float64Array);
    return v;
  });
}

// A few companies holding many programs each; and more companies than one radix digit
// holds (2^11), fewer programs each.
const cases = [
  { name: "a hundred companies", companies: 120, programs: 2500, groups: GROUPS },
  { name: "three thousand companies", companies: 3000, programs: 8000, groups: Math.ceil(GROUPS / 4) },
];

for (const datasetCase of cases) {
  t.test(`${datasetCase.name}: the index counts contributors as contributorsOf reads them`, async (t) => {
    const random = createSeededRandom(`${SEED}/${datasetCase.name}`);
    const dir = await createTempDir(t, "cpb-contributors-");
    const pool = await writeContributorsDataset(dir, random, datasetCase.companies, datasetCase.programs);
    const { knex, url } = await createTestDatabase(t);
    await importDataset(knex, dir);
    await storeUnusualSources(knex);
    const snapshot = await buildSnapshot(url);
    const sqlCounting = createSqlPeerEngine(knex, { contributors: true });
    const counting = createIndexPeerEngine(() => snapshot, sqlCounting, { contributors: true });
    const notCounting = createIndexPeerEngine(() => snapshot, createSqlPeerEngine(knex));
    const bounding = createIndexPeerEngine(() => snapshot, sqlCounting, {
      contributors: true,
      disclosure: STANDARD_RULE,
    });

    t.test("the snapshot's companies and sources", async (t) => {
      const [withNaics, withPrograms] = await Promise.all([
        knex("companies").whereNotNull("naics2").count<{ n: string }[]>("* as n"),
        knex("programs as p")
          .join("companies as c", "c.company_id", "p.company_id")
          .whereNotNull("c.naics2")
          .countDistinct<{ n: string }[]>("p.company_id as n"),
      ]);
      t.equal(
        new Set(snapshot.programs.company).size,
        Number(withPrograms[0]!.n),
        "one index per company with programs",
      );
      t.ok(snapshot.companyCount > Math.max(...snapshot.programs.company), "every index below companyCount");
      t.ok(snapshot.companyCount <= Number(withNaics[0]!.n), "indexes no more than the companies with a NAICS code");
      t.equal(snapshot.sources[NO_SOURCE], "", "no source first");
      t.equal(snapshot.sources[CURATED], CURATED_SOURCE, "then curated");
      const stored: { source: string }[] = await knex("programs as p")
        .join("companies as c", "c.company_id", "p.company_id")
        .whereNotNull("c.naics2")
        .whereNotNull("p.source")
        .whereNotIn("p.source", ["", CURATED_SOURCE])
        .distinct("p.source");
      t.strictSame(
        new Set(snapshot.sources.slice(2)),
        new Set(stored.map((row) => row.source)),
        "every other source once, its text as stored, escapes read back",
      );
      t.equal(snapshot.sources.length, new Set(snapshot.sources).size, "no source twice");
      t.ok(
        UNUSUAL_SOURCES.filter(Boolean).every((source) => snapshot.sources.includes(source)),
        "sources COPY escapes are read back exactly",
      );
      t.ok(
        [...snapshot.coverages].some(([, coverage]) => !coverage.exact),
        "one coverage is left to SQL",
      );
      const most: { coverage_id: number; n: string }[] = await knex
        .from(
          knex("programs as p")
            .join("companies as c", "c.company_id", "p.company_id")
            .whereNotNull("c.naics2")
            .groupBy("p.coverage_id", "p.company_id")
            .select("p.coverage_id")
            .count("* as n")
            .as("per_company"),
        )
        .groupBy("coverage_id")
        .select("coverage_id")
        .max("n as n");
      t.strictSame(
        Object.fromEntries(
          [...snapshot.coverages]
            .filter(([, coverage]) => coverage.maxProgramsPerCompany > 0)
            .map(([id, coverage]) => [id, coverage.maxProgramsPerCompany]),
        ),
        Object.fromEntries(most.map((row) => [row.coverage_id, Number(row.n)])),
        "each coverage's most programs of one company",
      );
    });

    t.test("random peer groups", async (t) => {
      const defaultWindow = timeWindow(CONTRIBUTORS_AS_OF, DEFAULT_TRAILING);
      let bounded = 0;
      let countedFigures = 0;
      const { expect, seen } = expecting(t);
      for (let group = 0; group < datasetCase.groups && seen.mismatches < 5; group++) {
        const peers = drawGroup(pool, random);
        const window = drawWindow(CONTRIBUTORS_AS_OF, random);
        const years = drawLossYears(pool, random);
        const selected = drawSelected(pool, random);
        const clientRpm = drawRpm(pool, random);
        const context = { group, peers: JSON.parse(plain(peers)) as unknown, window };

        const programs = await readPeerPrograms(knex, peers, window);
        const limited = (await readPeerPrograms(knex, peers, defaultWindow)).filter((p) => p.limit !== null);
        const expected: Record<string, Contributors> = {
          ...contributorsBySet(programs),
          medianLimit: contributorsOf(limited),
        };

        const calls: [string, (engine: PeerEngine) => Promise<{ contributors?: unknown }>, unknown][] = [
          [
            "assessment",
            (e) => e.assessment(peers, window, selected, { withLossCount: group % 2 === 0 }),
            {
              programs: expected.programs,
              limit: expected.limit,
              premium: expected.premium,
              retention: expected.retention,
            },
          ],
          ["rpm", (e) => e.rpm(peers, window, clientRpm), expected.rpm],
          ["programCount", (e) => e.programCount(peers, window), expected.programs],
          [
            "limitAdequacy",
            async (e) => withWrittenCases(await e.limitAdequacy(peers, years, defaultWindow)),
            expected.medianLimit,
          ],
          ["lossCount", (e) => e.lossCount(peers, years), undefined],
        ];
        for (const [name, call, contributors] of calls) {
          const [counted, uncounted, sql] = [await call(counting), await call(notCounting), await call(sqlCounting)];
          expect(counted.contributors, contributors, `${name}: contributors as contributorsOf reads them`, context);
          expect(counted, sql, `${name}: the SQL engine's answer, contributors and all`, context);
          const figures = { ...counted };
          delete figures.contributors;
          expect(uncounted, figures, `${name}: not counting, the same figures`, context);
          if ("contributors" in uncounted) {
            seen.mismatches++;
            t.fail(`${name}: not counting, no contributors field`, context);
          }
          const withBounds = await call(bounding);
          expect(
            { ...withBounds, contributors: undefined },
            { ...figures, contributors: undefined },
            `${name}: told the rule, the same figures`,
            context,
          );
          const pairs = Object.entries(flat(withBounds.contributors as ContributorsOfCall)).map(
            ([figure, got]) => [got, flat(contributors as ContributorsOfCall)[figure]!] as const,
          );
          for (const [got, exact] of pairs) {
            if (!got.bounds) {
              countedFigures++;
              expect(got, exact, `${name}: told the rule, a group its size does not settle is counted`, context);
              continue;
            }
            bounded++;
            const ok =
              got.companies <= exact.companies &&
              got.topTwoCompanyPrograms >= exact.topTwoCompanyPrograms &&
              got.programs === exact.programs;
            expect(ok, true, `${name}: bounds, not counts (${plain(got)} against ${plain(exact)})`, context);
            expect(
              ["min_companies", "max_top2_share"].includes(decisionOf(got) ?? ""),
              false,
              `${name}: bounds that settle the company conditions (the sources are counted)`,
              context,
            );
            expect(decisionOf(got), decisionOf(exact), `${name}: the rule decides on bounds as on counts`, context);
          }
        }
        // The trend (SEMANTICS.md section 13): each period's five sets, every fourth group
        // (a period's programs are read back one query each).
        if (group % 4 !== 0) continue;
        const periods = drawTrendPeriods(CONTRIBUTORS_AS_OF, random);
        const [counted, sql, uncounted, withBounds] = [
          await counting.trend(peers, periods),
          await sqlCounting.trend(peers, periods),
          await notCounting.trend(peers, periods),
          await bounding.trend(peers, periods),
        ];
        expect(counted, sql, "trend: the SQL engine's answer, contributors and all", { ...context, periods });
        const figures = { ...counted, periods: counted.periods.map(({ contributors: _, ...figures }) => figures) };
        expect(uncounted, figures, "trend: not counting, the same figures and no contributors", {
          ...context,
          periods,
        });
        for (const [k, period] of periods.entries()) {
          const exact: Record<string, Contributors> = contributorsBySet(await readPeerPrograms(knex, peers, period));
          expect(
            counted.periods[k]!.contributors,
            exact,
            `trend period ${k}: contributors as contributorsOf reads them`,
            { ...context, period },
          );
          const { contributors: bounds, ...boundedFigures } = withBounds.periods[k]!;
          expect(boundedFigures, figures.periods[k], `trend period ${k}: told the rule, the same figures`, {
            ...context,
            period,
          });
          for (const [set, got] of Object.entries(bounds ?? {})) {
            expect(
              decisionOf(got),
              decisionOf(exact[set]!),
              `trend period ${k} ${set}: the rule decides on bounds as on counts`,
              { ...context, period },
            );
          }
        }
      }
      t.equal(
        seen.mismatches,
        0,
        `${datasetCase.groups} peer groups, five calls each, counted as contributorsOf counts`,
      );
      t.ok(
        bounded > 0 && countedFigures > 0,
        `told the rule: ${bounded} figures settled by bounds, ${countedFigures} counted`,
      );
    });

    t.test("the 64 widenings of random peer groups (SEMANTICS.md section 14)", async (t) => {
      let bounded = 0;
      const { expect, seen } = expecting(t);
      for (let group = 0; group < datasetCase.groups && seen.mismatches < 5; group++) {
        const peers = drawGroup(pool, random);
        const trailing = random.pick([
          { oldest: 24, newest: 0 },
          { oldest: 12, newest: 0 },
          { oldest: 24, newest: 12 },
          { oldest: 6, newest: 3 },
        ]);
        const space = wideningSpace(peers, CONTRIBUTORS_AS_OF, trailing);
        const context = { group, peers: JSON.parse(plain(peers)) as unknown, trailing };
        const [counted, sql, uncounted, withBounds] = [
          await counting.widenings(space),
          await sqlCounting.widenings(space),
          await notCounting.widenings(space),
          await bounding.widenings(space),
        ];
        expect(counted, sql, "widenings: the SQL engine's counts, contributors and all", context);
        expect(uncounted, { ...counted, contributors: undefined }, "widenings: not counting, the same counts", context);
        for (const code of [0, WIDEST]) {
          const own = widenedGroup(space, code);
          expect(
            counted.contributors?.[code],
            contributorsOf(await readPeerPrograms(knex, own.peers, own.window)),
            `widening ${code}: contributors as contributorsOf reads them`,
            context,
          );
        }
        withBounds.contributors?.forEach((got, code) => {
          const exact = counted.contributors![code]!;
          if (!got.bounds)
            return expect(
              got,
              exact,
              `widening ${code}: told the rule, counted when its size does not settle it`,
              context,
            );
          bounded++;
          expect(
            decisionOf(got),
            decisionOf(exact),
            `widening ${code}: the rule decides on bounds as on counts`,
            context,
          );
        });
      }
      t.equal(seen.mismatches, 0, `${datasetCase.groups} peer groups, 64 widenings each`);
      t.ok(bounded > 0, `told the rule: ${bounded} widenings settled by bounds`);
    });

    t.test("loss experiences of random peer groups (SEMANTICS.md section 15)", async (t) => {
      let bounded = 0;
      const { expect, seen } = expecting(t);
      // Each year's programs are read back one query each: a quarter of the groups.
      for (let group = 0; group < Math.ceil(datasetCase.groups / 4) && seen.mismatches < 5; group++) {
        const peers = drawGroup(pool, random);
        const { span, limits } = drawLossExperience(CONTRIBUTORS_AS_OF, pool, random);
        const context = { group, peers: JSON.parse(plain(peers)) as unknown, span };
        const [counted, sql, uncounted, withBounds] = [
          await counting.lossExperience(peers, span, limits),
          await sqlCounting.lossExperience(peers, span, limits),
          await notCounting.lossExperience(peers, span, limits),
          await bounding.lossExperience(peers, span, limits),
        ];
        expect(counted, sql, "lossExperience: the SQL engine's answer, contributors and all", context);
        const figures = (answer: typeof counted) => ({
          years: answer.years.map(({ contributors: _, ...rest }) => rest),
          total: { ...answer.total, contributors: undefined },
        });
        expect(figures(uncounted), figures(counted), "lossExperience: not counting, the same figures", context);
        expect(
          [...uncounted.years, uncounted.total].some((year) => "contributors" in year),
          false,
          "lossExperience: not counting, no contributors field",
          context,
        );
        expect(figures(withBounds), figures(counted), "lossExperience: told the rule, the same figures", context);
        // Year Y: after Y - 1's last day, up to Y's (a program is in Y when its effective date is).
        const yearsWindow = (first: number, last: number) => ({ start: `${first - 1}-12-31`, end: `${last}-12-31` });
        const sets = [
          ...counted.years.map((_, k) => yearsWindow(span.first + k, span.first + k)),
          yearsWindow(span.first, span.last),
        ];
        const answers = [...withBounds.years, withBounds.total];
        for (const [k, window] of sets.entries()) {
          const exact = contributorsOf(await readPeerPrograms(knex, peers, window));
          const got = [...counted.years, counted.total][k]!.contributors;
          expect(got, exact, `set ${k}: contributors as contributorsOf reads them`, { ...context, window });
          const told = answers[k]!.contributors!;
          if (!told.bounds) {
            expect(told, exact, `set ${k}: told the rule, counted when its size does not settle it`, context);
            continue;
          }
          bounded++;
          expect(decisionOf(told), decisionOf(exact), `set ${k}: the rule decides on bounds as on counts`, context);
        }
      }
      t.equal(seen.mismatches, 0, "every year and total counted as contributorsOf counts");
      t.ok(bounded > 0, `told the rule: ${bounded} years or totals settled by bounds`);
    });
  });
}
