import type { ApiProblem, DisclosureRefusal } from "../api/problem.js";
import type { BenchmarkResults } from "./use-benchmark.js";

/** What each figure would show, said in its panel when the disclosure rule withholds it. */
export const WOULD_SHOW = {
  limit: "the programs per limit band, and the client's band among them.",
  premium: "the programs per premium band, and the client's band among them.",
  retention: "the programs per retention band, and the client's band among them.",
  rpm: "the peers' rate per million (quartiles and maximum), and the client's percentile.",
  adequacy: "the peers' loss cases against the client's limit and the median peer limit.",
} as const;

export type FigureId = keyof typeof WOULD_SHOW;

export interface Withholding {
  /** The figures withheld, each with what it would show. */
  withheld: Partial<Record<FigureId, string>>;
  /** Each broken condition once, whichever figures it withheld. */
  refusals: DisclosureRefusal[];
  /** True when no figure is left: nothing to print. */
  all: boolean;
}

const refusalOf = (problem: ApiProblem | null) => (problem?.isRefusal ? problem.disclosure : null);

/**
 * Which figures the disclosure rule withholds (SEMANTICS.md 12), made consistent (issue 27):
 * the limit distribution and limit adequacy rest on the same limits, so when either is
 * refused both are withheld; the API refuses the assessment whole, so its three
 * distributions go together.
 */
export function withheldFigures(results: BenchmarkResults): Withholding {
  const assessment = refusalOf(results.assessment.problem);
  const rpm = refusalOf(results.rpm.problem);
  const adequacy = refusalOf(results.adequacy.problem) ?? refusalOf(results.adequacyPrograms.problem);
  const withheld: Partial<Record<FigureId, string>> = {};
  if (assessment) {
    withheld.limit = WOULD_SHOW.limit;
    withheld.premium = WOULD_SHOW.premium;
    withheld.retention = WOULD_SHOW.retention;
  }
  if (rpm) withheld.rpm = WOULD_SHOW.rpm;
  if (adequacy) withheld.adequacy = WOULD_SHOW.adequacy;
  if (adequacy && !assessment)
    withheld.limit = `${WOULD_SHOW.limit} It rests on the same limits as limit adequacy, which is withheld.`;
  if (assessment && !adequacy)
    withheld.adequacy = `${WOULD_SHOW.adequacy} It rests on the same limits as the limit distribution, which is withheld.`;
  const refusals: DisclosureRefusal[] = [];
  for (const r of [assessment, rpm, adequacy])
    if (r && !refusals.some((x) => x.condition === r.condition)) refusals.push(r);
  return { withheld, refusals, all: Object.keys(withheld).length === 5 };
}
