import { bandTriple } from "./band-triples.js";
import type { CopyRow } from "./copy-rows.js";
import { NAICS_KEYS, naicsKey } from "./naics-key.js";
import { bucketOf, createPermuter, rowOrder, type Column } from "./program-order.js";
import { maxProgramsPerCompany } from "./programs-per-company.js";
import { countProgramYears, emptyProgramYears } from "./program-years.js";
import { emptyCoverageTierBounds, tiersOfOrder } from "./amount-tiers.js";
import { rankRows } from "./rank-rows.js";
import { caseColumns } from "./case-columns.js";
import { RecycledBuffers } from "./recycled-buffers.js";
import { SourceDictionary } from "./source-dictionary.js";
import {
  emptyNaicsRows,
  type CaseColumns,
  type CompanyColumns,
  type CoverageSlices,
  type LossColumns,
  type PeerSnapshot,
  type ProgramColumns,
} from "./snapshot.js";

// Filled once the rows are in order, not loaded.
const PROGRAM_RANKS: readonly string[] = ["limitTier", "premiumTier", "retentionTier", "rpmTier"];
/** Loss events as loaded: each one's amount and id by row, until they are put in answer order (CaseColumns). */
type LoadedLosses = Omit<LossColumns, keyof CaseColumns> & { amount: Float64Array; id: Float64Array };
/** The largest head count a float32 column holds exactly (and every one below it). */
const MAX_EXACT_EMPLOYEES = 2 ** 24;
/** Lines of business and organization types are indexed in 16 bits. */
const MAX_CODES = 0xffff;
/** A company's index and three bits fill the 32-bit keys of company-tallies.ts. */
const MAX_COMPANIES = 2 ** 29;

/**
 * Turns the rows of the two COPYs into a snapshot. Rows arrive in any order and are
 * sorted here (program-order.ts); loss events come with their rank in answer order.
 * Both carry their company's fields in fields 3 to 8: naics2, naics3, organization
 * type, revenues, employees, market cap.
 */
export class SnapshotBuilder {
  private readonly coverages = new Map<number, CoverageSlices>();
  private readonly coverageIndex = new Map<number, number>();
  private readonly lineIndex = new Map<number, number>();
  private readonly organizationIndex = new Map<string, number>();
  private readonly organizationByKey = new Map<number, number>();
  /** Exact RPMs past 2^53 - 1 cents, by row as loaded, then as sorted. */
  private largeRpms = new Map<number, bigint>();
  private programs: ProgramColumns | undefined;
  private losses: LoadedLosses | LossColumns | undefined;
  /** Each loaded row's bucket (coverage, NAICS key), for the sort. */
  private bucket = new Uint32Array(0);
  private readonly recycled = new RecycledBuffers();
  private readonly sources = new SourceDictionary();
  /** One past the largest company index loaded. */
  private companyCount = 0;
  private rows = 0;

  constructor(
    private readonly version: number,
    coverageIds: number[],
    lines: { id: number; coverage: number }[],
  ) {
    for (const id of coverageIds) {
      this.coverageIndex.set(id, this.coverages.size);
      this.coverages.set(id, {
        lineOfBusinessIds: [],
        programs: emptyNaicsRows(),
        losses: emptyNaicsRows(),
        exact: true,
        maxProgramsPerCompany: 0,
        tierBounds: emptyCoverageTierBounds(),
        programYears: emptyProgramYears(),
      });
    }
    if (lines.length > MAX_CODES)
      throw new Error(`more than ${MAX_CODES} lines of business: too many for the peer index`);
    for (const line of lines) {
      this.lineIndex.set(line.id, this.lineIndex.size);
      this.coverages.get(line.coverage)?.lineOfBusinessIds.push(line.id);
    }
  }

  /**
   * Room for up to `capacity` programs, in load order. The columns are shared from the
   * first row (the permutation reuses their buffers, so sharing them at the end would
   * be a copy at the build's peak): the scan thread reads them too (scan-thread.ts).
   */
  startPrograms(capacity: number): void {
    this.programs = {
      ...companyColumns(capacity, shared),
      day: shared(Int32Array, capacity),
      limit: shared(Float64Array, capacity),
      premium: shared(Float64Array, capacity),
      retention: shared(Float64Array, capacity),
      bandTriple: shared(Uint16Array, capacity),
      rpm: shared(Float64Array, capacity),
      limitTier: new Uint16Array(0),
      premiumTier: new Uint16Array(0),
      retentionTier: new Uint16Array(0),
      rpmTier: new Uint16Array(0),
      company: shared(Uint32Array, capacity),
      source: shared(Uint16Array, capacity),
    };
    this.startRows(capacity);
  }

  /**
   * Fields: coverage, day, line, the company's six, limit, premium, retention, RPM
   * cents, the company's dense index, source.
   */
  addProgram(row: CopyRow): void {
    const columns = this.programs!;
    const i = this.rows++;
    const coverage = this.addRow(i, row, "programs");
    columns.day[i] = row.integer(1);
    let exact = this.addCompany(columns, i, row);
    const limit = (columns.limit[i] = row.scaled(9, 2));
    const premium = (columns.premium[i] = row.scaled(10, 2));
    const retention = (columns.retention[i] = row.scaled(11, 2));
    const rpm = (columns.rpm[i] = row.integer(12));
    if (!safe(rpm)) this.largeRpms.set(i, BigInt(row.text(12)));
    columns.bandTriple[i] = bandTriple(limit, premium, retention);
    const company = (columns.company[i] = row.integer(13));
    if (!(company < MAX_COMPANIES))
      throw new Error(`more than ${MAX_COMPANIES} companies: too many for the peer index`);
    if (company >= this.companyCount) this.companyCount = company + 1;
    columns.source[i] = this.sources.indexOf(row, 14);
    exact &&= safe(limit) && safe(premium) && safe(retention);
    if (!exact) coverage.exact = false;
  }

  /** Sorts the loaded programs, finds each coverage's NAICS groups, and tiers the amounts. */
  finishPrograms(): void {
    const { order, columns: sorted } = this.sortRows(
      this.programs!,
      "programs",
      (columns) => columns.day,
      PROGRAM_RANKS,
    );
    if (this.largeRpms.size > 0) {
      const large = new Map<number, bigint>();
      order.forEach((row, k) => {
        const exact = this.largeRpms.get(row);
        if (exact !== undefined) large.set(k, exact);
      });
      this.largeRpms = large;
    }
    this.recycled.give(order.buffer);
    this.tierAmounts(sorted);
    const tally = new Uint32Array(this.companyCount);
    for (const coverage of this.coverages.values()) {
      coverage.maxProgramsPerCompany = maxProgramsPerCompany(sorted.company, coverage.programs, tally);
      coverage.programYears = countProgramYears(sorted, coverage.programs);
    }
    this.programs = sorted;
  }

  /**
   * Each amount's tiers: the coverage's rows ranked by the amount (rank-rows.ts, exactly
   * for RPMs past 2^53 - 1), then cut into tiers, each coverage keeping its tiers'
   * bounds. The orders are only needed here.
   */
  private tierAmounts(sorted: ProgramColumns): void {
    const rows = sorted.rpm.length;
    const coverages = [...this.coverages.values()];
    const order = this.recycled.uint32(rows);
    const scratch = this.recycled.uint32(
      Math.max(0, ...coverages.map(({ programs }) => programs.end - programs.start)),
    );
    for (const amount of ["limit", "premium", "retention", "rpm"] as const) {
      const tiers = (sorted[`${amount}Tier`] = shared(Uint16Array, rows));
      for (const coverage of coverages) {
        const range = coverage.programs;
        rankRows(sorted[amount], range, order, scratch, amount === "rpm" ? this.largeRpms : undefined);
        const bounds = tiersOfOrder(sorted[amount], order, range, tiers);
        if (amount !== "rpm") coverage.tierBounds[amount] = bounds;
      }
    }
    this.recycled.give(order.buffer, scratch.buffer);
  }

  /** Room for exactly `rows` loss events. */
  startLosses(rows: number): void {
    this.losses = {
      ...companyColumns(rows, owned),
      year: new Int32Array(rows),
      day: new Int32Array(rows),
      amount: new Float64Array(rows),
      id: new Float64Array(rows),
      rank: new Uint32Array(rows),
    };
    this.startRows(rows);
  }

  /** Fields: coverage, loss year, line, the company's six, amount, id, rank in answer order, loss day. */
  addLoss(row: CopyRow): void {
    const columns = this.losses as LoadedLosses;
    const i = this.rows++;
    const coverage = this.addRow(i, row, "loss events");
    columns.year[i] = row.integer(1);
    if (!this.addCompany(columns, i, row)) coverage.exact = false;
    columns.amount[i] = row.integer(9);
    columns.id[i] = row.integer(10);
    columns.rank[i] = row.integer(11);
    columns.day[i] = row.integer(12);
  }

  /** Sorts the loaded loss events and puts their cases in each coverage's answer order (case-columns.ts). */
  finishLosses(): void {
    const loaded = this.losses as LoadedLosses;
    if (this.rows !== loaded.year.length) throw new Error("fewer loss events than counted");
    const { order, columns: sorted } = this.sortRows(loaded, "losses", (columns) => columns.year, []);
    this.recycled.give(order.buffer);
    // Each place (a coverage's start plus a rank) and the row ranked there.
    const rowByPlace = this.recycled.uint32(sorted.year.length);
    for (const { losses: range } of this.coverages.values()) {
      for (let i = range.start; i < range.end; i++) rowByPlace[range.start + sorted.rank[i]!] = i;
    }
    const { id, amount, ...rest } = sorted;
    this.losses = { ...rest, ...caseColumns(id, amount, rowByPlace) };
  }

  finish(): PeerSnapshot {
    const programs = this.programs!;
    const losses = this.losses as LossColumns;
    return {
      version: this.version,
      coverages: this.coverages,
      lineOfBusinessIds: [...this.lineIndex.keys()],
      lineIndex: this.lineIndex,
      organizationTypes: [...this.organizationIndex.keys()],
      organizationIndex: this.organizationIndex,
      programs,
      companyCount: this.companyCount,
      sources: this.sources.texts,
      largeRpms: this.largeRpms,
      losses,
    };
  }

  private startRows(capacity: number): void {
    this.bucket = new Uint32Array(capacity);
    this.rows = 0;
  }

  /** Row i's coverage (field 0), noting its bucket for the sort. */
  private addRow(i: number, row: CopyRow, table: string): CoverageSlices {
    if (i >= this.bucket.length) throw new Error(`more ${table} than counted`);
    const coverageId = row.integer(0);
    const coverage = this.coverages.get(coverageId);
    if (!coverage) throw new Error(`${table} of unknown coverage ${coverageId}`);
    this.bucket[i] = bucketOf(this.coverageIndex.get(coverageId)!, naicsKey(row.integer(3), row.integer(4)));
    return coverage;
  }

  /**
   * Puts the loaded rows in (coverage, NAICS key, `inner`) order, column by column (all
   * but `skip`, filled later), and sets each coverage's row groups.
   */
  private sortRows<T extends CompanyColumns>(
    loaded: T,
    table: "programs" | "losses",
    inner: (columns: T) => Int32Array,
    skip: readonly string[],
  ) {
    const { order, bucketStarts, scratch } = rowOrder(
      this.bucket,
      inner(loaded),
      this.rows,
      this.coverages.size * NAICS_KEYS,
    );
    this.recycled.give(this.bucket.buffer, scratch);
    this.bucket = new Uint32Array(0);
    const columns = { ...loaded };
    const permuter = createPermuter(order);
    for (const key of Object.keys(loaded) as (keyof T & string)[]) {
      if (!skip.includes(key)) columns[key] = permuter.permute(loaded[key] as never);
    }
    this.recycled.give(...permuter.leftovers());
    for (const [id, coverage] of this.coverages) {
      const first = this.coverageIndex.get(id)! * NAICS_KEYS;
      const byNaics = bucketStarts.slice(first, first + NAICS_KEYS + 1);
      coverage[table] = { start: byNaics[0]!, end: byNaics[NAICS_KEYS]!, byNaics };
    }
    return { order, columns };
  }

  /** Copies the company fields (3 to 8) and the row's line; false when an exposure is not exact. */
  private addCompany(columns: CompanyColumns, i: number, row: CopyRow): boolean {
    const line = this.lineIndex.get(row.integer(2));
    if (line === undefined) throw new Error(`unknown line of business ${row.text(2)}`);
    columns.line[i] = line;
    columns.organization[i] = this.organization(row);
    const revenues = (columns.revenues[i] = row.scaled(6, 2));
    const employees = (columns.employees[i] = row.integer(7));
    const marketCap = (columns.marketCap[i] = row.scaled(8, 2));
    return safe(revenues) && safe(marketCap) && !(employees > MAX_EXACT_EMPLOYEES);
  }

  private organization(row: CopyRow): number {
    const key = row.codeKey(5);
    let index = this.organizationByKey.get(key);
    if (index === undefined) {
      if (this.organizationIndex.size === MAX_CODES)
        throw new Error(`more than ${MAX_CODES} organization types: too many for the peer index`);
      const code = row.text(5);
      index = this.organizationIndex.size;
      this.organizationIndex.set(code, index);
      this.organizationByKey.set(key, index);
    }
    return index;
  }
}

type Allocate = <T extends Column>(
  type: { new (buffer: ArrayBufferLike): T; BYTES_PER_ELEMENT: number },
  length: number,
) => T;

/** A zeroed column on a SharedArrayBuffer. */
const shared: Allocate = (type, length) => new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));

/** A zeroed column of the thread's own, which release-snapshot.ts can give back at once. */
const owned: Allocate = (type, length) => new type(new ArrayBuffer(length * type.BYTES_PER_ELEMENT));

function companyColumns(rows: number, allocate: Allocate): CompanyColumns {
  return {
    organization: allocate(Uint16Array, rows),
    line: allocate(Uint16Array, rows),
    revenues: allocate(Float64Array, rows),
    employees: allocate(Float32Array, rows),
    marketCap: allocate(Float64Array, rows),
  };
}

/** Exact as a float64 integer (NaN, SQL NULL, is exact too). */
function safe(value: number): boolean {
  return !(value > Number.MAX_SAFE_INTEGER);
}
