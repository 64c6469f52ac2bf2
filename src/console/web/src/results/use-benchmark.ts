import { useEffect, useState } from "preact/hooks";
import { getAssessment, getDefaultWindowProgramCount, getLimitAdequacy, getRpm } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import { ApiProblem } from "../api/problem.js";
import type { Answer, Assessment, LimitAdequacy, Rpm } from "../api/types.js";
import {
  isDefaultWindow,
  missingInputs,
  serializePeerGroup,
  withoutPanelSettings,
  type PeerGroup,
} from "../state/peer-group.js";

export interface Fetched<T> {
  loading: boolean;
  /** The last answer; kept while the next one loads so the page does not flicker. */
  answer: Answer<T> | null;
  /**
   * The group (with the client's amounts) the answer is for: while a newer group loads,
   * the old answer is drawn with the old group's client marks, never with the new ones.
   */
  group: PeerGroup | null;
  problem: ApiProblem | null;
}

export interface BenchmarkResults {
  assessment: Fetched<Assessment>;
  rpm: Fetched<Rpm>;
  adequacy: Fetched<LimitAdequacy>;
  /** Programs in the default 24-month window, which limit adequacy always uses (SEMANTICS.md 2). */
  adequacyPrograms: Fetched<number>;
  /** True until every figure of the current group has its answer (or its problem). */
  busy: boolean;
}

type Figures = Omit<BenchmarkResults, "busy">;

const idle = <T>(): Fetched<T> => ({ loading: false, answer: null, group: null, problem: null });
const IDLE: Figures = { assessment: idle(), rpm: idle(), adequacy: idle(), adequacyPrograms: idle() };

/** Wait this long after the last change before asking: typing a range is one request, not ten. */
const DEBOUNCE_MS = 250;

/**
 * Every figure of the peer group, each request on its own so one refused figure (the
 * disclosure rule refuses figure by figure) leaves the others drawn. A newer group
 * aborts the older group's requests.
 */
export function useBenchmark(api: ApiClient, group: PeerGroup): BenchmarkResults {
  // `key` is the group the figures were last asked for: busy until it is the current one, so
  // the render between a change and its effect is not taken for a finished one.
  const [state, setState] = useState<{ key: string | null; figures: Figures }>({ key: null, figures: IDLE });
  // The company only prefills the builder, the amounts' coverage note is a note, and the trend and the loss experience have their own requests: none changes these figures.
  const key =
    missingInputs(group).length === 0
      ? serializePeerGroup({ ...withoutPanelSettings(group), companyId: "", amountsCoverageId: "" })
      : null;

  useEffect(() => {
    if (key === null) {
      setState({ key, figures: IDLE });
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    const set = (change: (figures: Figures) => Partial<Figures>) =>
      setState((s) => ({ key, figures: { ...s.figures, ...change(s.figures) } }));
    set((f) => ({
      assessment: { ...f.assessment, loading: true },
      rpm: { ...f.rpm, loading: true },
      adequacy: { ...f.adequacy, loading: true },
      adequacyPrograms: { ...f.adequacyPrograms, loading: !isDefaultWindow(group) },
    }));

    const run = <K extends keyof Figures>(name: K, request: () => Promise<NonNullable<Figures[K]["answer"]>>) => {
      request().then(
        (answer) => {
          if (!signal.aborted) set(() => ({ [name]: { loading: false, answer, group, problem: null } }));
        },
        (err: unknown) => {
          if (signal.aborted) return;
          const problem =
            err instanceof ApiProblem ? err : new ApiProblem(0, `the service could not be reached (${String(err)})`);
          set(() => ({ [name]: { loading: false, answer: null, group, problem } }));
        },
      );
    };

    const timer = window.setTimeout(() => {
      run("assessment", () => getAssessment(api, group, signal));
      run("rpm", () => getRpm(api, group, signal));
      run("adequacy", () => getLimitAdequacy(api, group, signal));
      // In the default window the assessment's own count is the same number; no second request.
      if (!isDefaultWindow(group)) run("adequacyPrograms", () => getDefaultWindowProgramCount(api, group, signal));
      else set(() => ({ adequacyPrograms: idle() }));
    }, DEBOUNCE_MS);

    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
    // `key` stands for the group: the effect reruns exactly when a figure's inputs change.
  }, [api, key]);

  const { figures } = state;
  const loading =
    figures.assessment.loading || figures.rpm.loading || figures.adequacy.loading || figures.adequacyPrograms.loading;
  return { ...figures, busy: key !== null && (state.key !== key || loading) };
}
