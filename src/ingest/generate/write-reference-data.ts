import path from "node:path";
import { COVERAGES } from "./coverages.js";
import { csvField } from "./csv-text.js";
import { writeCsvFile } from "./write-csv-file.js";

/** Writes coverages.csv and lines_of_business.csv; returns their row counts. */
export async function writeReferenceData(dir: string): Promise<Record<string, number>> {
  const coverages = await writeCsvFile(
    path.join(dir, "coverages.csv"),
    ["coverage_id", "name"],
    COVERAGES.map((coverage) => `${coverage.id},${csvField(coverage.name)}`),
  );
  const lines = await writeCsvFile(
    path.join(dir, "lines_of_business.csv"),
    ["line_of_business_id", "coverage_id", "name"],
    COVERAGES.flatMap((coverage) => coverage.lines.map((line) => `${line.id},${coverage.id},${csvField(line.name)}`)),
  );
  return { "coverages.csv": coverages, "lines_of_business.csv": lines };
}
