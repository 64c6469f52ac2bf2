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
  t.match(
    page.headers.get("content-security-policy"),
    /default-src 'none'.*style-src 'sha256-/,
    "a strict policy: only its own style",
  );
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
    if (
      !request.url().startsWith(server.url) &&
      !request.url().startsWith("data:") &&
      !request.url().startsWith("blob:")
    )
      elsewhere.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(`${server.url}/docs`);
  await page.getByText("getassessmentdata", { exact: false }).first().waitFor({ timeout: 30_000 });
  const text = await page.locator("body").innerText();
  for (const group of ["AssessmentService", "CompanyService", "LossDetailsService"])
    t.match(text, group, `${group}'s group listed`);
  for (const path of [
    "/assessment/getrpmdistributiondata",
    "/assessment/getTotalProgramCount",
    "/assessment/getTotalLossCount",
  ])
    t.match(text, path, `${path} listed`);
  t.same(elsewhere, [], "no CDN, no fonts, no telemetry");
  t.same(
    problems.filter((p) => /Content Security Policy|Refused/.test(p)),
    [],
    "nothing the policy blocks",
  );
});

t.test(
  '/docs as shipped: "Try it" defaults to the bearer scheme, a pasted token answers 200, nothing leaves the origin, no sideways scroll',
  async (t) => {
    const { knex } = await createTestDatabase(t);
    // With the provider named in /openapi.json, as `cpb serve` runs: the openId scheme is
    // documented too, and was the page's default (issue 28), whose flows cannot work here.
    const { server, authorization } = await startAuthenticatedServer(t, knex);
    const browser = await startBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const elsewhere: string[] = [];
    const failed: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(server.url) && !url.startsWith("data:") && !url.startsWith("blob:")) elsewhere.push(url);
    });
    page.on("response", (response) => {
      if (response.status() === 404) failed.push(response.url());
    });
    await page.goto(`${server.url}/docs`);
    await page.getByText("CompanyService").first().waitFor({ timeout: 30_000 });
    t.equal(await page.getByText("Generate MCP").count(), 0, "no MCP generation (it calls Scalar's services)");
    t.equal(await page.getByText(/^(VS Code|Cursor)$/).count(), 0, "no editor buttons");
    t.equal(await page.getByRole("button", { name: /open api client/i }).count(), 0, "no client app button");

    // The longest paths' operations, where the page used to scroll sideways at 1280 px.
    const overflow = async () =>
      (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
    await page.getByText("LossDetailsService").first().click();
    await page
      .getByText(/Limit adequacy.*\(GET, getlimitadequacydata\)/)
      .first()
      .click();
    await page.waitForTimeout(500);
    t.equal(await overflow(), 0, "no horizontal overflow on the limit-adequacy GET");

    await page.getByText("CompanyService").first().click();
    await page.getByText("Company search", { exact: false }).first().click();
    await page
      .getByRole("button", { name: /test request.*get \/commercialpolicybenchmark\/v2\.0\/company\)/i })
      .first()
      .click();
    t.match(
      await page
        .getByText(/Selected Auth Type/)
        .first()
        .innerText(),
      /bearerToken/,
      "the bearer scheme is preselected",
    );
    t.equal(await overflow(), 0, "no horizontal overflow with the Test Request panel open");
    await page
      .getByRole("dialog", { name: "API Client" })
      .getByPlaceholder("Token")
      .fill(authorization.slice("Bearer ".length));
    const answered = page.waitForResponse((response) => response.url().includes("/v2.0/company"));
    await page.getByRole("button", { name: /^Send get request/ }).click();
    const response = await answered;
    t.equal(response.request().headers().authorization, authorization, "the pasted token, as a bearer token");
    t.equal(response.status(), 200, "a company search answered, from the page as shipped");
    t.match(JSON.parse(await response.text()), { totalCount: 0, data: [] });
    t.same(elsewhere, [], "no request left the origin");
    t.same(failed, [], "no 404 (the favicon is served)");
  },
);

t.test("the favicon: an SVG, also at /favicon.ico", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  for (const path of ["/favicon.svg", "/favicon.ico"]) {
    const icon = await fetch(`${server.url}${path}`);
    t.equal(icon.status, 200, path);
    t.equal(icon.headers.get("content-type"), "image/svg+xml", path);
    t.match(await icon.text(), /^<svg /, path);
  }
  t.match(
    await (await fetch(`${server.url}/docs`)).text(),
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
  );
});
