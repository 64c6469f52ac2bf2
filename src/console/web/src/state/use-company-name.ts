import { useEffect, useState } from "preact/hooks";
import { getCompany } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";

/** The name of the group's company: a link carries only its id, so the name is looked up. */
export function useCompanyName(api: ApiClient, companyId: string): string {
  const [name, setName] = useState("");
  useEffect(() => {
    if (!/^\d+$/.test(companyId)) {
      setName("");
      return;
    }
    const controller = new AbortController();
    getCompany(api, companyId, controller.signal).then(
      ({ data }) => setName(data.companyName),
      () => {
        if (!controller.signal.aborted) setName(`Company ${companyId}`);
      },
    );
    return () => controller.abort();
  }, [api, companyId]);
  return name;
}
