import { getCompany } from "../api/benchmark-api";
import type { ApiClient } from "../api/client";
import type { CompanySummary, ReferenceData } from "../api/types";
import { EXPOSURE_TYPES, type ExposureType, type PeerGroup } from "../state/peer-group";
import type { UpdatePeerGroup } from "../state/use-peer-group";
import { AmountField } from "./amount-field";
import { prefillFromCompany } from "./company-prefill";
import { CompanySearch } from "./company-search";
import { CoverageField } from "./coverage-field";
import { NaicsField } from "./naics-field";
import { OrganizationTypesField } from "./organization-types-field";
import { WindowField } from "./window-field";

interface PeerGroupBuilderProps {
  api: ApiClient;
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
  companyName: string;
}

/**
 * The peer-group builder (issue 16, item 3): every input of spec 2.1 and 2.2, plus the
 * client's amounts. It edits the URL through `update`; it holds no state of its own
 * beyond what is being typed.
 */
export function PeerGroupBuilder({ api, group, update, reference, companyName }: PeerGroupBuilderProps) {
  const chooseCompany = (summary: CompanySummary) => {
    // The search rows lack NAICS and exposure; the company record has them (SEMANTICS.md 10).
    getCompany(api, summary.id).then(
      ({ data }) => update(prefillFromCompany(data, group, reference)),
      () => update({ companyId: String(summary.id) }),
    );
  };

  return (
    <form class="builder no-print" aria-label="Peer group" onSubmit={(e) => e.preventDefault()}>
      <h2 class="builder-title">Peer group</h2>
      <CompanySearch api={api} selectedName={companyName} onChoose={chooseCompany} />
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
            unit={group.exposureType === "Employees" ? "count" : "dollars"}
            value={group.exposureRangeLow}
            required
            onCommit={(v) => update({ exposureRangeLow: v })}
          />
          <AmountField
            id="exposure-high"
            label="To"
            unit={group.exposureType === "Employees" ? "count" : "dollars"}
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
