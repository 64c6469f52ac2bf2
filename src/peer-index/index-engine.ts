import type { Decimal } from "../benchmark/decimal.js";
import type { DisclosureRule } from "../benchmark/disclosure-rule.js";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { PeerEngine, SelectedAmounts } from "../benchmark/peer-engine.js";
import type { CoverageReference } from "../benchmark/peer-group.js";
import type {
  AssessmentStatistics,
  LimitAdequacyStatistics,
  PeerCount,
  RpmStatistics,
} from "../benchmark/peer-statistics.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import type { PeriodStatistics } from "../benchmark/trend-statistics.js";
import type { LossExperienceFigures } from "../benchmark/loss-experience-statistics.js";
import {
  assessmentContributors,
  contributorsOfRows,
  trendContributors,
  type CompanyBound,
} from "./contributor-counts.js";
import { casesInOrder, lossYearRange } from "./loss-figures.js";
import { lossFiguresByYear, type LossFigures } from "./loss-experience-figures.js";
import { programCountsByYear, programRowsByYear } from "./loss-experience-programs.js";
import { compilePeerFilter, matchRows, rowFilterOf, type CompiledPeerFilter } from "./peer-filter.js";
import {
  assessmentFigures,
  clientRpmOf,
  figuresOfTally,
  medianLimitOfRows,
  placingOf,
  rpmFiguresOfRows,
  rpmFiguresOfTally,
  type PlacingTally,
  type RpmFiguresOfRows,
} from "./program-figures.js";
import { placingPlan, placingTallier } from "./placing-scan.js";
import { gatherInRanges, rpmPlan, rpmTallier } from "./rpm-scan.js";
import { scratchRows } from "./scratch.js";
import { periodDays, trendFigures } from "./trend-figures.js";
import { claimOrder, periodPrograms, periodRanges, programsOfPeriod, worthSharing } from "./period-programs.js";
import type { ScanThread } from "./scan-thread.js";
import { periodsInTurn, placingInTurn, rpmInTurn, runsInTurn } from "./parts-in-turn.js";
import { rowsInWindow, windowDays } from "./window-rows.js";
import { trendSpan } from "../benchmark/trend-periods.js";
import { emptyCoverageTierBounds } from "./amount-tiers.js";
import { emptyProgramYears } from "./program-years.js";
import { candidateCounts, countWidenings } from "./widening-counts.js";
import { chunkKeys, planRows, runTallier, wideningPlan } from "./widening-scan.js";
import { inTurn } from "../load-control/turns.js";
import {
  emptyNaicsRows,
  type CompanyColumns,
  type CoverageSlices,
  type NaicsRows,
  type PeerSnapshot,
  type RowRange,
} from "./snapshot.js";

/**
 * The runs of NAICS keys a shared scan (suggestions, assessment, RPM) is cut into: each
 * thread takes the next until none is left, so the one that finishes last waits at most
 * about one run.
 */
const RUNS_PER_SCAN = 16;

/** What an unknown coverage reads as: nothing, so the service answers 400 as with SQL. */
const UNKNOWN_COVERAGE: CoverageSlices = {
  lineOfBusinessIds: [],
  programs: emptyNaicsRows(),
  losses: emptyNaicsRows(),
  exact: true,
  maxProgramsPerCompany: 0,
  tierBounds: emptyCoverageTierBounds(),
  programYears: emptyProgramYears(),
};

export interface IndexPeerEngineOptions {
  /**
   * Count who each program figure's rows came from (Contributors, for the disclosure
   * rule), in the same call; off by default, when no answer carries them or costs more.
   */
  contributors?: boolean;
  /**
   * With contributors: the rule they will be checked against, so that a group whose
   * company conditions its size settles goes uncounted (contributor-counts.ts,
   * CompanyBound). Without it, every count is exact.
   */
  disclosure?: DisclosureRule;
  /** A second thread reading the snapshot (scan-thread.ts) that takes part of long scans; it must hold each snapshot this engine reads. */
  scanThread?: ScanThread;
}

interface Opened {
  snapshot: PeerSnapshot;
  coverage: CoverageSlices;
  reference: CoverageReference;
}

/**
 * The peer engine of the in-memory index. Each call takes the current snapshot once
 * and computes its whole answer from it synchronously, so a request never mixes two
 * dataset versions; its answer holds no view of the snapshot's columns, so a replaced
 * snapshot can be released at once (release-snapshot.ts). With no snapshot to answer from (before the first build, or one
 * known to be stale), or for a coverage the index cannot hold exactly, it hands the
 * call to `fallback`, the SQL engine, which must count contributors as this engine is
 * told to. Calls take turns on the event loop (turns.ts).
 */
export function createIndexPeerEngine(
  currentSnapshot: () => PeerSnapshot | undefined,
  fallback: PeerEngine,
  options: IndexPeerEngineOptions = {},
): PeerEngine {
  return takingTurns(
    createEngine(currentSnapshot, fallback, options.contributors ?? false, options.disclosure, options.scanThread),
  );
}

function takingTurns(engine: PeerEngine): PeerEngine {
  return {
    coverageReference: (...args) => inTurn(() => engine.coverageReference(...args)),
    assessment: (...args) => inTurn(() => engine.assessment(...args)),
    rpm: (...args) => inTurn(() => engine.rpm(...args)),
    programCount: (...args) => inTurn(() => engine.programCount(...args)),
    lossCount: (...args) => inTurn(() => engine.lossCount(...args)),
    limitAdequacy: (...args) => inTurn(() => engine.limitAdequacy(...args)),
    trend: (...args) => inTurn(() => engine.trend(...args)),
    lossExperience: (...args) => inTurn(() => engine.lossExperience(...args)),
    widenings: (...args) => inTurn(() => engine.widenings(...args)),
  };
}

function createEngine(
  currentSnapshot: () => PeerSnapshot | undefined,
  fallback: PeerEngine,
  counting: boolean,
  rule: DisclosureRule | undefined,
  scanThread: ScanThread | undefined,
): PeerEngine {
  const boundOf = ({ coverage }: Opened): CompanyBound | undefined =>
    rule && { rule, maxPerCompany: coverage.maxProgramsPerCompany };

  /** The snapshot and coverage to answer from, or undefined to ask the fallback. */
  function open(coverageId: number): Opened | undefined {
    const snapshot = currentSnapshot();
    if (!snapshot) return undefined;
    const coverage = snapshot.coverages.get(coverageId);
    if (!coverage)
      return {
        snapshot,
        coverage: UNKNOWN_COVERAGE,
        reference: { coverageKnown: false, lineOfBusinessIds: [], datasetVersion: snapshot.version },
      };
    if (!coverage.exact) return undefined;
    return {
      snapshot,
      coverage,
      reference: {
        coverageKnown: true,
        lineOfBusinessIds: coverage.lineOfBusinessIds,
        datasetVersion: snapshot.version,
      },
    };
  }

  /**
   * A scan of `rows` rows over these keys cut into runs (chunkKeys) to take in turn
   * with the scan thread; undefined without a thread, or when the rows are too few to
   * be worth a round trip.
   */
  function runsToShare(keys: { starts: Int32Array; ends: Int32Array }, rows: number): Int32Array | undefined {
    if (!scanThread || rows < scanThread.minRowsToSplit) return undefined;
    return chunkKeys(keys, Math.max(1, Math.ceil(rows / RUNS_PER_SCAN)));
  }

  /**
   * An assessment's placing started with the scan thread, when the group's rows make it
   * worth a round trip: the call takes runs of keys in turn with it (finish). Undefined
   * when it is not shared: contributors are counted from the rows, which only this
   * thread sees, and small groups are placed here alone.
   */
  function sharedPlacing(
    { snapshot, coverage }: Opened,
    filter: CompiledPeerFilter,
    window: TimeWindow,
    selected: SelectedAmounts,
  ): (() => PlacingTally) | undefined {
    if (counting || !scanThread) return undefined;
    const plan = placingPlan(snapshot, coverage.programs, filter, window, placingOf(coverage.tierBounds, selected));
    const runs = runsToShare(plan.ranges, plan.ranges.size);
    const job = runs && scanThread.start(snapshot, { kind: "placing", plan, runs });
    if (!runs || !job) return undefined;
    return () => placingInTurn(job, runs.length - 1, placingTallier(snapshot, plan, runs));
  }

  /**
   * The RPM statistics' scan started with the scan thread, as sharedPlacing: its runs of
   * keys counted in turn (rpm-scan.ts), then the quartiles' rows gathered here.
   */
  function sharedRpm(
    { snapshot, coverage }: Opened,
    filter: CompiledPeerFilter,
    window: TimeWindow,
    clientRpm: Decimal,
  ): (() => RpmFiguresOfRows) | undefined {
    if (counting || !scanThread) return undefined;
    const plan = rpmPlan(snapshot, coverage.programs, filter, window, clientRpmOf(clientRpm));
    const runs = runsToShare(plan.ranges, plan.ranges.size);
    const job = runs && scanThread.start(snapshot, { kind: "rpm", plan, runs });
    if (!runs || !job) return undefined;
    return () => {
      const tally = rpmInTurn(job, runs.length - 1, rpmTallier(snapshot, plan, runs));
      return rpmFiguresOfTally(snapshot.programs, snapshot.largeRpms, tally, gatherInRanges(snapshot, plan));
    };
  }

  return {
    async coverageReference(coverageId) {
      return open(coverageId)?.reference ?? fallback.coverageReference(coverageId);
    },

    async assessment(peers, window, selected, options) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.assessment(peers, window, selected, options);
      const { snapshot, coverage } = opened;
      const filter = compilePeerFilter(snapshot, peers);
      const placing = sharedPlacing(opened, filter, window, selected);
      // Matched first, while the scan thread wakes.
      const totalLossCount = options.withLossCount ? matchLosses(opened, filter, { kind: "any" }).count : undefined;
      if (placing) {
        const tally = placing();
        return {
          reference: opened.reference,
          totalProgramCount: tally.count,
          ...figuresOfTally(tally),
          totalLossCount,
        };
      }
      const matched = matchPrograms(opened, filter, window);
      const answer: AssessmentStatistics = {
        reference: opened.reference,
        totalProgramCount: matched.count,
        ...assessmentFigures(snapshot.programs, coverage.tierBounds, matched.rows, matched.count, selected),
        totalLossCount,
      };
      if (counting)
        answer.contributors = assessmentContributors(snapshot, matched.rows, matched.count, boundOf(opened));
      return answer;
    },

    async rpm(peers, window, clientRpm) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.rpm(peers, window, clientRpm);
      const { snapshot, reference } = opened;
      const filter = compilePeerFilter(snapshot, peers);
      const shared = sharedRpm(opened, filter, window, clientRpm);
      if (shared) return { reference, ...shared() };
      const { rows, count } = matchPrograms(opened, filter, window);
      const answer: RpmStatistics = {
        reference,
        ...rpmFiguresOfRows(snapshot.programs, snapshot.largeRpms, rows, count, clientRpm),
      };
      if (counting)
        answer.contributors = contributorsOfRows(snapshot, rows, count, snapshot.programs.rpm, boundOf(opened));
      return answer;
    },

    async programCount(peers, window) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.programCount(peers, window);
      const { rows, count } = matchPrograms(opened, compilePeerFilter(opened.snapshot, peers), window);
      const answer: PeerCount = { reference: opened.reference, count };
      if (counting) answer.contributors = contributorsOfRows(opened.snapshot, rows, count, undefined, boundOf(opened));
      return answer;
    },

    // Loss events are public records: no contributors to count.
    async lossCount(peers, years) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.lossCount(peers, years);
      return {
        reference: opened.reference,
        count: matchLosses(opened, compilePeerFilter(opened.snapshot, peers), years).count,
      };
    },

    async limitAdequacy(peers, years, window) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.limitAdequacy(peers, years, window);
      const filter = compilePeerFilter(opened.snapshot, peers);
      const programs = matchPrograms(opened, filter, window);
      const medianLimit = medianLimitOfRows(
        opened.snapshot.programs,
        programs.rows,
        programs.count,
        opened.coverage.tierBounds.limit,
      );
      const losses = matchLosses(opened, filter, years);
      const cases = casesInOrder(opened.snapshot.losses, opened.coverage.losses, losses.rows, losses.count);
      const answer: LimitAdequacyStatistics = { reference: opened.reference, cases, medianLimit };
      // The rows the median limit reads: the default window's, with a limit.
      if (counting)
        answer.contributors = contributorsOfRows(
          opened.snapshot,
          programs.rows,
          programs.count,
          opened.snapshot.programs.limit,
          boundOf(opened),
        );
      return answer;
    },

    // Each period's programs matched straight into their own run of rows, the periods
    // taken in turn by this thread and the scan thread (period-programs.ts), and one
    // pass over the span's loss years (trend-figures.ts).
    async trend(peers, periods) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.trend(peers, periods);
      const { snapshot, coverage } = opened;
      const filter = compilePeerFilter(snapshot, peers);
      const ranges = periodRanges(snapshot, coverage.programs, filter, periods.map(windowDays));
      const contributors: NonNullable<PeriodStatistics["contributors"]>[] = [];
      // Contributors are counted from each period's rows, which only this thread sees.
      const counted = counting
        ? (rows: Uint32Array) => contributors.push(trendContributors(snapshot, rows, boundOf(opened)))
        : undefined;
      const shared = !counted && scanThread && worthSharing(ranges, scanThread.minRowsToSplit);
      const order = shared ? claimOrder(ranges) : [];
      const job = shared
        ? scanThread.start(snapshot, {
            kind: "periods",
            filter: rowFilterOf(filter),
            bounds: coverage.tierBounds,
            periods: order.map((i) => ranges[i]!),
          })
        : undefined;
      const span = trendSpan(periods);
      // A loss's year is its loss date's: the span's years hold every loss of the span.
      // Matched first: the scan thread wakes meanwhile.
      const losses = matchLosses(opened, filter, {
        kind: "range",
        oldest: Number(span.start.slice(0, 4)),
        newest: Number(span.end.slice(0, 4)),
      });
      const programs = job
        ? periodsInTurn(job, order, (i) => programsOfPeriod(snapshot, filter, coverage.tierBounds, ranges[i]!))
        : periodPrograms(snapshot, filter, coverage.tierBounds, ranges, counted);
      return {
        reference: opened.reference,
        periods: trendFigures(snapshot, periodDays(periods), programs, losses, counted && contributors),
      };
    },

    // The span's loss events matched once and read by year in amount order
    // (loss-experience-figures.ts); the programs counted per year, most keys from the
    // coverage's counts, or, when their contributors are counted, matched year after
    // year (loss-experience-programs.ts), the total's from all of them.
    async lossExperience(peers, span, limits) {
      const opened = open(peers.coverageId);
      if (!opened) return fallback.lossExperience(peers, span, limits);
      const { snapshot, coverage } = opened;
      const filter = compilePeerFilter(snapshot, peers);
      const matched = matchLosses(opened, filter, { kind: "range", oldest: span.first, newest: span.last });
      const losses = lossFiguresByYear(snapshot.losses, coverage.losses, matched, span, limits);
      if (!counting) {
        const counts = programCountsByYear(snapshot.programs, coverage, filter, span);
        return {
          reference: opened.reference,
          years: counts.map((programCount, y) => ({ programCount, ...losses.years[y]! })),
          total: { programCount: counts.reduce((sum, n) => sum + n, 0), ...losses.total },
        };
      }
      const { rows, years } = programRowsByYear(snapshot.programs, coverage, filter, span);
      const all = years.reduce((sum, year) => sum + year.count, 0);
      // In the SQL engine's order of members, contributors last: answers compare as JSON.
      const figures = (start: number, count: number, lossesOfSet: LossFigures): LossExperienceFigures => ({
        programCount: count,
        ...lossesOfSet,
        contributors: contributorsOfRows(
          snapshot,
          rows.subarray(start, start + count),
          count,
          undefined,
          boundOf(opened),
        ),
      });
      return {
        reference: opened.reference,
        years: years.map(({ start, count }, y) => figures(start, count, losses.years[y]!)),
        total: figures(0, all, losses.total),
      };
    },

    // One scan of the widest candidate's rows (widening-scan.ts), its runs of NAICS keys
    // taken in turn with the scan thread when there are no contributors to count.
    async widenings(space) {
      const opened = open(space.peers.coverageId);
      if (!opened) return fallback.widenings(space);
      const { snapshot } = opened;
      const plan = wideningPlan(snapshot, opened.coverage, space);
      const rows = planRows(plan);
      const runs = counting ? undefined : runsToShare(plan, rows);
      const job = runs && scanThread?.start(snapshot, { kind: "widenings", plan, runs });
      const counts =
        runs && job
          ? candidateCounts(runsInTurn(job, runs.length - 1, runTallier(snapshot, plan, runs)))
          : countWidenings(snapshot, plan, counting && { bound: boundOf(opened) });
      return { reference: opened.reference, ...counts };
    },
  };
}

/**
 * The peer programs: in each NAICS key the peer group's codes match, the window (start
 * < effective date <= end, SEMANTICS.md section 2) is one range of rows.
 */
function matchPrograms({ snapshot, coverage }: Opened, filter: CompiledPeerFilter, window: TimeWindow) {
  const days = windowDays(window);
  return matchInGroups(snapshot.programs, coverage.programs, filter, "programs", (run) =>
    rowsInWindow(snapshot.programs.day, run, days),
  );
}

/** The peer loss events passing the loss-year filter: in each NAICS key matched, the years are one range. */
function matchLosses({ snapshot, coverage }: Opened, filter: CompiledPeerFilter, years: LossYearFilter) {
  return matchInGroups(snapshot.losses, coverage.losses, filter, "losses", (run) =>
    lossYearRange(snapshot.losses, run, years),
  );
}

/** The matching rows of the part (`within`) of each matched NAICS key's group, in scratch space. */
function matchInGroups(
  columns: CompanyColumns,
  rowsOfCoverage: NaicsRows,
  filter: CompiledPeerFilter,
  table: "programs" | "losses",
  within: (run: RowRange) => RowRange,
) {
  const { byNaics, start, end } = rowsOfCoverage;
  const rows = scratchRows(table, end - start);
  let count = 0;
  for (const key of filter.naicsKeys) {
    if (byNaics[key] === byNaics[key + 1]) continue;
    const range = within({ start: byNaics[key]!, end: byNaics[key + 1]! });
    count = matchRows(columns, filter, range.start, range.end, rows, count);
  }
  return { rows, count };
}
