// The database goes away while callers keep calling (issue 14, CONVENTIONS.md: Lifecycle
// and faults). The peer-group figures go on being answered, 200, from the peer index's
// snapshot: it is of the last dataset version the database confirmed, and no import can
// commit while the database is away. Lookups, search and loss details answer 503 with
// Retry-After. Nothing answers 500, and once the database is back the same process
// serves everything again by itself.
import { pino } from "pino";
import t from "tap";
import { createPeerIndex } from "../../src/peer-index/peer-index.js";
import { createDatabase } from "../../src/store/database.js";
import { createDatasetVersionWatcher } from "../../src/store/dataset-version-watcher.js";
import { databaseWithNextImport, EVERY_SECTOR_GROUP } from "../helpers/next-import.js";
import { waitFor } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { proxyDatabase } from "../helpers/tcp-proxy.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";
const PHASE_MS = 2_500;

type Phase = "before" | "away" | "back" | "across";

t.test(
  "database away under load: figures 200 from the snapshot, lookups 503 with Retry-After, never a 500, recovery by itself",
  async (t) => {
    const { knex: setup, url } = await databaseWithNextImport(t, "outage", {
      companies: 300,
      programs: 3_000,
      losses: 300,
      asOf: AS_OF,
    });
    const companyId = String((await setup("companies").min("company_id as id").first())!.id);
    const lossEventId = String((await setup("loss_events").min("loss_event_id as id").first())!.id);
    const { proxy, url: proxied } = await proxyDatabase(t, url);

    const log = pino({ level: "silent" });
    const knex = createDatabase(proxied, { poolMax: 4, queryTimeoutMs: 1_000 });
    t.teardown(() => knex.destroy());
    const peerIndex = createPeerIndex({ connectionString: proxied, log });
    t.teardown(() => peerIndex.stop());
    const watcher = createDatasetVersionWatcher({
      connectionString: proxied,
      log,
      onChange: (version) => peerIndex.datasetChanged(version),
    });
    t.teardown(() => watcher.stop());
    await watcher.start();
    await waitFor(() => peerIndex.ready(), "the first snapshot");
    const server = await startTestServer(t, knex, { asOf: AS_OF, peerIndex, datasetVersion: () => watcher.current() });

    const calls = {
      figures: {
        path: `${P}/assessment/getassessmentdata`,
        body: { ...EVERY_SECTOR_GROUP, limit: 5_000_000, premium: 50_000, retention: 100_000 },
      },
      rpm: {
        path: `${P}/assessment/getrpmdistributiondata`,
        body: { ...EVERY_SECTOR_GROUP, limit: 5_000_000, premium: 50_000 },
      },
      company: { path: `${P}/company/${companyId}` },
      search: { path: `${P}/company?$filter=${encodeURIComponent("startswith(CompanyName, 'a')")}&$top=5` },
      lossDetails: { path: `${P}/lossdetails/${lossEventId}` },
    } as const;
    const seen: { phase: Phase; call: keyof typeof calls; status: number; retryAfter: string | null; body: string }[] =
      [];
    let phase: Exclude<Phase, "across"> = "before";
    let running = true;
    const callers = Object.entries(calls).flatMap(([name, call]) =>
      [1, 2].map(async () => {
        while (running) {
          const at = phase;
          const res = await fetch(
            `${server.url}${call.path}`,
            "body" in call ? { method: "POST", body: JSON.stringify(call.body) } : {},
          );
          const body = await res.text();
          // A call the cut or the return overtook belongs to neither phase.
          seen.push({
            phase: phase === at ? at : "across",
            call: name as keyof typeof calls,
            status: res.status,
            retryAfter: res.headers.get("retry-after"),
            body,
          });
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );

    await new Promise((resolve) => setTimeout(resolve, PHASE_MS));
    await proxy.cut();
    phase = "away";
    await new Promise((resolve) => setTimeout(resolve, PHASE_MS));
    await proxy.restore();
    const restored = Date.now();
    let everyOk = 0;
    while (Date.now() - restored < 10_000 && everyOk === 0) {
      const statuses = await Promise.all(
        Object.values(calls).map((call) =>
          fetch(
            `${server.url}${call.path}`,
            "body" in call ? { method: "POST", body: JSON.stringify(call.body) } : {},
          ).then((r) => r.status),
        ),
      );
      if (statuses.every((status) => status === 200)) everyOk = Date.now() - restored;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    phase = "back";
    await new Promise((resolve) => setTimeout(resolve, PHASE_MS));
    running = false;
    await Promise.all(callers);

    const of = (p: Exclude<Phase, "across">, names: (keyof typeof calls)[]) =>
      seen.filter((s) => s.phase === p && names.includes(s.call));
    const figures: (keyof typeof calls)[] = ["figures", "rpm"];
    const lookups: (keyof typeof calls)[] = ["company", "search", "lossDetails"];
    t.same(
      seen.filter((s) => s.status !== 200 && s.status !== 503),
      [],
      `no answer but 200 or 503 among ${seen.length}`,
    );
    t.ok(
      of("before", [...figures, ...lookups]).every((s) => s.status === 200),
      "all 200 before",
    );
    const awayFigures = of("away", figures);
    t.ok(
      awayFigures.length > 10 && awayFigures.every((s) => s.status === 200),
      `${awayFigures.length} peer-group answers while away, every one 200 from the snapshot`,
    );
    const beforeAnswer = of("before", ["figures"])[0]!.body;
    t.ok(
      of("away", ["figures"]).every((s) => s.body === beforeAnswer),
      "the same figures as before the outage",
    );
    const awayLookups = of("away", lookups).filter((s) => s.status === 503);
    t.ok(awayLookups.length > 5, `${awayLookups.length} lookups answered 503 while away`);
    t.ok(
      awayLookups.every((s) => s.retryAfter !== null),
      "each with Retry-After",
    );
    t.ok(everyOk > 0, `every call 200 again ${everyOk} ms after the database came back, same process`);
    t.ok(
      of("back", [...figures, ...lookups]).every((s) => s.status === 200),
      "all 200 after",
    );
    t.equal((await fetch(`${server.url}/readyz`)).status, 200, "ready again");
  },
);
