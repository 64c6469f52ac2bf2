import { mkdtemp, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import type { Page } from "playwright-core";
import type { Test } from "tap";
import { createJwtAuthenticator } from "../../../src/auth/jwt-authenticator.js";
import type { DisclosureRule } from "../../../src/benchmark/disclosure-rule.js";
import {
  DEV_AUDIENCE,
  DEV_CLIENT,
  DEV_ISSUER_PATH,
  DEV_SCOPE,
  DEV_USER,
  devConsoleClient,
} from "../../../src/dev/dev-identity.js";
import { freePort } from "../../../src/dev/free-port.js";
import { createDevIdentityProvider } from "../../../src/dev/identity-provider.js";
import { generateDataset, type GenerateOptions } from "../../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../../src/ingest/import-dataset.js";
import { createApp } from "../../../src/server/create-app.js";
import { startHttpServer } from "../../../src/server/http-server.js";
import { consoleSettings, createConsoleSite } from "../../../src/pages/console-site.js";
import type { NodeRequest, NodeResponse } from "../../../src/transcoding/node-types.js";
import { createTestDatabase } from "../../helpers/database.js";
import { waitFor } from "../../helpers/peer-index.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

export const CLIENT_ID = "cpb-console";

export interface ConsoleStackOptions {
  /** The generated data set (small by default: the sign-in tests need a company, not peers). */
  data?: GenerateOptions;
  requiredScopes?: string[];
  disclosure?: DisclosureRule;
  /** The date the figures' windows end (default today, as the generator's data does). */
  asOf?: string;
}

/** The API, the dev provider under /oidc and the console on one port, as `cpb dev` serves them. */
export async function startConsoleStack(t: Teardown, distDir: string, options: ConsoleStackOptions = {}) {
  const requiredScopes = options.requiredScopes ?? [DEV_SCOPE];
  const { knex } = await createTestDatabase(t);
  const dataDir = await mkdtemp(path.join(tmpdir(), "cpb-console-data-"));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  await generateDataset(dataDir, options.data ?? { companies: 20, programs: 60, losses: 10, seed: "console" });
  await importDataset(knex, dataDir);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const issuer = `${base}${DEV_ISSUER_PATH}`;
  const provider = await createDevIdentityProvider({
    issuer,
    resources: [{ audience: DEV_AUDIENCE, scopes: [DEV_SCOPE] }],
    clients: [DEV_CLIENT],
    publicClients: [devConsoleClient(base, CLIENT_ID, [DEV_SCOPE])],
    users: [DEV_USER],
  });
  // Errors on stderr, where a CI log shows what answered 500 (the browser only sees the status).
  const log = pino({ level: "error" }, pino.destination(2));
  const authenticator = createJwtAuthenticator({ issuer, audience: DEV_AUDIENCE, requiredScopes, log });
  const settings = consoleSettings({
    issuer,
    audience: DEV_AUDIENCE,
    requiredScopes,
    clientId: CLIENT_ID,
    thinGroupPrograms: 5,
  });
  const app = createApp({
    knex,
    authenticator,
    log,
    ...(options.asOf !== undefined && { asOf: options.asOf }),
    ...(options.disclosure !== undefined && { disclosure: options.disclosure }),
    console: createConsoleSite({ distDir, settings }),
    mounts: [
      {
        prefix: DEV_ISSUER_PATH,
        handle: (req: NodeRequest, res: NodeResponse) =>
          provider.handle(req as IncomingMessage, res as unknown as ServerResponse, DEV_ISSUER_PATH),
      },
    ],
  });
  const server = await startHttpServer(app, { port, host: "127.0.0.1" });
  t.teardown(() => server.close(1_000));
  authenticator.start();
  t.teardown(() => authenticator.stop());
  await waitFor(() => authenticator.ready(), "the signing keys");
  return { base, issuer, settings, knex };
}

/** Everything the page's policy refused, and its errors. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** The provider's login page, filled in as the demo user. */
export async function signInAsDemo(page: Page, t: Pick<Test, "match">): Promise<void> {
  await page.waitForURL(/\/oidc\/interaction\//);
  t.match(page.url(), /^http:\/\/127\.0\.0\.1:\d+\/oidc\/interaction\/[\w-]+(\/login)?$/, "the provider's login page");
  await page.getByLabel("Username").fill(DEV_USER.username);
  await page.getByLabel("Password").fill(DEV_USER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The provider's login page. */
const LOGIN_PAGE = /\/oidc\/interaction\//;

/**
 * From a console page just opened to the provider's login page. Without a session the app
 * goes there by itself (README, Console); after a sign-out it offers its button. The
 * button is found by its test id and pressed only while the page is still the console's:
 * the provider's login page has a "Sign in" button too, which a click by name, still
 * waiting when the page leaves, would press too early (signing in under signInAsDemo).
 */
export async function reachLoginPage(page: Page): Promise<void> {
  const atProvider = page.waitForURL(LOGIN_PAGE, { timeout: 30_000 });
  // Observed now: if the click below throws, this wait's own later failure must not be an unhandled rejection.
  atProvider.catch(() => {});
  const button = page.getByTestId("sign-in");
  await Promise.race([atProvider, button.waitFor({ timeout: 30_000 })]);
  if (!LOGIN_PAGE.test(page.url())) await button.click();
  await atProvider;
}

/** Opens `url` of the console and signs in as the demo user. */
export async function openSignedIn(page: Page, url: string, t: Pick<Test, "match">): Promise<void> {
  await page.goto(url);
  await reachLoginPage(page);
  await signInAsDemo(page, t);
  await page.locator('[data-testid="auth-state"][data-state="signed-in"]').waitFor({ timeout: 30_000 });
}

/** The company with the most programs: its peer group is not empty whichever sector it is in. */
export async function busiestCompany(
  knex: Awaited<ReturnType<typeof startConsoleStack>>["knex"],
): Promise<{ id: string; name: string }> {
  const [row] = (await knex("companies as c")
    .join("programs as p", "p.company_id", "c.company_id")
    .whereNotNull("c.naics2")
    .whereNotNull("c.revenues")
    .groupBy("c.company_id", "c.company_name")
    .orderByRaw("count(*) desc, c.company_id")
    .limit(1)
    .select("c.company_id", "c.company_name")) as { company_id: string; company_name: string }[];
  return { id: row!.company_id, name: row!.company_name };
}

export const CLIENT_PROGRAM = { Limit: "5000000", Premium: "40000", Retention: "250000" } as const;

/** The data set of the tests that build a group around a busy company and read every figure. */
export const E2E_DATA = { companies: 300, programs: 6_000, losses: 600, seed: "console-e2e" };

/** A parameter of the page's URL: the console's state. */
export const urlParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/** The text of the element with a test id. */
export const textOf = (page: Page, testId: string) => page.getByTestId(testId).innerText();

/**
 * As a broker builds a peer group: types the start of the company's name, picks it from
 * the type-ahead (which fills its NAICS, exposure and organization type in), then types
 * the client's limit, premium and retention; waits until every figure has its counts.
 */
export async function buildGroupFromCompany(page: Page, company: { id: string; name: string }): Promise<void> {
  await page.getByTestId("company-search").fill(company.name.slice(0, 4));
  const option = page.locator(`[data-testid="company-option"][data-company-id="${company.id}"]`);
  await option.waitFor({ timeout: 15_000 });
  await option.click();
  await page.waitForURL((url) => url.searchParams.get("companyId") === company.id && url.searchParams.has("naics"), {
    timeout: 15_000,
  });
  for (const [label, amount] of Object.entries(CLIENT_PROGRAM)) {
    await page.getByLabel(label, { exact: true }).fill(amount);
    await page.getByLabel(label, { exact: true }).press("Tab");
    await page.waitForURL((url) => url.searchParams.get(label.toLowerCase()) === amount);
  }
  await waitForFigures(page);
  await page.getByTestId("rpm-percentile").waitFor({ timeout: 30_000 });
}

/**
 * Until every figure has the answer for the group in the URL: the results are aria-busy
 * from the change to the last answer, and the previous group's figures stay drawn meanwhile,
 * so counts showing are not enough.
 */
export async function waitForFigures(page: Page): Promise<void> {
  await page.locator('[data-testid="results"][aria-busy="false"]').waitFor({ timeout: 30_000 });
}
