import t from "tap";
import http2 from "node:http2";
import { connect } from "node:net";
import { pino } from "pino";
import { createApp } from "../../src/server/create-app.js";
import { startHttpServer } from "../../src/server/http-server.js";
import { createTestDatabase } from "../helpers/database.js";
import { anonymousAuthenticator } from "../helpers/server.js";

// CONVENTIONS.md: headers must arrive within 60 s and a whole request within 5 min, on
// HTTP/1.1 and HTTP/2 alike; here both limits are shortened so the test runs in seconds.
const timeouts = { headersMs: 300, requestMs: 600 };

t.test("slow clients lose their connection or stream, on HTTP/1.1 and HTTP/2", async (t) => {
  const { knex } = await createTestDatabase(t);
  const app = createApp({ knex, authenticator: anonymousAuthenticator, log: pino({ level: "silent" }) });
  const server = await startHttpServer(app, { port: 0, host: "127.0.0.1", timeouts });
  t.teardown(() => server.close(100));

  const closedWithin = (send: (socket: ReturnType<typeof connect>) => void) =>
    new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = connect(server.port, "127.0.0.1", () => send(socket));
      socket.on("error", () => {});
      socket.on("close", () => resolve(Date.now() - started));
      socket.resume();
    });
  t.ok(
    (await closedWithin((s) => s.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"))) < 3_000,
    "HTTP/1.1 headers that never end",
  );
  t.ok(
    (await closedWithin((s) => s.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"))) < 3_000,
    "an HTTP/2 preface and then silence",
  );
  t.ok((await closedWithin(() => {})) < 3_000, "a connection that sends nothing");

  const session = http2.connect(server.url);
  t.teardown(() => session.destroy());
  const started = Date.now();
  const stream = session.request({
    ":method": "POST",
    ":path": "/commercialpolicybenchmark/v2.0/assessment/getTotalProgramCount",
  });
  stream.write('{"naics": ');
  stream.on("error", () => {});
  const code = await new Promise<number>((resolve) => stream.on("close", () => resolve(stream.rstCode ?? -1)));
  t.equal(code, http2.constants.NGHTTP2_CANCEL, "an HTTP/2 body that never ends: the stream is cancelled");
  t.ok(Date.now() - started < 3_000, "after the request timeout");

  const healthy = await fetch(`${server.url}/healthz`);
  t.equal(healthy.status, 200, "everyone else is served");
});
