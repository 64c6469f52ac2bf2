// Every REST route (read from the route table, as the transcoder reads it) fed random,
// oversized (bodies up to the 1 MiB limit; now and then a target over Node's 16 KiB)
// and deeply nested inputs, GET and POST forms, with a real token, against both peer
// engines. Every answer must be a 2xx or a 4xx, within a second, showing no internal
// error. Run on the code before issue 14 it found each case of the issue (503s, a
// 500, 2 s and 55 s answers, "Maximum call stack size exceeded"). FUZZ_SEED and
// FUZZ_REQUESTS reproduce or lengthen a run.
import t from "tap";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";
import { readHttpRoutes, type HttpRoute } from "../../src/transcoding/http-routes.js";
import { FIXTURE_AS_OF, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { createTestDatabase } from "../helpers/database.js";
import { createHostileInputs } from "../helpers/hostile-inputs.js";
import { startPeerIndex } from "../helpers/peer-index.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";

const SEED = process.env.FUZZ_SEED ?? "rest-fuzz-1";
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 240);
const BODY_LIMIT = 1024 * 1024;
/** Node's default limit on a request's headers (its target included) is 16 KiB; beyond it, 431. */
const TARGET_CHARS = 12 * 1024;
const ANSWER_WITHIN_MS = 1_000;
/** What an answer must never show: a stack overflow, a stack trace, a bug's own words. */
const INTERNAL_TEXT = /maximum call stack|internal error|\n\s+at |\b(?:Range|Type|Reference|Syntax)Error\b|\.ts:\d+/i;
const ROUTES = readHttpRoutes(
  [AssessmentService, CompanyService, LossDetailsService, MarketTrendService].flatMap((service) => service.methods),
);
const PATH_VALUES = ["1", "2", "7", "1001", "0", "-1", "x", "1e3", "5.0", "9".repeat(40), "%zz", "%20", "😀"];

/** A path the route's template matches: literals in any case, variables from PATH_VALUES. */
function pathOf(route: HttpRoute, random: SeededRandom): string {
  const segments = route.template.segments.map((segment) => {
    if (segment.kind === "variable") return encodeURIComponent(random.pick(PATH_VALUES)).replace("%25zz", "%zz");
    return random.chance(0.2) ? segment.text.toUpperCase() : segment.text;
  });
  return `/${segments.join("/")}${random.chance(0.1) ? "/" : ""}`;
}

t.test(`every REST route survives hostile input (FUZZ_SEED=${SEED})`, async (t) => {
  const { knex, url } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const peerIndex = await startPeerIndex(t, knex, url);
  const servers = [
    await startAuthenticatedServer(t, knex, { asOf: FIXTURE_AS_OF }),
    await startAuthenticatedServer(t, knex, { asOf: FIXTURE_AS_OF, peerIndex }),
  ];
  const random = createSeededRandom(SEED);
  const inputs = createHostileInputs(random);
  const statuses = new Map<number, number>();
  let slowest = { ms: 0, what: "" };

  for (let i = 0; i < REQUESTS; i++) {
    const route = random.pick(ROUTES);
    const { server, authorization } = random.pick(servers);
    const schema = route.method.input;
    let target = pathOf(route, random);
    let body: string | undefined;
    if (route.body === "*") {
      body = inputs.body(schema, random.chance(0.5) ? random.int(BODY_LIMIT) : random.int(2000));
    } else {
      // Percent-encoding may triple the text; now and then a target over the limit.
      const chars = random.chance(0.05) ? 4 * TARGET_CHARS : random.int((TARGET_CHARS - target.length) / 3);
      const query = new URLSearchParams(inputs.queryPairs(schema, chars)).toString();
      target = `${target}?${query}`;
    }
    const what = `#${i} ${route.httpMethod} ${target.slice(0, 200)}${body === undefined ? "" : ` body ${body.length} chars: ${body.slice(0, 120)}`}`;
    const started = performance.now();
    const res = await fetch(`${server.url}${target}`, { method: route.httpMethod, body, headers: { authorization } });
    const text = await res.text();
    const ms = performance.now() - started;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (ms > slowest.ms) slowest = { ms, what };
    if (!(res.status < 300 || (res.status >= 400 && res.status < 500)))
      t.fail(`${res.status} for ${what}: ${text.slice(0, 300)}`);
    if (ms > ANSWER_WITHIN_MS) t.fail(`${ms.toFixed(0)} ms for ${what}`);
    if (INTERNAL_TEXT.test(text)) t.fail(`internal text for ${what}: ${text.slice(0, 300)}`);
    if (res.status >= 400 && res.status !== 431)
      t.equal(res.headers.get("content-type"), "application/problem+json", what, { diagnostic: false });
  }
  t.comment(
    `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; slowest ${slowest.ms.toFixed(0)} ms: ${slowest.what.slice(0, 160)}`,
  );
  t.ok(statuses.has(200) && statuses.has(400), "both answers and refusals seen");
});
