/**
 * Per-company figures of a set of program rows, given as keys: company * 8 + the amounts
 * the row has (limit 4, premium 2, retention 1; contributor-counts.ts). The keys are
 * sorted by company (an LSD radix sort on 11-bit digits of the company alone, the
 * amounts left unsorted: two passes at Advisen scale, 636K companies), and each run of
 * one company is added to four tallies: its rows, and those with each amount.
 */

/** The companies with at least one row of a figure, and the rows of the two with the most. */
export class CompanyTally {
  companies = 0;
  first = 0;
  second = 0;

  add(rows: number): void {
    if (rows === 0) return;
    this.companies++;
    if (rows > this.second) {
      if (rows > this.first) {
        this.second = this.first;
        this.first = rows;
      } else {
        this.second = rows;
      }
    }
  }

  get topTwo(): number {
    return this.first + this.second;
  }
}

/** Bits per radix digit: 2,048 counts, 8 KB, in L1 while a pass scatters. */
const DIGIT_BITS = 11;
const counts = new Uint32Array((1 << DIGIT_BITS) + 1);
/** The amounts' bits below the company in a key. */
const AMOUNT_BITS = 3;

/**
 * The tallies of keys[0..n) (all rows, with a limit, with a premium, with a retention),
 * companies below `companyCount`. Both arrays have room for n keys; either is left
 * holding them sorted.
 */
export function tallyCompanies(
  keys: Uint32Array,
  spare: Uint32Array,
  n: number,
  companyCount: number,
): [CompanyTally, CompanyTally, CompanyTally, CompanyTally] {
  let sorted = keys;
  let other = spare;
  // A pass per digit up to the largest company's highest bit (keys are below companyCount * 8).
  for (let shift = AMOUNT_BITS; 2 ** shift < companyCount * 8; shift += DIGIT_BITS) {
    radixPass(sorted, other, n, shift);
    [sorted, other] = [other, sorted];
  }
  const [all, limit, premium, retention] = [
    new CompanyTally(),
    new CompanyTally(),
    new CompanyTally(),
    new CompanyTally(),
  ];
  let r = 0;
  while (r < n) {
    const company = sorted[r]! >>> AMOUNT_BITS;
    let rows = 0;
    let limits = 0;
    let premiums = 0;
    let retentions = 0;
    for (; r < n && sorted[r]! >>> AMOUNT_BITS === company; r++) {
      const amounts = sorted[r]! & 7;
      rows++;
      limits += amounts >> 2;
      premiums += (amounts >> 1) & 1;
      retentions += amounts & 1;
    }
    all.add(rows);
    limit.add(limits);
    premium.add(premiums);
    retention.add(retentions);
  }
  return [all, limit, premium, retention];
}

/** One stable counting pass over the digit (key >>> shift) mod 2^11. */
function radixPass(from: Uint32Array, to: Uint32Array, n: number, shift: number): void {
  const mask = (1 << DIGIT_BITS) - 1;
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[((from[i]! >>> shift) & mask) + 1]!++;
  for (let d = 0; d + 1 < counts.length; d++) counts[d + 1]! += counts[d]!;
  for (let i = 0; i < n; i++) {
    const key = from[i]!;
    to[counts[(key >>> shift) & mask]!++] = key;
  }
}
