// How the console reads a 503's Retry-After and waits it out (src/console/web/src/api/retry-after.ts).
import t from "tap";
import { retryAfterMs, waitToRetry } from "../../src/console/web/src/api/retry-after.js";

t.test("Retry-After as delay-seconds or an HTTP date, at most 30 s", async (t) => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  t.equal(retryAfterMs("2", now), 2_000);
  t.equal(retryAfterMs(" 0 ", now), 0);
  t.equal(retryAfterMs("Fri, 27 Nov 2026 12:00:05 GMT", now), 5_000, "a date: the time until it");
  t.equal(retryAfterMs("Fri, 27 Nov 2026 11:59:00 GMT", now), 0, "a date gone by: at once");
  t.equal(retryAfterMs("120", now), 30_000, "the server never asks for more than 30 s");
  t.equal(retryAfterMs(null, now), null, "no header: not to be retried");
  t.equal(retryAfterMs("soon", now), null, "unreadable: not to be retried");
  t.equal(retryAfterMs("-1", now), null, "not delay-seconds");
});

t.test("the wait is the asked time plus up to a quarter, and ends early on abort", async (t) => {
  let began = performance.now();
  await waitToRetry(40, undefined, () => 0);
  t.ok(performance.now() - began >= 38, "no less than asked (to the timer's millisecond)");
  began = performance.now();
  await waitToRetry(40, undefined, () => 0.999);
  // 50 ms less a rounding of the timer's millisecond: clearly more than the 40 asked.
  t.ok(performance.now() - began >= 45, "a quarter more at most random");

  const controller = new AbortController();
  const waiting = waitToRetry(10_000, controller.signal);
  controller.abort(new Error("a newer group"));
  await t.rejects(waiting, { message: "a newer group" }, "an abort ends it with the signal's reason");
  await t.rejects(waitToRetry(10, controller.signal), { message: "a newer group" }, "already aborted: at once");
});
