/**
 * A log axis for amounts from $0 to billions (issue 27): its ends are whole powers of ten
 * (never $74M or $6.2B), and when some amounts are $0 they get a row of their own one
 * power of ten below the smallest positive amount, labelled "$0" (a log axis has no 0;
 * drawing them at "$1" made them look like one-dollar losses, and its "$0.7" tick crowded
 * "$1").
 */
export interface LogAxis {
  min: number;
  max: number;
  /** Where $0 amounts are drawn (the axis minimum), or null when there are none. */
  zeroRow: number | null;
}

/** `values` are the amounts drawn; `marks` the lines that must show too (limits). */
export function logAxisFor(values: readonly number[], marks: readonly number[]): LogAxis {
  const positive = [...values, ...marks].filter((v) => Number.isFinite(v) && v > 0);
  const hasZero = values.some((v) => v <= 0);
  const low = positive.length ? Math.floor(Math.log10(Math.min(...positive))) : 0;
  let high = positive.length ? Math.ceil(Math.log10(Math.max(...positive))) : 1;
  if (high <= low) high = low + 1;
  const bottom = hasZero ? low - 1 : low;
  return { min: 10 ** bottom, max: 10 ** high, zeroRow: hasZero ? 10 ** bottom : null };
}

/** Where an amount is drawn on the axis: $0 on its own row. */
export const drawnAt = (axis: LogAxis, amount: number) =>
  amount <= 0 && axis.zeroRow !== null ? axis.zeroRow : amount;

/** Whether a tick value is the $0 row (ticks come back as floats, so compared by ratio). */
export const isZeroRow = (axis: LogAxis, value: number) =>
  axis.zeroRow !== null && Math.abs(value / axis.zeroRow - 1) < 1e-9;
