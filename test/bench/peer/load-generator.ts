import { closeChild, forkChild } from "./child-process.js";

/** One load to generate: a single request repeated by `connections` keep-alive connections. */
export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** How long; a run started with `start` goes on until stopped (or this passes). */
  durationSeconds: number;
  /** Requests a second over all connections, when fixed (warm-cpu.ts); else as fast as answered. */
  overallRate?: number;
}

export interface LoadResult {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export type ToLoadChild = { type: "run"; id: number; spec: LoadSpec } | { type: "stop"; id: number };
export type FromLoadChild =
  | { type: "started"; id: number }
  | { type: "result"; id: number; result: LoadResult }
  | { type: "failed"; id: number; message: string };

export interface RunningLoad {
  /** Ends the run now and returns what it measured. */
  stop(): Promise<LoadResult>;
}

export interface LoadGenerator {
  run(spec: LoadSpec): Promise<LoadResult>;
  /** Starts a run and resolves once its connections are being opened. */
  start(spec: LoadSpec): Promise<RunningLoad>;
  close(): Promise<void>;
}

/**
 * autocannon in a child process of its own (CONVENTIONS.md: the load generator is
 * another process), kept for the whole bench and driven over IPC, one run at a time.
 */
export async function startLoadGenerator(): Promise<LoadGenerator> {
  const child = forkChild("load-generator-child.ts");
  let nextId = 0;
  const waiting = new Map<string, { resolve: (m: FromLoadChild) => void; reject: (e: Error) => void }>();
  child.on("message", (message: FromLoadChild) => {
    const key = `${message.type === "started" ? "started" : "done"}:${message.id}`;
    waiting.get(key)?.resolve(message);
    waiting.delete(key);
  });
  child.once("exit", (code) => {
    for (const w of waiting.values()) w.reject(new Error(`the load generator exited (${code})`));
    waiting.clear();
  });
  const expect = (kind: "started" | "done", id: number) =>
    new Promise<FromLoadChild>((resolve, reject) => waiting.set(`${kind}:${id}`, { resolve, reject }));
  const send = (message: ToLoadChild) => child.send(message);
  const resultOf = async (done: Promise<FromLoadChild>): Promise<LoadResult> => {
    const message = await done;
    if (message.type === "result") return message.result;
    throw new Error(message.type === "failed" ? `autocannon: ${message.message}` : "unexpected message");
  };

  return {
    run(spec) {
      const id = ++nextId;
      const done = expect("done", id);
      send({ type: "run", id, spec });
      return resultOf(done);
    },
    async start(spec) {
      const id = ++nextId;
      const started = expect("started", id);
      const done = expect("done", id);
      send({ type: "run", id, spec });
      await started;
      return {
        stop() {
          send({ type: "stop", id });
          return resultOf(done);
        },
      };
    },
    close: () => closeChild(child),
  };
}
