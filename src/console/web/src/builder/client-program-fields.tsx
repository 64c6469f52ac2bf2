import type { ReferenceData } from "../api/types.js";
import { coverageName } from "../reference/reference-names.js";
import { NO_CLIENT_AMOUNTS, type PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";
import { AmountField } from "./amount-field.js";

interface ClientProgramFieldsProps {
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
  /** What happened to the amounts with the last change of client, in words ("" for nothing). */
  notice: string;
}

/**
 * The client's limit, premium and retention: they place the client, never filter. They
 * belong to one client and one coverage (issue 27): a coverage changed since they were
 * entered is said here, with the choice to keep them for the new coverage or clear them.
 */
export function ClientProgramFields({ group, update, reference, notice }: ClientProgramFieldsProps) {
  const stale = group.amountsCoverageId !== "" && group.amountsCoverageId !== group.coverageId;
  return (
    <fieldset class="field-group">
      <legend>The client's program</legend>
      <p class="hint">These place the client among its peers; they do not change the group.</p>
      {notice ? (
        <p class="hint notice" role="status" data-testid="client-amounts-notice">
          {notice}
        </p>
      ) : null}
      {stale ? (
        <div class="stale-amounts" role="alert" data-testid="amounts-coverage-warning">
          <p>
            These amounts were entered for {coverageName(reference, group.amountsCoverageId)}, not{" "}
            {coverageName(reference, group.coverageId)}.
          </p>
          <div class="button-row">
            <button type="button" class="button" onClick={() => update({ amountsCoverageId: "" })}>
              Keep them for {coverageName(reference, group.coverageId)}
            </button>
            <button type="button" class="button" onClick={() => update({ ...NO_CLIENT_AMOUNTS })}>
              Clear them
            </button>
          </div>
        </div>
      ) : null}
      <AmountField id="client-limit" label="Limit" value={group.limit} onCommit={(v) => update({ limit: v })} />
      <AmountField id="client-premium" label="Premium" value={group.premium} onCommit={(v) => update({ premium: v })} />
      <AmountField
        id="client-retention"
        label="Retention"
        value={group.retention}
        onCommit={(v) => update({ retention: v })}
      />
    </fieldset>
  );
}
