import { useMemo } from "preact/hooks";
import type { Auth } from "./auth/auth";
import { AuthStatus } from "./auth/auth-status";
import { useSession } from "./auth/use-session";
import { createApiClient } from "./api/client";
import { PeerGroupBuilder } from "./builder/peer-group-builder";
import { useReferenceData } from "./builder/use-reference-data";
import type { ConsoleConfig } from "./config";
import { PrintButton } from "./export/print-button";
import { BenchmarkResultsView } from "./results/benchmark-results";
import { useBenchmark } from "./results/use-benchmark";
import { missingInputs } from "./state/peer-group";
import { useCompanyName } from "./state/use-company-name";
import { usePeerGroup } from "./state/use-peer-group";

/** The page: a header with the session, and once signed in, the builder beside the figures. */
export function App({ config, auth }: { config: ConsoleConfig; auth: Auth }) {
  const session = useSession(auth);
  return (
    <>
      <header class="top">
        <h1>Commercial Policy Benchmark</h1>
        <AuthStatus auth={auth} session={session} />
      </header>
      {session ? (
        <Console config={config} auth={auth} />
      ) : (
        <main class="signed-out">
          <p>Sign in to benchmark a client's insurance program against its peers.</p>
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

  return (
    <div class="layout">
      <PeerGroupBuilder api={api} group={group} update={update} reference={reference.data} companyName={companyName} />
      <main class="main" aria-label="Benchmark">
        <div class="toolbar no-print">
          <PrintButton disabled={missing.length > 0} />
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
