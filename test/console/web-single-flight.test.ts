// Token renewal shares one flight (src/console/web/src/auth/single-flight.ts): the API
// calls that find the token expired at once must make one refresh, not one each.
import t from "tap";
import { singleFlight } from "../../src/console/web/src/auth/single-flight.js";

t.test("concurrent calls share one run and its answer", async (t) => {
  let runs = 0;
  let finish = (_token: string) => {};
  const renew = singleFlight(() => {
    runs++;
    return new Promise<string>((resolve) => (finish = resolve));
  });
  const calls = [renew(), renew(), renew()];
  finish("token-1");
  t.same(await Promise.all(calls), ["token-1", "token-1", "token-1"]);
  t.equal(runs, 1, "one renewal for three callers");
});

t.test("after it settles, the next call runs again; a failure is shared, then forgotten", async (t) => {
  let runs = 0;
  const renew = singleFlight(async () => {
    runs++;
    if (runs === 1) throw new Error("refused");
    return `token-${runs}`;
  });
  const failed = await Promise.allSettled([renew(), renew()]);
  t.same(
    failed.map((r) => r.status),
    ["rejected", "rejected"],
    "both callers see the failure",
  );
  t.equal(runs, 1);
  t.equal(await renew(), "token-2", "a later call starts a new run");
  t.equal(await renew(), "token-3");
});
