import type { ReferenceData } from "../api/types.js";
import { coverageName } from "../reference/reference-names.js";
import { NO_CLIENT_AMOUNTS, type PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";
import { AmountField } from "./amount-field.js";

interface ClientProgramFieldsProps {
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
  /** What happened to the amounts with the last change of client, or null for nothing. */
  notice: ClientNotice | null;
  onUndo(previous: PeerGroup): void;
}

/** What a change of client did to its amounts, and the group to go back to. */
export interface ClientNotice {
  text: string;
  undo?: { label: string; group: PeerGroup };
}

/**
 * The client's limit, premium and retention: they place the client, never filter. They
 * belong to one client and one coverage (issue 27): a coverage changed since they were
 * entered is said here, with the choice to keep them for the new coverage or clear them.
 */
export function ClientProgramFields({ group, update, reference, notice, onUndo }: ClientProgramFieldsProps) {
  const stale = group.amountsCoverageId !== "" && group.amountsCoverageId !== group.coverageId;
  return (
    <fieldset class="field-group">
      <legend>The client's program</legend>
      <p class="hint">These place the client among its peers; they do not change the group.</p>
      {notice ? (
        <div class="hint notice" role="status">
          <span data-testid="client-amounts-notice">{notice.text}</span>{" "}
          {notice.undo ? (
            <button
              type="button"
              class="button-link"
              data-testid="client-undo"
              onClick={() => {
                onUndo(notice.undo!.group);
                // The button goes with the notice: focus goes to the amounts it brought back, not the page's body.
                document.getElementById("client-limit")?.focus();
              }}
            >
              {notice.undo.label}
            </button>
          ) : null}
        </div>
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
      <AmountField
        id="client-limit"
        label="Limit"
        value={group.limit}
        positive
        onCommit={(v) => update({ limit: v })}
      />
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
