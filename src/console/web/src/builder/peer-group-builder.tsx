import { useRef, useState } from "preact/hooks";
import { getCompany } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import { ApiProblem, type FieldProblem } from "../api/problem.js";
import type { CompanySummary, ReferenceData } from "../api/types.js";
import { unknownIds } from "../reference/unknown-ids.js";
import {
  EXPOSURE_TYPES,
  NO_CLIENT_AMOUNTS,
  hasClientAmounts,
  isRangeReversed,
  type ExposureType,
  type PeerGroup,
} from "../state/peer-group.js";
import { clientName, type CompanyLookup } from "../state/use-company-lookup.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";
import { AmountField } from "./amount-field.js";
import { ClientProgramFields, type ClientNotice } from "./client-program-fields.js";
import { exposureOf, prefillFromCompany, rangeAround } from "./company-prefill.js";
import { CompanySearch } from "./company-search.js";
import { CoverageField } from "./coverage-field.js";
import { GroupProblems } from "./group-problems.js";
import { createLatestOnly } from "./latest-only.js";
import { NaicsField } from "./naics-field.js";
import { OrganizationTypesField } from "./organization-types-field.js";
import { WindowField } from "./window-field.js";

interface PeerGroupBuilderProps {
  api: ApiClient;
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
  /** The group's company as looked up from its id. */
  company: CompanyLookup;
  /** The inputs the API refused for this group (a 400's field problems). */
  refused: readonly FieldProblem[];
}

/**
 * The peer-group builder (issue 16, item 3): every input of spec 2.1 and 2.2, plus the
 * client's amounts. It edits the URL through `update`; it holds no state of its own
 * beyond what is being typed. The client is one thing (issue 27): another company, or
 * none, clears the amounts entered for the last one, and says so with its name.
 */
export function PeerGroupBuilder({ api, group, update, reference, company, refused }: PeerGroupBuilderProps) {
  const [companyError, setCompanyError] = useState("");
  const [amountsNotice, setAmountsNotice] = useState<ClientNotice | null>(null);
  const [companyRequests] = useState(createLatestOnly);
  // The group and reference data as they are when an answer arrives, not as they were when the company was picked.
  const current = useRef({ group, reference });
  current.current = { group, reference };
  const selectedName = clientName(company);

  /**
   * The patch that empties the last client's amounts, and the sentence that says whose
   * they were, with the way back: Undo restores the whole group as it was.
   */
  const newClient = (nextId: string): Partial<PeerGroup> => {
    const { group: now } = current.current;
    if (nextId === now.companyId || !hasClientAmounts(now)) return {};
    const whose = selectedName ? `${selectedName}'s` : "the last client's";
    setAmountsNotice({
      text: `Cleared ${whose} limit, premium and retention: enter this client's own.`,
      undo: { label: `Undo: back to ${selectedName || "the last client"}`, group: now },
    });
    return { ...NO_CLIENT_AMOUNTS };
  };

  const chooseCompany = (summary: CompanySummary) => {
    setCompanyError("");
    setAmountsNotice(null);
    const isLatest = companyRequests.begin();
    const id = String(summary.id);
    // The search rows lack NAICS and exposure; the company record has them (SEMANTICS.md 10).
    getCompany(api, summary.id).then(
      ({ data }) => {
        if (isLatest())
          update({ ...newClient(id), ...prefillFromCompany(data, current.current.group, current.current.reference) });
      },
      (err: unknown) => {
        if (!isLatest()) return;
        // The group keeps the company, but nothing was filled in: say so rather than leave the last company's inputs looking like this one's.
        setCompanyError(
          `${summary.companyName}'s details could not be read (${err instanceof ApiProblem ? err.detail : String(err)}), so nothing was filled in: set the group by hand, or choose the company again.`,
        );
        update({ ...newClient(id), companyId: id });
      },
    );
  };

  const clearCompany = () => {
    companyRequests.begin();
    setCompanyError("");
    setAmountsNotice(null);
    update({ ...newClient(""), companyId: "" });
  };

  /**
   * A range typed in revenues is not a head count (issue 27): another exposure type takes
   * the client's own figure of that type when there is one, else an empty range to fill in.
   */
  const changeExposureType = (type: ExposureType) => {
    const value = company.state === "found" ? exposureOf(company.company, type) : null;
    update({
      exposureType: type,
      ...(value !== null ? rangeAround(value) : { exposureRangeLow: "", exposureRangeHigh: "" }),
    });
  };

  const lookupError =
    company.state === "missing" || company.state === "failed"
      ? `${company.message}: the link may be wrong or older than the data. Search for the client again.`
      : "";
  const exposureUnit = group.exposureType === "Employees" ? "count" : "dollars";
  const reversed = isRangeReversed(group) ? "The low end is above the high end." : undefined;
  return (
    <form class="builder no-print" aria-label="Peer group" onSubmit={(e) => e.preventDefault()}>
      <h2 class="builder-title">Peer group</h2>
      <GroupProblems refused={refused} unknown={unknownIds(group, reference)} />
      <CompanySearch
        api={api}
        reference={reference}
        selectedName={selectedName}
        error={lookupError}
        onChoose={chooseCompany}
        onClear={clearCompany}
      />
      {companyError ? (
        <p class="hint error" role="alert" data-testid="company-error">
          {companyError}
        </p>
      ) : null}
      <NaicsField group={group} update={update} reference={reference} />
      <CoverageField group={group} update={update} reference={reference} />
      <fieldset class="field-group">
        <legend>Exposure</legend>
        <div class="field">
          <label for="exposure-type">Exposure type</label>
          <select
            id="exposure-type"
            value={group.exposureType}
            onChange={(e) => changeExposureType(e.currentTarget.value as ExposureType)}
          >
            {EXPOSURE_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="field-row">
          <AmountField
            id="exposure-low"
            label="From"
            unit={exposureUnit}
            value={group.exposureRangeLow}
            required
            error={reversed}
            onCommit={(v) => update({ exposureRangeLow: v })}
          />
          <AmountField
            id="exposure-high"
            label="To"
            unit={exposureUnit}
            value={group.exposureRangeHigh}
            required
            error={reversed}
            onCommit={(v) => update({ exposureRangeHigh: v })}
          />
        </div>
      </fieldset>
      <OrganizationTypesField group={group} update={update} reference={reference} />
      <WindowField group={group} update={update} />
      <ClientProgramFields
        group={group}
        update={update}
        reference={reference}
        notice={amountsNotice}
        onUndo={(previous) => {
          setAmountsNotice(null);
          update(previous);
        }}
      />
    </form>
  );
}
