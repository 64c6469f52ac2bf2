import { useMemo } from "preact/hooks";
import type { Auth } from "./auth/auth.js";
import { AuthStatus } from "./auth/auth-status.js";
import { useSession } from "./auth/use-session.js";
import { createApiClient } from "./api/client.js";
import { PeerGroupBuilder } from "./builder/peer-group-builder.js";
import { useReferenceData } from "./builder/use-reference-data.js";
import type { ConsoleConfig } from "./config.js";
import { PrintButton } from "./export/print-button.js";
import { BenchmarkResultsView } from "./results/benchmark-results.js";
import { refusedFields } from "./results/refused-fields.js";
import { useBenchmark } from "./results/use-benchmark.js";
import { missingInputs } from "./state/peer-group.js";
import { useCompanyName } from "./state/use-company-name.js";
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
  const companyName = useCompanyName(api, group.companyId);
  const results = useBenchmark(api, group);
  const missing = missingInputs(group);
  const refused = refusedFields([results.assessment.problem, results.rpm.problem, results.adequacy.problem, results.adequacyPrograms.problem]);

  return (
    <div class="layout">
      <PeerGroupBuilder api={api} group={group} update={update} reference={reference.data} companyName={companyName} refused={refused} />
      <main class="main" aria-label="Benchmark">
        <div class="toolbar no-print">
          {/* Printing while figures load would print the previous group's figures under this one's name. */}
          <PrintButton disabled={missing.length > 0 || results.busy} />
        </div>
        {reference.failed ? (
          <p class="note no-print">The reference data could not be read: type coverage and line-of-business ids instead.</p>
        ) : null}
        {missing.length > 0 ? (
          <section class="incomplete" aria-labelledby="incomplete-title" data-testid="incomplete-group">
            <h2 id="incomplete-title">Build a peer group</h2>
            <p>Search for the client's company to start, or set the group by hand:</p>
            <ul>
              {missing.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </section>
        ) : (
          <BenchmarkResultsView group={group} results={results} reference={reference.data} companyName={companyName} thinGroupPrograms={config.thinGroupPrograms} />
        )}
      </main>
    </div>
  );
}
