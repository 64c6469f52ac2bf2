import { useEffect, useState } from "preact/hooks";
import { getReferenceData } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import type { ReferenceData } from "../api/types.js";

export interface ReferenceState {
  data: ReferenceData | null;
  /** Set when the reference data cannot be read: the builder falls back to typed ids and codes. */
  failed: boolean;
}

/** The pickers' choices, read once per page (they change only with an import). */
export function useReferenceData(api: ApiClient): ReferenceState {
  const [state, setState] = useState<ReferenceState>({ data: null, failed: false });
  useEffect(() => {
    const controller = new AbortController();
    getReferenceData(api, controller.signal).then(
      (answer) => setState({ data: answer.data, failed: false }),
      () => {
        if (!controller.signal.aborted) setState({ data: null, failed: true });
      },
    );
    return () => controller.abort();
  }, [api]);
  return state;
}
