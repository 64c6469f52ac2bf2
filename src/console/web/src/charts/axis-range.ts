/**
 * Axis bounds that reach every marked value. ECharts sizes a value axis to the series'
 * data only; a markLine outside that range is not drawn at all, so a client's RPM above
 * the peers' maximum, or a client limit below every loss on a log axis, would silently
 * vanish. These are for an axis' `min`/`max` callbacks, which get the data's extent.
 */
export interface Extent {
  min: number;
  max: number;
}

/** Headroom beyond the outermost value, so a line's label is not cut at the edge. */
const HEADROOM = 1.1;

const finite = (values: readonly number[]) => values.filter((v) => Number.isFinite(v));

/** The top of a linear or log axis: the data's maximum or the largest mark, with headroom. */
export function maxIncluding(extent: Extent, marks: readonly number[], headroom = HEADROOM): number {
  const top = Math.max(...finite([extent.max, ...marks]));
  return Number.isFinite(top) && top > 0 ? top * headroom : 1;
}

/**
 * The bottom of a log axis: the data's minimum or the smallest positive mark, divided by
 * the headroom. A log axis has no 0, so marks at or below 0 are left out (not drawn).
 */
export function logMinIncluding(extent: Extent, marks: readonly number[], headroom = HEADROOM): number {
  const bottom = Math.min(...finite([extent.min, ...marks]).filter((v) => v > 0));
  return Number.isFinite(bottom) ? bottom / headroom : 1;
}
