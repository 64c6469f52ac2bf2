import t, { type Test } from "tap";
import { connect, createServer, type Server, type Socket } from "node:net";
import { newConnectionsSignal } from "../../src/server/new-connections.js";
import { afterArrivals, deferTurnsWhile, inTurn } from "../../src/load-control/turns.js";

const TURN_MS = 20;

/** A turn that keeps the event loop TURN_MS, as a computation over a broad peer group does. */
const busyTurn = () =>
  inTurn(() => {
    const until = performance.now() + TURN_MS;
    while (performance.now() < until);
  });

async function listening(t: Test): Promise<{ server: Server; port: number; accepted: () => number }> {
  let accepted = 0;
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    accepted++;
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { server, port: (server.address() as { port: number }).port, accepted: () => accepted };
}

async function acceptMsOfBurst(t: Test, connections: number, deferring: boolean): Promise<number> {
  const { server, port, accepted } = await listening(t);
  const stop = deferring ? deferTurnsWhile(newConnectionsSignal(server)) : () => {};
  const work = Array.from({ length: 60 }, busyTurn); // 1.2 s of turns, one per loop iteration
  await new Promise((resolve) => setTimeout(resolve, 2 * TURN_MS));
  const started = performance.now();
  const clients = Array.from({ length: connections }, () => connect(port, "127.0.0.1"));
  t.teardown(() => clients.forEach((c) => c.destroy()));
  while (accepted() < connections) await new Promise((resolve) => setImmediate(resolve));
  const ms = performance.now() - started;
  await Promise.all(work);
  stop();
  return ms;
}

t.test("a burst of connections is accepted before the turns go on", async (t) => {
  // libuv accepts one connection per loop iteration: behind turns of 20 ms, 30
  // connections wait ~600 ms; turns that yield to them let them in at once.
  const without = await acceptMsOfBurst(t, 30, false);
  const deferring = await acceptMsOfBurst(t, 30, true);
  t.ok(without > 20 * TURN_MS, `without deferring: ${Math.round(without)} ms (one accept per turn)`);
  t.ok(deferring < without / 4, `deferring: ${Math.round(deferring)} ms`);
});

t.test("a steady stream of connections cannot starve the turns", async (t) => {
  // As if every iteration of the loop accepted a connection.
  const stop = deferTurnsWhile(() => true);
  t.teardown(stop);
  const started = performance.now();
  await Promise.all([busyTurn(), busyTurn(), busyTurn()]);
  const ms = performance.now() - started;
  t.ok(ms >= 3 * 150, `each turn waited for connections first (${Math.round(ms)} ms for three)`);
  t.ok(ms < 3 * 400, "but at most about 200 ms each");
});

t.test("held calls read their requests once arrivals pause, a few per iteration, before any turn", async (t) => {
  let arriving = true;
  const stop = deferTurnsWhile(() => arriving);
  t.teardown(stop);
  // One count per loop iteration, to tell in which iteration each intake ran.
  let iteration = 0;
  let counting = true;
  const count = () => {
    iteration++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  const order: string[] = [];
  const ranIn: number[] = [];
  const turn = inTurn(() => void order.push("turn"));
  const intakes = Array.from({ length: 20 }, () =>
    afterArrivals().then(() => {
      order.push("intake");
      ranIn.push(iteration);
    }),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  t.same(order, [], "nothing while requests keep arriving");
  arriving = false;
  await Promise.all([turn, ...intakes]);
  counting = false;
  t.same(order, [...Array<string>(20).fill("intake"), "turn"], "every held call's intake before the turn");
  const perIteration = [...new Set(ranIn)].map((at) => ranIn.filter((i) => i === at).length);
  t.ok(Math.max(...perIteration) <= 8, `at most 8 in one iteration: ${perIteration.join(", ")}`);
});

t.test("a steady stream of arrivals cannot hold a held call's intake for long", async (t) => {
  const stop = deferTurnsWhile(() => true);
  t.teardown(stop);
  const started = performance.now();
  await afterArrivals();
  const ms = performance.now() - started;
  t.ok(ms >= 150 && ms < 400, `read after ${Math.round(ms)} ms, about 200`);
});

t.test("under a steady stream of arrivals, held calls' intakes do not take the turns' pauses", async (t) => {
  // As if every iteration read a request (callers that resend at once): turns get one
  // iteration every ~200 ms, and intakes run within the pause they find.
  const stop = deferTurnsWhile(() => true);
  t.teardown(stop);
  const started = performance.now();
  const intakes = Array.from({ length: 16 }, () => afterArrivals());
  await Promise.all([...intakes, busyTurn(), busyTurn(), busyTurn()]);
  const ms = performance.now() - started;
  // Three pauses: the first for the 16 intakes and a turn. Had the intakes taken pauses
  // of their own (8 each), the turns would have waited two more: 1,000 ms.
  t.ok(ms < 850, `16 intakes and three turns in ${Math.round(ms)} ms: three pauses at most`);
});
