import t from "tap";
import http from "node:http";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";

t.test("closing finishes a request whose body is still arriving, and refuses new connections", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);

  const [head, tail] = [`{"naics": ["52"], `, `"coverageId": 1}`];
  const answer = new Promise<number>((resolve, reject) => {
    const req = http.request(`${server.url}/commercialpolicybenchmark/v2.0/assessment/getTotalProgramCount`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(head.length + tail.length) },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.write(head);
    setTimeout(() => req.end(tail), 300);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closed = server.close(5_000);

  await new Promise((resolve) => setTimeout(resolve, 50));
  const refused = await fetch(`${server.url}/healthz`).then(
    () => "answered",
    () => "refused",
  );
  t.equal(refused, "refused", "no new connections while draining");
  t.equal(await answer, 400, "the request in flight got its answer (a 400: it lacks the exposure range)");
  await closed;
});
