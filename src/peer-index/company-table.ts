import type { CopyRow } from "./copy-rows.js";
import { NAICS_KEYS, naicsKey } from "./naics-key.js";
import { countingSort, createPermuter } from "./program-order.js";
import type { CompanyColumns } from "./snapshot.js";

/** Organization types are indexed in 16 bits. */
const MAX_ORGANIZATIONS = 0xffff;

/**
 * The companies with a NAICS code, read from a COPY in company id order (fields:
 * company id, naics2, naics3, organization type, revenues, employees, market cap),
 * then put in NAICS-key order for the snapshot. While the rows load, it tells each
 * row's company id its position, NAICS key and whether its exposures are exact.
 */
export class CompanyTableBuilder {
  readonly organizationIndex = new Map<string, number>();
  private readonly organizationByKey = new Map<number, number>();
  /** In load (id) order. */
  private ids = new Float64Array(0);
  private keys = new Uint16Array(0);
  private exact = new Uint8Array(0);
  private loaded: CompanyColumns | undefined;
  private count = 0;
  /** The position in NAICS-key order of each company in id order. */
  private position = new Uint32Array(0);
  private columns: CompanyColumns | undefined;

  /** Room for `capacity` companies. */
  start(capacity: number): void {
    this.ids = new Float64Array(capacity);
    this.keys = new Uint16Array(capacity);
    this.exact = new Uint8Array(capacity);
    this.loaded = {
      organization: new Uint16Array(capacity),
      revenues: new Float64Array(capacity),
      employees: new Float64Array(capacity),
      marketCap: new Float64Array(capacity),
    };
  }

  add(row: CopyRow): void {
    const i = this.count++;
    if (i >= this.ids.length) throw new Error("more companies than counted");
    const id = row.integer(0);
    if (i > 0 && !(id > this.ids[i - 1]!)) throw new Error("companies out of id order");
    const columns = this.loaded!;
    this.ids[i] = id;
    this.keys[i] = naicsKey(row.integer(1), row.integer(2));
    columns.organization[i] = this.organization(row);
    const revenues = (columns.revenues[i] = row.scaled(4, 2));
    columns.employees[i] = row.integer(5);
    const marketCap = (columns.marketCap[i] = row.scaled(6, 2));
    this.exact[i] = +(safe(revenues) && safe(marketCap));
  }

  /** Puts the companies in NAICS-key order (by id within a key). */
  finish(): void {
    if (this.count !== this.ids.length) throw new Error("fewer companies than counted");
    const { order } = countingSort(this.count, NAICS_KEYS, (i) => this.keys[i]!, undefined);
    this.position = new Uint32Array(this.count);
    order.forEach((loaded, sorted) => (this.position[loaded] = sorted));
    const permute = createPermuter(order);
    const loaded = this.loaded!;
    this.columns = {
      organization: permute(loaded.organization),
      revenues: permute(loaded.revenues),
      employees: permute(loaded.employees),
      marketCap: permute(loaded.marketCap),
    };
    this.loaded = undefined;
  }

  /** The position of the company with this id (binary search); throws for an id not loaded. */
  positionOf(id: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ids[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.count || this.ids[lo] !== id) throw new Error(`a row of company ${id}, which has no NAICS code or does not exist`);
    return lo;
  }

  /** For a company's load position (positionOf): its position in the snapshot. */
  sortedPosition(loaded: number): number {
    return this.position[loaded]!;
  }

  naicsKey(loaded: number): number {
    return this.keys[loaded]!;
  }

  /** Whether every exposure of the company is at most 2^53 - 1. */
  isExact(loaded: number): boolean {
    return this.exact[loaded] === 1;
  }

  /** The columns, in NAICS-key order; the load's lookup tables are let go. */
  take(): CompanyColumns {
    this.ids = new Float64Array(0);
    this.keys = new Uint16Array(0);
    this.exact = new Uint8Array(0);
    this.position = new Uint32Array(0);
    return this.columns!;
  }

  private organization(row: CopyRow): number {
    const key = row.codeKey(3);
    let index = this.organizationByKey.get(key);
    if (index === undefined) {
      if (this.organizationIndex.size === MAX_ORGANIZATIONS) throw new Error(`more than ${MAX_ORGANIZATIONS} organization types: too many for the peer index`);
      const code = row.text(3);
      index = this.organizationIndex.size;
      this.organizationIndex.set(code, index);
      this.organizationByKey.set(key, index);
    }
    return index;
  }
}

/** Exact as a float64 integer (NaN, SQL NULL, is exact too). */
export function safe(value: number): boolean {
  return !(value > Number.MAX_SAFE_INTEGER);
}
