import t from "tap";
import { createServer, type Server } from "node:net";
import { freePort } from "../../src/dev/free-port.js";

t.test("free ports come from below the ephemeral range, each once, and can be listened on", async (t) => {
  const ports = new Set<number>();
  for (let i = 0; i < 200; i++) {
    const port = await freePort();
    // An outgoing connection's local port is drawn from 32768 up (Linux): such a port
    // could be taken between the pick and the listen.
    t.ok(port >= 20_000 && port < 32_768, `port ${port} is below the ephemeral range`);
    t.notOk(ports.has(port), `port ${port} not handed out before`);
    ports.add(port);
  }
  const last = [...ports].at(-1)!;
  const server = await listen(last);
  t.equal((server.address() as { port: number }).port, last);
  await new Promise((resolve) => server.close(resolve));
});

t.test("a port something listens on is not handed out", async (t) => {
  // 600 ports of the range held (about one in twenty): a pick that did not check would
  // land on one of them within 200 picks but for a chance of about 1 in 10,000.
  const held = new Map<number, Server>();
  while (held.size < 600) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    // A port something else holds already is skipped: it is held all the same.
    const server = held.has(port) ? undefined : await listen(port).catch(() => undefined);
    if (server) held.set(port, server);
  }
  t.teardown(() => held.forEach((server) => server.close()));
  let landed = 0;
  for (let i = 0; i < 200; i++) if (held.has(await freePort())) landed++;
  t.equal(landed, 0, "no pick was a held port");
});

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
