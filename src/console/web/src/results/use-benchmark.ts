import { useEffect, useState } from "preact/hooks";
import { getAssessment, getDefaultWindowProgramCount, getLimitAdequacy, getRpm } from "../api/benchmark-api";
import type { ApiClient } from "../api/client";
import { ApiProblem } from "../api/problem";
import type { Answer, Assessment, LimitAdequacy, Rpm } from "../api/types";
import { isDefaultWindow, missingInputs, serializePeerGroup, type PeerGroup } from "../state/peer-group";

export interface Fetched<T> {
  loading: boolean;
  /** The last answer; kept while the next one loads so the page does not flicker. */
  answer: Answer<T> | null;
  problem: ApiProblem | null;
}

export interface BenchmarkResults {
  assessment: Fetched<Assessment>;
  rpm: Fetched<Rpm>;
  adequacy: Fetched<LimitAdequacy>;
  /** Programs in the default 24-month window, which limit adequacy always uses (SEMANTICS.md 2). */
  adequacyPrograms: Fetched<number>;
}

const idle = <T>(): Fetched<T> => ({ loading: false, answer: null, problem: null });
const IDLE: BenchmarkResults = { assessment: idle(), rpm: idle(), adequacy: idle(), adequacyPrograms: idle() };

/** Wait this long after the last change before asking: typing a range is one request, not ten. */
const DEBOUNCE_MS = 250;

/**
 * Every figure of the peer group, each request on its own so one refused figure (the
 * disclosure rule refuses figure by figure) leaves the others drawn. A newer group
 * aborts the older group's requests.
 */
export function useBenchmark(api: ApiClient, group: PeerGroup): BenchmarkResults {
  const [results, setResults] = useState<BenchmarkResults>(IDLE);
  // The company only prefills the builder; it changes no figure, so it is not part of the key.
  const key = missingInputs(group).length === 0 ? serializePeerGroup({ ...group, companyId: "" }) : null;

  useEffect(() => {
    if (key === null) {
      setResults(IDLE);
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    setResults((r) => ({
      assessment: { ...r.assessment, loading: true },
      rpm: { ...r.rpm, loading: true },
      adequacy: { ...r.adequacy, loading: true },
      adequacyPrograms: { ...r.adequacyPrograms, loading: !isDefaultWindow(group) },
    }));

    const run = <K extends keyof BenchmarkResults>(name: K, request: () => Promise<NonNullable<BenchmarkResults[K]["answer"]>>) => {
      request().then(
        (answer) => {
          if (!signal.aborted) setResults((r) => ({ ...r, [name]: { loading: false, answer, problem: null } }));
        },
        (err: unknown) => {
          if (signal.aborted) return;
          const problem = err instanceof ApiProblem ? err : new ApiProblem(0, "unavailable", `the service could not be reached (${String(err)})`, null, []);
          setResults((r) => ({ ...r, [name]: { loading: false, answer: null, problem } }));
        },
      );
    };

    const timer = window.setTimeout(() => {
      run("assessment", () => getAssessment(api, group, signal));
      run("rpm", () => getRpm(api, group, signal));
      run("adequacy", () => getLimitAdequacy(api, group, signal));
      // In the default window the assessment's own count is the same number; no second request.
      if (!isDefaultWindow(group)) run("adequacyPrograms", () => getDefaultWindowProgramCount(api, group, signal));
      else setResults((r) => ({ ...r, adequacyPrograms: idle() }));
    }, DEBOUNCE_MS);

    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
    // `key` stands for the group: the effect reruns exactly when a figure's inputs change.
  }, [api, key]);

  return results;
}
