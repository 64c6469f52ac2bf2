/** A table as rows of cells: the header row first. */
export type CsvRows = (string | number)[][];

/**
 * RFC 4180 text: cells with a comma, quote or line break are quoted, quotes doubled;
 * CRLF line ends, which spreadsheet programs expect. Cells starting with = + - @ are
 * prefixed with a quote so a spreadsheet never runs them as formulas (OWASP CSV
 * injection); negative numbers are numbers, not text, and stay as they are.
 */
export function toCsv(rows: CsvRows): string {
  return rows.map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}

function cell(value: string | number): string {
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
