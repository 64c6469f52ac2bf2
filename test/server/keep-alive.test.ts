import type { ServerResponse } from "node:http";
import { connect } from "node:net";
import t from "tap";
import { MAX_RETRY_AFTER_SECONDS } from "../../src/load-control/admission-gate.js";
import { startHttpServer, TIMEOUTS } from "../../src/server/http-server.js";

/**
 * A caller refused with Retry-After waits as told, then sends again on its keep-alive
 * connection. Node closes an idle HTTP/1.1 connection after 5 s (and a 1 s margin): a
 * retry sent at 6 s met the close and ended in a connection error, never an answer. The
 * server keeps idle connections longer than any Retry-After it gives.
 */

const REQUEST = "GET /x HTTP/1.1\r\nHost: x\r\n\r\n";

/** Sends a request, waits `idleMs`, sends another on the same connection: how many were answered. */
function answersAfterIdle(port: number, idleMs: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(REQUEST));
    let answers = 0;
    socket.on("data", (data: Buffer) => {
      answers += data.toString("latin1").split("HTTP/1.1 503").length - 1;
      if (answers === 1) setTimeout(() => socket.writable && socket.write(REQUEST), idleMs);
      if (answers === 2) socket.end();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(answers));
  });
}

const refuse = (_req: unknown, res: ServerResponse) => {
  res.writeHead(503, { "retry-after": "6", "content-length": "0" });
  res.end();
};

t.test("a retry after Retry-After seconds finds its keep-alive connection open", async (t) => {
  t.ok(TIMEOUTS.keepAliveMs > (MAX_RETRY_AFTER_SECONDS + 5) * 1000, "idle connections outlive any Retry-After");
  const server = await startHttpServer(refuse as never, { port: 0, host: "127.0.0.1" });
  t.teardown(() => server.close(100));
  t.equal(await answersAfterIdle(server.port, 6_500), 2, "told 6 s, retried after 6.5 s: answered");
});

t.test("an idle connection still closes once its time is up", async (t) => {
  const server = await startHttpServer(refuse as never, { port: 0, host: "127.0.0.1", timeouts: { keepAliveMs: 300 } });
  t.teardown(() => server.close(100));
  t.equal(await answersAfterIdle(server.port, 100), 2, "within its time: answered");
  t.equal(await answersAfterIdle(server.port, 2_500), 1, "long after: closed");
});
