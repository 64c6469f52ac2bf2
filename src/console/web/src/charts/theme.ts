/** Chart colours, shared so the client reads the same in every figure (and in the legend text). */
export const PEER_COLOR = "#7f9cc4";
export const CLIENT_COLOR = "#c2571a";
export const MEDIAN_COLOR = "#2f6b3b";
export const UNCOVERED_COLOR = "#9b2c2c";
export const AXIS_FONT = 11;

/**
 * Tooltip text as class-based markup: ECharts' default tooltip HTML carries `style`
 * attributes, which the CSP's `style-src 'self'` refuses. `confine` keeps ECharts from
 * adding its arrow, which is styled inline too.
 */
export const tooltipBase = { confine: true, className: "chart-tooltip", renderMode: "html" as const };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** One tooltip: a title line and label/value rows, all escaped. */
export function tooltipHtml(title: string, rows: [string, string][]): string {
  const body = rows
    .map(
      ([label, value]) =>
        `<div class="chart-tooltip-row"><span>${escapeHtml(label)}</span><b>${escapeHtml(value)}</b></div>`,
    )
    .join("");
  return `<div class="chart-tooltip-title">${escapeHtml(title)}</div>${body}`;
}

/**
 * Where a chart's labels and axis names must stay: 8 px inside its box, so on paper a label
 * is never cut at the chart's edge (issue 27), and the print test can tell by the blank rim.
 */
export const OUTER_BOUNDS = { left: 8, right: 8, top: 8, bottom: 8 };
