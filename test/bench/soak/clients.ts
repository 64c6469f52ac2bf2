import path from "node:path";
import { closeChild, forkChild } from "../peer/child-process.js";
import type { ClientWindow, OperationFigures } from "./latency-recorder.js";
import type { MixSettings } from "./request-mix.js";

export type ToClients =
  | { type: "start"; baseUrl: string; token: string; concurrency: number; mix: MixSettings }
  | { type: "window" }
  | { type: "stop" };
export type FromClients =
  | { type: "started" }
  | { type: "window"; window: ClientWindow }
  | { type: "stopped"; window: ClientWindow; run: Record<string, OperationFigures> };

export interface SoakClients {
  /** Closes the current report period and returns what the clients saw in it. */
  window(): Promise<ClientWindow>;
  /** Stops sending (requests in flight finish): the last period and the whole run's figures. */
  stop(): Promise<{ window: ClientWindow; run: Record<string, OperationFigures> }>;
  /** Why the clients' process is gone, when it is. */
  exited(): string | undefined;
  close(): Promise<void>;
}

/**
 * Starts the soak's clients in their own process (clients-child.ts). The peer classes
 * carry bigint amounts, so the channel uses structured clone ("advanced"), not JSON.
 */
export async function startClients(options: {
  baseUrl: string;
  token: string;
  concurrency: number;
  mix: MixSettings;
}): Promise<SoakClients> {
  const child = forkChild(path.join(import.meta.dirname, "clients-child.ts"), "advanced");
  let exitReason: string | undefined;
  const waiting: { type: FromClients["type"]; resolve: (m: FromClients) => void; reject: (e: Error) => void }[] = [];
  child.on("message", (message: FromClients) => {
    const index = waiting.findIndex((w) => w.type === message.type);
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(message);
  });
  child.once("exit", (code, signal) => {
    exitReason = `the clients' process exited (${signal ?? `status ${code}`})`;
    for (const w of waiting.splice(0)) w.reject(new Error(exitReason));
  });
  const ask = <T extends FromClients["type"]>(request: ToClients, type: T) =>
    new Promise<Extract<FromClients, { type: T }>>((resolve, reject) => {
      if (exitReason) return reject(new Error(exitReason));
      waiting.push({ type, resolve: (m) => resolve(m as Extract<FromClients, { type: T }>), reject });
      child.send(request);
    });
  await ask({ type: "start", ...options }, "started");
  return {
    window: async () => (await ask({ type: "window" }, "window")).window,
    stop: async () => {
      const { window, run } = await ask({ type: "stop" }, "stopped");
      return { window, run };
    },
    exited: () => exitReason,
    close: () => closeChild(child),
  };
}
