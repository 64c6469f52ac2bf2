// The pages a person or a tool reads without a token (issue 15): the front page, the
// OpenAPI document and the interactive reference, the last in a real browser.
import t from "tap";
import { gunzipSync } from "node:zlib";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { startBrowser } from "../helpers/browser.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { rawGet } from "../helpers/raw-get.js";

t.test("the front page: what the service is, and links to the rest", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const page = await fetch(`${server.url}/`);
  t.equal(page.status, 200);
  t.match(page.headers.get("content-type"), /^text\/html/);
  t.match(page.headers.get("content-security-policy"), /default-src 'none'.*style-src 'sha256-/, "a strict policy: only its own style");
  const html = await page.text();
  for (const link of ["/docs", "/openapi.json", "/healthz", "/readyz"]) t.match(html, `href="${link}"`, link);

  const again = await fetch(`${server.url}/`, { headers: { "if-none-match": page.headers.get("etag")! } });
  t.equal(again.status, 304, "a browser that has it gets a 304");
  const head = await fetch(`${server.url}/`, { method: "HEAD" });
  t.equal(head.status, 200);
  t.equal(await head.text(), "");
});

t.test("the reference's script: compressed once, revalidated by ETag", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const plain = await fetch(`${server.url}/docs/scalar.js`, { headers: { "accept-encoding": "identity" } });
  const bytes = Buffer.from(await plain.arrayBuffer());
  t.ok(bytes.length > 1_000_000, "Scalar's standalone bundle, from node_modules");
  const zipped = await rawGet(`${server.url}/docs/scalar.js`, { "accept-encoding": "gzip" });
  t.equal(zipped.headers["content-encoding"], "gzip");
  const compressed = zipped.body;
  t.ok(compressed.length < bytes.length / 2);
  t.ok(gunzipSync(compressed).equals(bytes), "the same file");
});

t.test("/docs renders in a real browser, every request staying on this origin", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const browser = await startBrowser(t);
  const page = await browser.newPage();
  const elsewhere: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(server.url) && !request.url().startsWith("data:") && !request.url().startsWith("blob:")) elsewhere.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(`${server.url}/docs`);
  await page.getByText("getassessmentdata", { exact: false }).first().waitFor({ timeout: 30_000 });
  const text = await page.locator("body").innerText();
  for (const group of ["AssessmentService", "CompanyService", "LossDetailsService"]) t.match(text, group, `${group}'s group listed`);
  for (const path of ["/assessment/getrpmdistributiondata", "/assessment/getTotalProgramCount", "/assessment/getTotalLossCount"]) t.match(text, path, `${path} listed`);
  t.same(elsewhere, [], "no CDN, no fonts, no telemetry");
  t.same(problems.filter((p) => /Content Security Policy|Refused/.test(p)), [], "nothing the policy blocks");
});

t.test('/docs: "Try it" with a pasted token reaches the API, past authentication', async (t) => {
  const { knex } = await createTestDatabase(t);
  const { server, authorization } = await startAuthenticatedServer(t, knex);
  const browser = await startBrowser(t);
  const page = await browser.newPage();
  await page.goto(`${server.url}/docs`);
  await page.getByRole("button", { name: /test request/i }).first().click();
  await page.getByPlaceholder("Token").fill(authorization.slice("Bearer ".length));
  const answered = page.waitForResponse((response) => response.url().includes("/v2.0/assessment/getassessmentdata"));
  await page.getByRole("button", { name: /^Send get request/ }).click();
  const response = await answered;
  t.equal(response.request().headers().authorization, authorization, "the pasted token, as a bearer token");
  t.equal(response.status(), 400, "authenticated: the empty request's inputs are what is wrong, not the token");
  t.match(JSON.parse(await response.text()), { code: "invalid_argument", errors: [{ field: "naics", message: "is required" }] });
});
