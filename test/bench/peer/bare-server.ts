import { closeChild, forkChild } from "./child-process.js";

/** The bytes a bare server answers every request with. */
export interface CannedAnswer {
  status: number;
  contentType: string;
  /** The body, base64 (IPC carries JSON). */
  bodyBase64: string;
}

export type ToBareServer = { type: "serve"; answer: CannedAnswer };
export type FromBareServer = { type: "listening"; port: number } | { type: "serving" };

export interface BareServer {
  url: string;
  /** Its process, whose CPU time warm-cpu.ts reads. */
  pid: number;
  /** From now on every request gets this answer. */
  serve(answer: CannedAnswer): Promise<void>;
  close(): Promise<void>;
}

/**
 * A bare `node:http` server in its own process, answering every request with the same
 * status, content type and body as the real server's answer: the ceiling the warm
 * throughput is compared with (CONVENTIONS.md, Performance measurement).
 */
export async function startBareServer(): Promise<BareServer> {
  const child = forkChild("bare-server-child.ts");
  const next = (type: FromBareServer["type"]) =>
    new Promise<FromBareServer>((resolve, reject) => {
      const onMessage = (message: FromBareServer) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(message);
      };
      const onExit = (code: number | null) => reject(new Error(`the bare server exited (${code})`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const listening = await next("listening");
  if (listening.type !== "listening") throw new Error("unexpected message");
  return {
    url: `http://127.0.0.1:${listening.port}`,
    pid: child.pid!,
    async serve(answer) {
      const serving = next("serving");
      child.send({ type: "serve", answer } satisfies ToBareServer);
      await serving;
    },
    close: () => closeChild(child),
  };
}
