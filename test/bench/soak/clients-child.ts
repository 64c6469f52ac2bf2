/**
 * The soak's clients, in a process of their own (CONVENTIONS.md: the load generator is
 * another process), so neither the harness's work (imports, /proc sampling, reports)
 * nor the server's can starve them. `concurrency` loops, each on its own kept-alive
 * connection, send the request mix without pause; the parent asks for each period's
 * figures. Exits when the parent disconnects.
 */
import { createApiClient, type ApiClient } from "../peer/http-client.js";
import type { FromClients, ToClients } from "./clients.js";
import { createLatencyRecorder } from "./latency-recorder.js";
import { SOAK_OPERATIONS } from "./operations.js";
import { createRequestMix, type MixSettings, type RequestMix } from "./request-mix.js";

const recorder = createLatencyRecorder(SOAK_OPERATIONS.map((o) => o.name));
let running = false;
let loops: Promise<void>[] = [];
let clients: ApiClient[] = [];

const reply = (message: FromClients) => process.send?.(message);

/** What a failed answer is filed under: its status and the start of its body (messages stay distinct, ids do not). */
function failureOf(status: number, body: Buffer): string {
  const text = body
    .toString("utf8")
    .slice(0, 160)
    .replace(/\d{4,}/g, "N");
  return `${status} ${text}`;
}

async function loop(client: ApiClient, mix: RequestMix): Promise<void> {
  while (running) {
    const { operation, call } = mix.next();
    const started = performance.now();
    try {
      const answer = await client.send(call);
      if (answer.status !== 200) recorder.fail(operation, answer.ms, failureOf(answer.status, answer.body));
      else if (!parsesAsJson(answer.body))
        recorder.fail(operation, answer.ms, `200 that is not JSON: ${answer.body.toString("utf8").slice(0, 80)}`);
      else recorder.record(operation, answer.ms);
    } catch (error) {
      recorder.fail(
        operation,
        performance.now() - started,
        `no answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

function parsesAsJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

function start(baseUrl: string, token: string, concurrency: number, settings: MixSettings): void {
  running = true;
  // One mix for all loops: the n-th request overall follows the mix's order.
  const mix = createRequestMix(settings);
  clients = Array.from({ length: concurrency }, () => createApiClient(baseUrl, token));
  loops = clients.map((client) => loop(client, mix));
}

async function stop(): Promise<void> {
  running = false;
  await Promise.all(loops); // each finishes the request it has in flight
  for (const client of clients) client.close();
}

process.on("message", (message: ToClients) => {
  if (message.type === "start") {
    start(message.baseUrl, message.token, message.concurrency, message.mix);
    reply({ type: "started" });
  } else if (message.type === "window") {
    reply({ type: "window", window: recorder.takeWindow() });
  } else {
    void stop().then(() => reply({ type: "stopped", window: recorder.takeWindow(), run: recorder.run() }));
  }
});
process.on("disconnect", () => process.exit(0));
