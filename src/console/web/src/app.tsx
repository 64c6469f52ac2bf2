import { useMemo } from "preact/hooks";
import type { Auth } from "./auth/auth.js";
import { AuthStatus } from "./auth/auth-status.js";
import { useSession } from "./auth/use-session.js";
import { createApiClient } from "./api/client.js";
import { PeerGroupBuilder } from "./builder/peer-group-builder.js";
import { useReferenceData } from "./builder/use-reference-data.js";
import type { ConsoleConfig } from "./config.js";
import { PrintButton } from "./export/print-button.js";
import { BenchmarkResultsView, needsWidening } from "./results/benchmark-results.js";
import { suggestionMinPrograms, useSuggestions } from "./refusal/use-suggestions.js";
import { useTrend } from "./results/use-trend.js";
import { useLossExperience } from "./results/use-loss-experience.js";
import { refusedFields } from "./results/refused-fields.js";
import { useBenchmark } from "./results/use-benchmark.js";
import { reportContext } from "./export/report-context.js";
import { useReportHead } from "./export/report-head.js";
import { withheldFigures } from "./results/withheld-figures.js";
import { absentInputs, invalidInputs } from "./state/peer-group.js";
import { clientName, useCompanyLookup } from "./state/use-company-lookup.js";
import { usePeerGroup } from "./state/use-peer-group.js";

interface AppProps {
  config: ConsoleConfig;
  auth: Auth;
  /** The page is on its way to the provider (no session at start-up): no button to press. */
  signingIn: boolean;
  /** Why the sign-in the provider just sent the browser back from failed, if it did. */
  signInFailure: string | null;
}

/** The page: a header with the session, and once signed in, the builder beside the figures. */
export function App({ config, auth, signingIn, signInFailure }: AppProps) {
  const session = useSession(auth);
  return (
    <>
      <header class="top">
        <h1>Commercial Policy Benchmark</h1>
        <AuthStatus auth={auth} session={session} signingIn={signingIn} />
      </header>
      {session ? (
        <Console config={config} auth={auth} />
      ) : (
        <main class="signed-out">
          {signingIn ? (
            <p>Signing you in at the identity provider…</p>
          ) : signInFailure ? (
            <p class="figure-error" role="alert" data-testid="sign-in-error">
              The sign-in did not complete: {signInFailure}. Sign in again to come back to this page.
            </p>
          ) : (
            <p>Sign in to benchmark a client's insurance program against its peers.</p>
          )}
        </main>
      )}
    </>
  );
}

function Console({ config, auth }: { config: ConsoleConfig; auth: Auth }) {
  const api = useMemo(() => createApiClient(config.apiBase, auth), [config.apiBase, auth]);
  const [group, update] = usePeerGroup();
  const reference = useReferenceData(api);
  const company = useCompanyLookup(api, group.companyId);
  const results = useBenchmark(api, group);
  const absent = absentInputs(group);
  const invalid = invalidInputs(group);
  const refused = refusedFields([
    results.assessment.problem,
    results.rpm.problem,
    results.adequacy.problem,
    results.adequacyPrograms.problem,
  ]);
  const withholding = withheldFigures(results);
  const context = useMemo(
    () =>
      reportContext(
        group,
        reference.data,
        company.state === "found"
          ? {
              name: clientName(company),
              id: company.id,
              naics: String(company.company.naics3 ?? company.company.naics2 ?? "") || null,
            }
          : null,
      ),
    [group, reference.data, company],
  );
  useReportHead(context);
  const empty = results.assessment.answer?.data.totalProgramCount === 0;
  const trend = useTrend(api, group);
  const losses = useLossExperience(api, group);
  // Asked once the figures say the group is empty, thin or refused: never for the previous group's answer.
  const suggestions = useSuggestions(
    api,
    group,
    !results.busy && needsWidening(results, withholding.refusals.length, config.thinGroupPrograms),
    config.thinGroupPrograms,
  );

  return (
    <div class="layout">
      <PeerGroupBuilder
        api={api}
        group={group}
        update={update}
        reference={reference.data}
        company={company}
        refused={refused}
      />
      <main class="main" aria-label="Benchmark">
        <div class="toolbar no-print">
          {/* Printing while figures load would print the previous group's figures under this one's name; a page of refusals or of nothing is no report. */}
          <PrintButton
            disabled={
              absent.length + invalid.length > 0 ||
              results.busy ||
              trend.loading ||
              losses.loading ||
              withholding.all ||
              empty
            }
          />
        </div>
        {reference.failed ? (
          <p class="note no-print">
            The reference data could not be read: type coverage and line-of-business ids instead.
          </p>
        ) : null}
        {absent.length > 0 ? (
          <section class="incomplete" aria-labelledby="incomplete-title" data-testid="incomplete-group">
            <h2 id="incomplete-title">Build a peer group</h2>
            <p>
              {context.client
                ? `Complete ${context.client}'s peer group by hand:`
                : "Search for the client's company to start, or set the group by hand:"}
            </p>
            <ul>
              {absent.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </section>
        ) : invalid.length > 0 ? (
          // The fields themselves are marked; this says why nothing is shown, without starting over.
          <section class="incomplete" aria-labelledby="invalid-title" data-testid="invalid-group" role="alert">
            <h2 id="invalid-title">Correct the marked fields</h2>
            <ul>
              {invalid.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </section>
        ) : (
          <BenchmarkResultsView
            group={group}
            results={results}
            withholding={withholding}
            reference={reference.data}
            context={context}
            thinGroupPrograms={config.thinGroupPrograms}
            trend={trend}
            losses={losses}
            suggestions={suggestions}
            suggestionMinPrograms={suggestionMinPrograms(config.thinGroupPrograms)}
            update={update}
          />
        )}
      </main>
    </div>
  );
}
