import { useEffect, useState } from "preact/hooks";
import { ApiProblem } from "../api/problem.js";
import type { Answer } from "../api/types.js";

export interface KeyedAnswer<T> {
  /** A request for the current key is under way (or about to be). */
  loading: boolean;
  /** The last answer; kept while the next one loads so the page does not flicker. */
  answer: Answer<T> | null;
  problem: ApiProblem | null;
}

/** Wait this long after the last change before asking, as the figures do. */
const DEBOUNCE_MS = 250;

/**
 * One request that follows `key` (null: nothing to ask): a new key aborts the old request.
 * For the answers beside the figures (the trend, the suggestions), which change on their
 * own inputs and must not hold up, or be held up by, the figures' requests.
 */
export function useAnswer<T>(key: string | null, request: (signal: AbortSignal) => Promise<Answer<T>>): KeyedAnswer<T> {
  const [state, setState] = useState<{
    key: string | null;
    answer: Answer<T> | null;
    problem: ApiProblem | null;
    settled: boolean;
  }>({
    key: null,
    answer: null,
    problem: null,
    settled: true,
  });

  useEffect(() => {
    if (key === null) {
      setState({ key, answer: null, problem: null, settled: true });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ ...s, key, settled: false }));
    const timer = window.setTimeout(() => {
      request(controller.signal).then(
        (answer) => {
          if (!controller.signal.aborted) setState({ key, answer, problem: null, settled: true });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          const problem =
            err instanceof ApiProblem ? err : new ApiProblem(0, `the service could not be reached (${String(err)})`);
          setState({ key, answer: null, problem, settled: true });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
    // `key` stands for the request's inputs.
  }, [key]);

  return {
    loading: key !== null && (state.key !== key || !state.settled),
    answer: state.answer,
    problem: state.problem,
  };
}
