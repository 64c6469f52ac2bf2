import t from "tap";
import { DeadlinePassed, forCaller, stopIfCallerGone } from "../../src/load-control/caller-watch.js";
import { inTurn } from "../../src/load-control/turns.js";

/** Keeps the event loop `ms`, as a computation over a broad peer group does. */
const compute = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
  return ms;
};

t.test("a turn whose caller's deadline passed on the clock is not run", async (t) => {
  // A 5 ms deadline, then 20 ms of another call's turn: the deadline's timer cannot
  // fire in between, but the clock says it passed.
  const caller = { signal: new AbortController().signal, deadline: performance.now() + 5 };
  let ran = false;
  const other = inTurn(() => compute(20));
  const late = forCaller(caller, () => inTurn(() => (ran = true)));
  t.equal(await other, 20);
  await t.rejects(late, DeadlinePassed);
  t.equal(ran, false, "its work was abandoned before it began");
});

t.test("a turn whose caller went away is not run, and says why", async (t) => {
  const abort = new AbortController();
  let ran = false;
  const turn = forCaller({ signal: abort.signal, deadline: undefined }, () => inTurn(() => (ran = true)));
  abort.abort(new Error("the caller went away"));
  await t.rejects(turn, { message: "the caller went away" });
  t.equal(ran, false);
});

t.test("a turn runs as its own caller's, whoever scheduled the loop's turns", async (t) => {
  const first = { signal: new AbortController().signal, deadline: undefined };
  const second = { signal: new AbortController().signal, deadline: performance.now() + 1_000 };
  const seen: unknown[] = [];
  await Promise.all([
    forCaller(first, () => inTurn(() => seen.push(stopIfCallerGone()))),
    forCaller(second, () =>
      inTurn(() => {
        compute(2);
        stopIfCallerGone(); // still within its second
        seen.push("second");
      }),
    ),
  ]);
  t.same(seen, [undefined, "second"]);

  // A safe point inside a computation stops it once its deadline has passed. The 3 ms
  // count from the turn's start: a loaded machine may take longer than that to reach it.
  const short: { signal: AbortSignal; deadline: number | undefined } = {
    signal: new AbortController().signal,
    deadline: undefined,
  };
  let parts = 0;
  await t.rejects(
    forCaller(short, () =>
      inTurn(() => {
        short.deadline = performance.now() + 3;
        for (;;) {
          stopIfCallerGone();
          compute(1);
          parts++;
        }
      }),
    ),
    DeadlinePassed,
  );
  t.ok(parts >= 1 && parts <= 4, `stopped after ${parts} parts of 1 ms`);
});

t.test("work outside any call is never stopped", async (t) => {
  t.equal(await inTurn(() => compute(1)), 1);
  t.doesNotThrow(() => stopIfCallerGone());
});
