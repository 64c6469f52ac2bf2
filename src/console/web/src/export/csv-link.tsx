import { useEffect, useMemo } from "preact/hooks";
import { toCsv, type CsvRows } from "./csv.js";

interface CsvLinkProps {
  /** e.g. limit-distribution.csv */
  filename: string;
  rows: CsvRows;
  testId: string;
  label?: string;
}

/**
 * "Download CSV" as a plain link to a Blob: the browser saves it under `filename`, it
 * works from the keyboard like any link, and nothing is sent to a server.
 */
export function CsvLink({ filename, rows, testId, label = "Download CSV" }: CsvLinkProps) {
  // A byte order mark first: without it Excel on Windows reads UTF-8 as its ANSI code
  // page, and a client named "Bäcker" comes out as "BÃ¤cker" (issue 50).
  const url = useMemo(
    () => URL.createObjectURL(new Blob(["\uFEFF", toCsv(rows)], { type: "text/csv;charset=utf-8" })),
    [rows],
  );
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <a class="csv-link no-print" href={url} download={filename} data-testid={testId}>
      {label} <span class="visually-hidden">({filename})</span>
    </a>
  );
}
