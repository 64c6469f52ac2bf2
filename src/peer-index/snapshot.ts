import { Decimal } from "../benchmark/decimal.js";
import { NAICS_KEYS } from "./naics-key.js";

/**
 * The peer index's data: an immutable, columnar snapshot of the peer facts of one
 * dataset version. Programs and loss events are rows of typed-array columns, each
 * row carrying its company's attributes (NAICS, organization type, exposures), so a
 * peer group is read in one sequential pass with no join.
 *
 * Programs are sorted by (coverage, NAICS key, effective date) and loss events by
 * (coverage, NAICS key, loss year) (naics-key.ts): a peer group reads only the keys
 * its NAICS codes name, and in each, its window (or its loss years) is one contiguous
 * range, found by binary search. Each loss event carries its rank in answer order
 * (amount, then id) within its coverage, so the cases of a peer group come out in
 * order without a sort. Rows of companies without a NAICS code are left out: no peer
 * group holds them.
 *
 * Amounts are exact integers (cents, dollars or heads) held in float64 columns, exact
 * up to 2^53 - 1; NaN is SQL NULL. A coverage holding an amount or exposure beyond that
 * is marked inexact and served by SQL instead (see CoverageSlices.exact); an RPM beyond
 * it, which a tiny limit makes, is kept exactly as a BigInt beside the column.
 */

/**
 * Every value an index coverage holds is at most 2^53 - 1, so a request's bound or
 * amount beyond it can be clamped to 2^53 (exact as a double) without changing any
 * comparison.
 */
const CEILING = 2 ** 53;

/** An exact decimal (a whole number here) as a double to compare with the columns: clamped to CEILING. */
export function comparable(value: Decimal): number {
  return Decimal.min(value, CEILING).toNumber();
}

/** A coverage's row groups before it has rows: every NAICS key empty. */
export function emptyNaicsRows(): NaicsRows {
  return { start: 0, end: 0, byNaics: new Int32Array(NAICS_KEYS + 1) };
}

/** A run of rows [start, end). */
export interface RowRange {
  start: number;
  end: number;
}

/** A coverage's rows of one table, grouped by NAICS key. */
export interface NaicsRows extends RowRange {
  /** Key k holds rows [byNaics[k], byNaics[k + 1]); NAICS_KEYS + 1 entries. */
  byNaics: Int32Array;
}

/**
 * The least and the greatest value of each of a coverage's tiers of an amount
 * (amount-tiers.ts; an empty tier takes the greatest value of the tiers before it,
 * -Infinity before any): both ascend with the tier, so a request's amount falls in a
 * short run of tiers and every row of a tier outside it is known to lie below or
 * above it without its value being read (program-figures.ts).
 */
export interface TierBounds {
  least: Float64Array;
  greatest: Float64Array;
}

/**
 * A coverage's programs counted by NAICS key, calendar year and known exposure, and each
 * key's least and greatest known exposure (program-years.ts).
 */
export interface ProgramYears {
  /** The coverage's first program's year; `years` from it are held (0: none, too many to hold). */
  firstYear: number;
  years: number;
  /** Programs whose exposure is known, at ((key * years) + year - firstYear) * 3 + exposure. */
  known: Int32Array;
  /** Each key's least and greatest known exposure, at key * 3 + exposure (+Infinity and -Infinity when none is). */
  least: Float64Array;
  greatest: Float64Array;
}

/** What the snapshot holds of one coverage. */
export interface CoverageSlices {
  /** Its lines of business, ascending (the coverage reference of SEMANTICS.md section 11). */
  lineOfBusinessIds: number[];
  programs: NaicsRows;
  losses: NaicsRows;
  /**
   * Every amount, exposure and RPM of its rows is at most 2^53 - 1, so every figure
   * computed here is exact; when false, the index answers nothing for this coverage.
   */
  exact: boolean;
  /**
   * The most programs one company holds here (programs-per-company.ts): a peer group of
   * n programs holds at least n / this many companies, and its two largest hold at most
   * twice this many programs.
   */
  maxProgramsPerCompany: number;
  /** The bounds of its rows' tiers of the three amounts an assessment ranks (amount-tiers.ts). */
  tierBounds: Record<"limit" | "premium" | "retention", TierBounds>;
  /** Its programs counted by NAICS key, calendar year and known exposure (program-years.ts). */
  programYears: ProgramYears;
}

/** The company attributes every row carries (SEMANTICS.md section 1); its NAICS key is its group's. */
export interface CompanyColumns {
  /** Index into PeerSnapshot.organizationTypes. */
  organization: Uint16Array;
  /** Index into PeerSnapshot.lineOfBusinessIds (of the row, not of the company). */
  line: Uint16Array;
  /** Cents; NaN unknown. */
  revenues: Float64Array;
  /**
   * Heads; NaN unknown. Single precision, exact for every count up to 2^24 (16.7M, past
   * any employer's): a company beyond that makes its coverages inexact.
   */
  employees: Float32Array;
  /** Cents; NaN unknown. */
  marketCap: Float64Array;
}

export interface ProgramColumns extends CompanyColumns {
  /** Effective date, in days since 1970-01-01; ascending within a coverage's NAICS key. */
  day: Int32Array;
  /** Cents; NaN none. */
  limit: Float64Array;
  premium: Float64Array;
  retention: Float64Array;
  /** The three amounts' bands (SEMANTICS.md section 4) as one band triple (band-triples.ts); computed once, at build. */
  bandTriple: Uint16Array;
  /**
   * The program's RPM in cents, rounded once (SEMANTICS.md section 7); NaN when it has
   * none. A tiny limit makes a huge RPM: above 2^53 - 1 this is only an approximation
   * and the exact value is in PeerSnapshot.largeRpms.
   */
  rpm: Float64Array;
  /**
   * Each amount's tier: the row's place in its coverage's order of the amount (ties by
   * row; an RPM past 2^53 - 1 by its exact value), in 16 bits (amount-tiers.ts), for
   * order statistics of any set of rows in two short passes (tier-select.ts), with no
   * sort per request. Eight bytes a program for the four.
   */
  limitTier: Uint16Array;
  premiumTier: Uint16Array;
  retentionTier: Uint16Array;
  rpmTier: Uint16Array;
  /**
   * Who the program came from, for the disclosure rule's counts (contributor-counts.ts):
   * its company as a dense index below PeerSnapshot.companyCount (company ids go up to
   * 2^53 - 1; the index is its rank among the companies with a NAICS code), and its
   * source as an index into PeerSnapshot.sources. Six bytes a program: 24 MB for the
   * 3.9 million programs of Advisen scale, on a snapshot of 299 MB before them (8%).
   */
  company: Uint32Array;
  source: Uint16Array;
}

/** The source index of programs without a source (NULL or ""): a partner's, all of them one source (peer-statistics.ts). */
export const NO_SOURCE = 0;

/** The source index of the curated, public programs: the one source not a partner's. */
export const CURATED = 1;

/** The band of a row without the amount. */
export const NO_BAND = 255;

/** No row: an order's entries past the rows it ranks. */
export const NO_ROW = 0xffffffff;

export interface LossColumns extends CompanyColumns, CaseColumns {
  /** Loss year (SEMANTICS.md section 3); ascending within a coverage's NAICS key. */
  year: Int32Array;
  /**
   * The loss date (the accident date, else the filing date, as a date) in days since
   * 1970-01-01: the market trend counts loss events by it (SEMANTICS.md section 13).
   */
  day: Int32Array;
  /** The row's rank in answer order (amount, then id) within its coverage: its case is at the coverage's start plus the rank (CaseColumns). */
  rank: Uint32Array;
}

/**
 * Every loss event as a case of a limit-adequacy answer, in each coverage's answer order
 * (amount, then id: SEMANTICS.md section 9), by place: a coverage's start plus the rank
 * (LossColumns.rank). A request marks its rows' ranks and reads their places in order,
 * without a sort, and reads them in a row. Besides the id and the amount (whole
 * dollars), each case is rendered once, at build, in the two forms an answer lists it in
 * (case-columns.ts): an answer then copies runs of bytes instead of making and writing
 * tens of thousands of messages. Case p's JSON is `caseJson.subarray(caseJsonStart[p],
 * caseJsonStart[p + 1])`, and its protobuf likewise.
 */
export interface CaseColumns {
  caseId: Float64Array;
  caseAmount: Float64Array;
  caseJson: Uint8Array;
  caseJsonStart: Uint32Array;
  caseProto: Uint8Array;
  caseProtoStart: Uint32Array;
}

export interface PeerSnapshot {
  /** The dataset version the snapshot was read at (one REPEATABLE READ transaction). */
  readonly version: number;
  readonly coverages: ReadonlyMap<number, CoverageSlices>;
  /** Dense line-of-business indexes: the id of each, and back. */
  readonly lineOfBusinessIds: readonly number[];
  readonly lineIndex: ReadonlyMap<number, number>;
  /** Dense organization-type indexes, upper-case codes. */
  readonly organizationTypes: readonly string[];
  readonly organizationIndex: ReadonlyMap<string, number>;
  readonly programs: ProgramColumns;
  /** Dense company indexes (ProgramColumns.company) are below this. */
  readonly companyCount: number;
  /** The programs' sources by index: "" at NO_SOURCE (for NULL and ""), "curated" at CURATED, then partners' codes. */
  readonly sources: readonly string[];
  /** Exact RPMs in cents of the program rows whose RPM is above 2^53 - 1. */
  readonly largeRpms: ReadonlyMap<number, bigint>;
  readonly losses: LossColumns;
}

/**
 * The buffers behind the snapshot's columns, each once: a column may be a view of a
 * larger buffer, and some share one. The program columns' buffers are shared
 * (SharedArrayBuffer), so that the scan thread reads them too (scan-thread.ts).
 */
export function snapshotBuffers(snapshot: PeerSnapshot): ArrayBufferLike[] {
  const buffers = new Set<ArrayBufferLike>();
  for (const table of [snapshot.programs, snapshot.losses]) {
    for (const column of Object.values(table) as ArrayBufferView[]) buffers.add(column.buffer);
  }
  return [...buffers];
}

/** The buffers of snapshotBuffers that can be transferred, which shared ones cannot: every one but the program columns'. */
export function ownedBuffers(snapshot: PeerSnapshot): ArrayBuffer[] {
  return snapshotBuffers(snapshot).filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}

/** Bytes held by the snapshot's columns (their whole buffers). */
export function snapshotBytes(snapshot: PeerSnapshot): number {
  return snapshotBuffers(snapshot).reduce((bytes, buffer) => bytes + buffer.byteLength, 0);
}
