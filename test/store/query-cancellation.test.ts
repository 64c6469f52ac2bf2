import t from "tap";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase } from "../helpers/database.js";
import { forCaller } from "../../src/load-control/caller-watch.js";

const QUERY_CANCELED = "57014";

/** A call with no deadline, ended by its signal. */
const calledWith = (signal: AbortSignal) => ({ signal, deadline: undefined });

t.test("a call's query is cancelled with its request, though another call ended while it ran", async (t) => {
  const { knex } = await createTestDatabase(t);
  const first = new AbortController();
  const second = new AbortController();
  let firstEnded!: () => void;
  const firstEnd = new Promise<void>((resolve) => (firstEnded = resolve));
  const calls = [
    forCaller(calledWith(first.signal), async () => {
      await sleep(20);
    }).then(firstEnded),
    forCaller(calledWith(second.signal), async () => {
      await firstEnd;
      // The first call has ended: the second's query must still carry its signal.
      return knex.raw("select pg_sleep(20)");
    }),
  ];
  await firstEnd;
  await sleep(200);
  const started = performance.now();
  second.abort(new Error("the caller went away"));
  const outcome = await Promise.allSettled(calls);
  t.equal(outcome[1]!.status, "rejected");
  t.equal(((outcome[1] as PromiseRejectedResult).reason as { code?: string }).code, QUERY_CANCELED);
  t.ok(performance.now() - started < 10_000, "cancelled, not run to its end");
});

t.test("a query outside every call runs unbound once the calls have ended", async (t) => {
  const { knex } = await createTestDatabase(t);
  const aborted = new AbortController();
  aborted.abort(new Error("gone"));
  await t.rejects(
    forCaller(calledWith(aborted.signal), async () => await knex.raw("select 1")),
    { message: "gone" },
  );
  const { rows } = await knex.raw<{ rows: { one: number }[] }>("select 1 as one");
  t.same(rows, [{ one: 1 }], "not refused by the signal of a call that has ended");
  t.same(
    await forCaller(calledWith(new AbortController().signal), async () => (await knex.raw("select 2 as two")).rows),
    [{ two: 2 }],
  );
});

t.test("a statement whose call's deadline has passed on the clock is not run", async (t) => {
  const { knex } = await createTestDatabase(t);
  // The signal has not fired (its timer would need the event loop): the clock alone says the deadline passed.
  const caller = { signal: new AbortController().signal, deadline: performance.now() - 1 };
  await t.rejects(
    forCaller(caller, async () => await knex.raw("select 1")),
    { message: /the call's deadline passed/ },
  );
});
