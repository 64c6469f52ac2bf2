import http from "node:http";
import http2 from "node:http2";
import t from "tap";
import { startHttpServer } from "../../src/server/http-server.js";

/**
 * The one port hands each accepted socket to the HTTP/1.1 or HTTP/2 server itself, so
 * node:http's noDelay default never applied: with Nagle's algorithm on, an answer
 * written in two turns waited for the caller's delayed acknowledgement of the first
 * (44 ms a call on loopback, against 0.3 ms).
 */

/** Answers in two writes, a turn of the event loop apart, as a streamed or pieced answer is. */
const inTwoWrites = (req: http.IncomingMessage, res: http.ServerResponse) => {
  req.resume();
  req.on("end", () => {
    res.setHeader("content-length", 10);
    res.write("12345");
    setImmediate(() => res.end("67890"));
  });
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

t.test("an answer written in pieces is not held back by Nagle's algorithm", async (t) => {
  const server = await startHttpServer(inTwoWrites as never, { port: 0, host: "127.0.0.1" });
  t.teardown(() => server.close(100));

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port: server.port, agent }, (res) => res.resume().on("end", resolve))
        .on("error", reject),
    );
    times.push(performance.now() - started);
  }
  t.ok(median(times) < 20, `HTTP/1.1: a call takes ${median(times).toFixed(1)} ms`);

  const session = http2.connect(server.url);
  t.teardown(() => session.close());
  const h2times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const stream = session.request({ ":path": "/" });
      stream.on("error", reject);
      stream.resume().on("end", resolve);
      stream.end();
    });
    h2times.push(performance.now() - started);
  }
  t.ok(median(h2times) < 20, `HTTP/2: a call takes ${median(h2times).toFixed(1)} ms`);
});
