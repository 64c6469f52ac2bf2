/**
 * The charts' sizes on paper, in CSS pixels (96 to the inch): the print report draws each
 * chart at this size when printing starts (issue 27), instead of squeezing or cropping the
 * screen's bitmap. 440 px is 116 mm: beside it, the figure's numbers fit the 190 mm that A4
 * leaves inside 10 mm margins (Letter leaves 196 mm). The trend has its numbers below it
 * (a row per period), so it takes the page's width: 680 px is 180 mm.
 */
export type PrintSize = "distribution" | "rpm" | "adequacy" | "trend";

export const PRINT_SIZES: Readonly<Record<PrintSize, { width: number; height: number }>> = {
  distribution: { width: 440, height: 215 },
  rpm: { width: 440, height: 140 },
  adequacy: { width: 440, height: 260 },
  trend: { width: 680, height: 300 },
};
