import { useEffect, useState } from "preact/hooks";
import { getCompany } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import { ApiProblem } from "../api/problem.js";
import type { Company } from "../api/types.js";

/**
 * The group's company, looked up by the id a link carries: its record once found, or why
 * not. An id with no record is an error in place (issue 27), never "Company 99999999" on
 * a report as if it were a client.
 */
export type CompanyLookup =
  | { state: "none" }
  | { state: "loading"; id: string }
  | { state: "found"; id: string; company: Company }
  | { state: "missing"; id: string; message: string }
  | { state: "failed"; id: string; message: string };

/** The client's name for the report: only a company that was found has one. */
export const clientName = (lookup: CompanyLookup) => (lookup.state === "found" ? lookup.company.companyName : "");

export function useCompanyLookup(api: ApiClient, companyId: string): CompanyLookup {
  const [lookup, setLookup] = useState<CompanyLookup>({ state: "none" });
  useEffect(() => {
    if (companyId === "") {
      setLookup({ state: "none" });
      return;
    }
    if (!/^\d+$/.test(companyId)) {
      setLookup({ state: "missing", id: companyId, message: `“${companyId}” is not a company id` });
      return;
    }
    setLookup({ state: "loading", id: companyId });
    const controller = new AbortController();
    getCompany(api, companyId, controller.signal).then(
      ({ data }) => setLookup({ state: "found", id: companyId, company: data }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiProblem && (err.status === 404 || err.status === 400))
          setLookup({ state: "missing", id: companyId, message: `No company has the id ${companyId}` });
        else
          setLookup({
            state: "failed",
            id: companyId,
            message: `Company ${companyId} could not be read (${err instanceof ApiProblem ? err.detail : String(err)})`,
          });
      },
    );
    return () => controller.abort();
  }, [api, companyId]);
  // A lookup for an older id is not this one's, even for the render before the effect runs.
  if (companyId === "") return { state: "none" };
  return lookup.state !== "none" && lookup.id !== companyId ? { state: "loading", id: companyId } : lookup;
}
