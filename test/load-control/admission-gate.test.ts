import t from "tap";
import {
  createAdmissionGate,
  GateRefusal,
  MAX_RETRY_AFTER_SECONDS,
  type AdmissionGate,
  type GatePlace,
} from "../../src/load-control/admission-gate.js";

const never = new AbortController().signal;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test("the queue holds its bound while a released turn is being handed on", async (t) => {
  const gate = createAdmissionGate({ concurrency: 1, maxQueue: 2, maxWaitMs: 60_000 });
  const release = await gate.enter(never);
  const waiting = [gate.enter(never), gate.enter(never)];
  release(); // the next waiter is admitted on a later turn of the event loop
  t.equal(gate.stats().running, 0, "no turn runs until the hand-on");
  t.ok(gate.full() instanceof GateRefusal, "full: two already wait for the free turn");
  const arrival = await gate.enter(never).catch((error: unknown) => error);
  t.ok(arrival instanceof GateRefusal, "an arrival now is refused, not queued a third");
  t.equal(gate.stats().queued, 2);
  for (const next of waiting) (await next)();
  t.same(gate.stats().running, 0);
});

t.test("the wait is foreseen from how often turns end, not from how long each lasts", async (t) => {
  // Each turn holds the gate 5 ms, but the loop is then kept 50 ms by other work (as a
  // flood of refusals or computations outside the gate keeps it), so turns end ~55 ms apart.
  const gate = createAdmissionGate({ concurrency: 1, maxQueue: 100, maxWaitMs: 500 });
  const job = async () => {
    const release = await gate.enter(never);
    await sleep(5);
    release();
    const blockedUntil = performance.now() + 50;
    while (performance.now() < blockedUntil);
  };
  await Promise.all(Array.from({ length: 8 }, job));
  const { serviceMs, turnEveryMs } = gate.stats();
  t.ok(serviceMs < turnEveryMs / 2, `a turn lasts ${serviceMs} ms`);
  t.ok(turnEveryMs > 40, `turns end every ${turnEveryMs} ms`);

  // At 5 ms a turn, 500 ms of wait would be ~100 in the queue; at ~50 ms, ~10.
  const busy = await gate.enter(never);
  const queued: Promise<() => void>[] = [];
  while (!gate.full()) queued.push(gate.enter(never));
  t.ok(queued.length >= 5 && queued.length <= 15, `${queued.length} queued within a 500 ms wait`);
  busy();
  for (const next of queued) (await next)();
});

t.test("Retry-After is the foreseen wait, up to a cap inside the connections' idle time", async (t) => {
  const gate = createAdmissionGate({ concurrency: 1, maxQueue: 200, maxWaitMs: 600_000 });
  // One turn of a second: the running average of a turn's length moves to 200 ms.
  const first = await gate.enter(never);
  await sleep(1_000);
  first();
  const busy = await gate.enter(never);
  const queued = [gate.enter(never)];
  t.equal(gate.full(), undefined, "one waiting: not full");
  t.equal(gate.stats().queued, 1);
  while (queued.length < 200) queued.push(gate.enter(never));
  // 200 waiting: some 40 s foreseen, said as the cap.
  t.equal(gate.full()?.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS, `capped at ${MAX_RETRY_AFTER_SECONDS} s`);
  busy();
  for (const next of queued) (await next)();
});

t.test("places are held in arrival order, before their holders read their requests", async (t) => {
  const gate = createAdmissionGate({ concurrency: 1, maxQueue: 2, maxWaitMs: 60_000 });
  const [first, second, third] = [placeAt(gate), placeAt(gate), placeAt(gate)];
  t.ok(gate.hold() instanceof GateRefusal, "a fourth arrival is refused: one runs, two wait");
  t.ok(gate.busy(), "busy while no turn is free");
  t.same([first.admitted, second.admitted, third.admitted], [true, false, false], "the first runs at once");
  t.match(gate.stats(), { running: 1, queued: 2 });

  // The third takes its turn before the second asks for its own: turns still go in order.
  const order: string[] = [];
  const thirdTurn = third.turn(never).then((release) => (order.push("third"), release));
  const secondTurn = second.turn(never).then((release) => (order.push("second"), release));
  (await first.turn(never))();
  (await secondTurn)();
  (await thirdTurn)();
  t.same(order, ["second", "third"]);
  t.same(gate.stats().running, 0);
  t.notOk(gate.busy(), "not busy once every turn is back");
});

t.test("a place given up frees its room: queued, admitted but not taken, or waited for", async (t) => {
  const gate = createAdmissionGate({ concurrency: 1, maxQueue: 2, maxWaitMs: 60_000 });
  const [running, queued] = [placeAt(gate), placeAt(gate)];
  queued.leave(); // its request failed before its turn (a bad body, say)
  t.equal(gate.stats().queued, 0, "a queued place given up leaves the queue");

  const next = placeAt(gate);
  running.leave(); // admitted, never taken: the turn goes back to the gate
  t.equal(gate.stats().running, 0);
  await new Promise((resolve) => setImmediate(resolve)); // the hand-on
  t.ok(next.admitted, "the turn given back goes to the next in the queue");
  const release = await next.turn(never);
  next.leave();
  t.equal(gate.stats().running, 1, "giving up a place whose turn was taken changes nothing");
  release();

  const busy = await gate.enter(never);
  const waiting = placeAt(gate);
  const caller = new AbortController();
  const turn = waiting.turn(caller.signal);
  caller.abort(new Error("the caller went away"));
  await t.rejects(turn, { message: "the caller went away" });
  t.equal(gate.stats().queued, 0, "a caller gone while it waited gives its place up");
  busy();
  t.equal(gate.stats().running, 0);
});

t.test("a turn given back unused says nothing of how long turns take", async (t) => {
  const gate = createAdmissionGate({ concurrency: 1, maxQueue: 2, maxWaitMs: 60_000 });
  const release = await gate.enter(never);
  await sleep(50);
  release();
  const { serviceMs } = gate.stats();
  t.ok(serviceMs >= 9, `one turn of 50 ms: ${serviceMs} ms on average`);
  // Calls that end before taking their turn (answered from the answer cache, a bad body).
  for (let i = 0; i < 10; i++) placeAt(gate).leave();
  t.equal(gate.stats().serviceMs, serviceMs, "ten turns given back at once leave the average as it was");
  t.equal(gate.stats().running, 0);
});

/** A place held below the gate's bound: a refusal there is a failure. */
function placeAt(gate: AdmissionGate): GatePlace {
  const place = gate.hold();
  if (place instanceof GateRefusal) throw new Error("refused below the bound");
  return place;
}
