import { startHealthProbe } from "../peer/health-probe.js";
import type { RssSampler } from "../peer/process-rss.js";
import { readReadyz, sleep } from "../peer/readyz.js";
import type { ServerProcess } from "../peer/server-process.js";
import type { SoakClients } from "./clients.js";
import { countError, type ErrorTally } from "./error-tally.js";
import type { ImportSchedule } from "./import-schedule.js";
import type { ClientWindow, OperationFigures } from "./latency-recorder.js";
import { formatWindow, type SoakWindow } from "./report.js";
import type { RssWatch } from "./rss-watch.js";

export interface PeriodsResult {
  windows: SoakWindow[];
  /** Each operation over the whole run. */
  run: Record<string, OperationFigures>;
}

/**
 * The load, period by period, until `loadEnd`: at each period's end the clients' figures,
 * /readyz (event-loop delay, versions), a /healthz probe's latencies and the RSS samples
 * become one report, printed at once; every failure among them goes to `errors`. The
 * last period lasts until an import under way has been served, so the run ends on a
 * whole version. Stops early, as an error, when the server or the clients' process is gone.
 */
export async function runPeriods(options: {
  server: ServerProcess;
  clients: SoakClients;
  imports: ImportSchedule;
  rss: RssSampler;
  rssWatch: RssWatch;
  loadStart: number;
  loadEnd: number;
  periodMs: number;
  errors: ErrorTally;
}): Promise<PeriodsResult> {
  const { server, clients, imports, rss, rssWatch, loadStart, loadEnd, periodMs, errors } = options;
  // Rounded to the ms first: (t + 60000) - t is not always 60000 in floating point.
  const periods = Math.ceil(Math.round(loadEnd - loadStart) / periodMs);
  const windows: SoakWindow[] = [];
  let run: Record<string, OperationFigures> = {};
  for (let number = 1; number <= periods; number++) {
    const from = performance.now();
    const health = startHealthProbe(server.baseUrl);
    const gone = await sleepUntil(
      Math.min(loadStart + number * periodMs, loadEnd),
      () => server.exited() ?? clients.exited(),
    );
    const last = number === periods || gone !== undefined;
    if (last && !gone) await imports.stop();
    const seen = last
      ? await clients.stop().catch(() => ({ window: emptyWindow(), run }))
      : { window: await clients.window(), run };
    run = seen.run;
    const to = performance.now();
    const readyz = await readReadyz(server.baseUrl);
    const healthz = await health.stop();
    const window: SoakWindow = {
      number,
      fromSeconds: (from - loadStart) / 1000,
      toSeconds: (to - loadStart) / 1000,
      clients: seen.window,
      rss: rssWatch.measure(number, from, to, rss.samples(), imports.busyAt),
      eventLoopDelayMs: readyz.eventLoopDelayMs,
      healthz,
      datasetVersion: readyz.datasetVersion,
      peerIndexVersion: readyz.peerIndex?.version ?? null,
      peerIndexBytes: readyz.peerIndex?.bytes ?? null,
      importing: imports.busyDuring(from, to),
    };
    windows.push(window);
    for (const kind of seen.window.failures) countError(errors, kind.what, kind.count);
    if (readyz.status !== 200) countError(errors, `/readyz answered ${readyz.status}: ${readyz.reasons.join("; ")}`);
    if (healthz.failed) countError(errors, "/healthz failed", healthz.failed);
    console.log(formatWindow(window, periods));
    if (gone) {
      countError(errors, gone);
      break;
    }
  }
  return { windows, run };
}

/** What a period shows when the clients' process is gone. */
function emptyWindow(): ClientWindow {
  return { seconds: 0, requests: 0, failed: 0, operations: {}, failures: [] };
}

/** Sleeps until `at` (performance.now()), checking each second that nothing is gone; returns why if something is. */
async function sleepUntil(at: number, goneWhy: () => string | undefined): Promise<string | undefined> {
  for (;;) {
    const why = goneWhy();
    if (why) return why;
    const left = at - performance.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(left, 1_000));
  }
}
