import { useRef, useState } from "preact/hooks";
import { getCompany } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import { ApiProblem, type FieldProblem } from "../api/problem.js";
import type { CompanySummary, ReferenceData } from "../api/types.js";
import { unknownIds } from "../reference/unknown-ids.js";
import { EXPOSURE_TYPES, type ExposureType, type PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";
import { AmountField } from "./amount-field.js";
import { prefillFromCompany } from "./company-prefill.js";
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
  companyName: string;
  /** The inputs the API refused for this group (a 400's field problems). */
  refused: readonly FieldProblem[];
}

/**
 * The peer-group builder (issue 16, item 3): every input of spec 2.1 and 2.2, plus the
 * client's amounts. It edits the URL through `update`; it holds no state of its own
 * beyond what is being typed.
 */
export function PeerGroupBuilder({ api, group, update, reference, companyName, refused }: PeerGroupBuilderProps) {
  const [companyError, setCompanyError] = useState("");
  const [companyRequests] = useState(createLatestOnly);
  // The group and reference data as they are when an answer arrives, not as they were when the company was picked.
  const current = useRef({ group, reference });
  current.current = { group, reference };
  const chooseCompany = (summary: CompanySummary) => {
    setCompanyError("");
    const isLatest = companyRequests.begin();
    // The search rows lack NAICS and exposure; the company record has them (SEMANTICS.md 10).
    getCompany(api, summary.id).then(
      ({ data }) => {
        if (isLatest()) update(prefillFromCompany(data, current.current.group, current.current.reference));
      },
      (err: unknown) => {
        if (!isLatest()) return;
        // The group keeps the company, but nothing was filled in: say so rather than leave the last company's inputs looking like this one's.
        setCompanyError(`${summary.companyName}'s details could not be read (${err instanceof ApiProblem ? err.detail : String(err)}), so nothing was filled in: set the group by hand, or choose the company again.`);
        update({ companyId: String(summary.id) });
      },
    );
  };

  const exposureUnit = group.exposureType === "Employees" ? "count" : "dollars";
  return (
    <form class="builder no-print" aria-label="Peer group" onSubmit={(e) => e.preventDefault()}>
      <h2 class="builder-title">Peer group</h2>
      <GroupProblems refused={refused} unknown={unknownIds(group, reference)} />
      <CompanySearch api={api} selectedName={companyName} onChoose={chooseCompany} />
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
          <select id="exposure-type" value={group.exposureType} onChange={(e) => update({ exposureType: e.currentTarget.value as ExposureType })}>
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
            onCommit={(v) => update({ exposureRangeLow: v })}
          />
          <AmountField
            id="exposure-high"
            label="To"
            unit={exposureUnit}
            value={group.exposureRangeHigh}
            required
            onCommit={(v) => update({ exposureRangeHigh: v })}
          />
        </div>
      </fieldset>
      <OrganizationTypesField group={group} update={update} reference={reference} />
      <WindowField group={group} update={update} />
      <fieldset class="field-group">
        <legend>The client's program</legend>
        <p class="hint">These place the client among its peers; they do not change the group.</p>
        <AmountField id="client-limit" label="Limit" value={group.limit} onCommit={(v) => update({ limit: v })} />
        <AmountField id="client-premium" label="Premium" value={group.premium} onCommit={(v) => update({ premium: v })} />
        <AmountField id="client-retention" label="Retention" value={group.retention} onCommit={(v) => update({ retention: v })} />
      </fieldset>
    </form>
  );
}
