// Signing in to the console through the dev provider (issue 16), in a real browser: the
// demo user on the provider's login page, the authorization-code grant with PKCE and an
// RFC 8707 resource, a JWT access token the API accepts as it accepts the
// client-credentials ones, and RP-initiated logout. The provider is mounted on the API's
// port, as `cpb dev` runs it.
import t from "tap";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as oauth from "oauth4webapi";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE, DEV_USER } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import { CLIENT_ID, reachLoginPage, signInAsDemo, startConsoleStack, watchProblems } from "./helpers/console-stack.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A console page without the app: the redirect URI must answer while the flow is driven from the test. */
async function placeholderBundle(t: Teardown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "cpb-console-placeholder-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, "assets"));
  await writeFile(path.join(dir, "index.html"), "<!doctype html><title>console</title><p>signed in</p>\n");
  return dir;
}

t.test(
  "the dev provider: the demo user signs in, the code and PKCE verifier get a token the API accepts, sign-out works",
  async (t) => {
    const { base, issuer, settings } = await startConsoleStack(t, await placeholderBundle(t));
    const redirectUri = `${base}/console/`;
    const as = await oauth.processDiscoveryResponse(
      new URL(issuer),
      await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true }),
    );
    t.match(as, { code_challenge_methods_supported: ["S256"], end_session_endpoint: `${issuer}/session/end` });
    const client: oauth.Client = { client_id: CLIENT_ID };

    // The authorization request as the console sends it.
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: settings.scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      resource: DEV_AUDIENCE,
    }))
      authorize.searchParams.set(name, value);

    const browser = await startBrowser(t);
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const login = page.waitForResponse((response) => response.url().includes("/oidc/interaction/"));
    await page.goto(authorize.href);
    const loginPage = await login;
    t.match(
      loginPage.headers()["content-security-policy"],
      /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self' http:\/\/127\.0\.0\.1:\d+; base-uri 'none'/,
      "a strict policy: no script at all",
    );

    // A wrong password: the form again, saying so.
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel("Username").fill(DEV_USER.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    t.match(await page.getByRole("alert").innerText(), "Unknown user or wrong password");

    await signInAsDemo(page, t);
    await page.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.has("code"));
    t.equal(await page.locator("p").innerText(), "signed in", "back on the console's page");
    const callback = oauth.validateAuthResponse(as, client, new URL(page.url()), state);

    const tokenResponse = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      callback,
      redirectUri,
      verifier,
      {
        [oauth.allowInsecureRequests]: true,
        additionalParameters: { resource: DEV_AUDIENCE },
      },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
    t.match(
      oauth.getValidatedIdTokenClaims(tokens),
      { sub: DEV_USER.username, name: DEV_USER.name, aud: CLIENT_ID },
      "an ID token naming the demo user",
    );
    const accessToken = tokens.access_token;
    const claims = decodeJwt(accessToken);
    t.match(
      claims,
      { iss: issuer, aud: DEV_AUDIENCE, sub: DEV_USER.username, client_id: CLIENT_ID, scope: DEV_SCOPE },
      "a JWT for the API's resource, with its scope",
    );
    const serviceToken = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
    t.same(
      decodeProtectedHeader(accessToken),
      decodeProtectedHeader(serviceToken),
      "signed as the client-credentials tokens are (at+jwt, ES256, the same key)",
    );

    const company = await fetch(`${base}${settings.apiBase}/company/1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    t.equal(company.status, 200, "the API accepts the console's token");
    t.match(await company.json(), { id: 1, companyName: String });
    const withoutCode = await fetch(`${base}${settings.apiBase}/company/1`);
    t.equal(withoutCode.status, 401, "and refuses a call without one");

    // A second authorization request while the provider's session lasts: no login page.
    const again = new URL(authorize);
    const state2 = oauth.generateRandomState();
    again.searchParams.set("state", state2);
    await page.goto(again.href);
    await page.waitForURL((url) => url.href.startsWith(redirectUri) && url.searchParams.get("state") === state2);
    t.ok(
      new URL(page.url()).searchParams.get("code"),
      "signed in silently (consent is granted once, for this first-party client)",
    );

    // RP-initiated logout, as the console's sign-out does it.
    const endSession = new URL(as.end_session_endpoint!);
    endSession.searchParams.set("id_token_hint", tokens.id_token!);
    endSession.searchParams.set("post_logout_redirect_uri", redirectUri);
    endSession.searchParams.set("client_id", CLIENT_ID);
    await page.goto(endSession.href);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(redirectUri);
    t.pass("signed out, back to the console");
    await page.goto(authorize.href);
    await page.waitForURL(/\/oidc\/interaction\//);
    t.pass("the next sign-in asks for the password again");

    t.same(
      problems.filter((p) => /Content Security Policy|Refused/.test(p)),
      [],
      "nothing the policies block",
    );
  },
);

t.test("the dev provider refuses what the console must not get", async (t) => {
  const { base, issuer, settings } = await startConsoleStack(t, await placeholderBundle(t), { requiredScopes: [] });
  const authorize = (params: Record<string, string>) => {
    const url = new URL(`${issuer}/auth`);
    const defaults = {
      client_id: CLIENT_ID,
      redirect_uri: `${base}/console/`,
      response_type: "code",
      scope: settings.scope,
      state: "s",
      resource: DEV_AUDIENCE,
    };
    for (const [name, value] of Object.entries({ ...defaults, ...params })) url.searchParams.set(name, value);
    return fetch(url, { redirect: "manual" });
  };
  const noPkce = await authorize({});
  t.match(
    noPkce.headers.get("location"),
    /error=invalid_request.*requires\+PKCE/,
    "PKCE is required of the public client",
  );
  const plain = await authorize({ code_challenge: "a".repeat(43), code_challenge_method: "plain" });
  t.match(plain.headers.get("location"), /error=invalid_request/, "S256 only");
  const elsewhere = await authorize({
    code_challenge: "a".repeat(43),
    code_challenge_method: "S256",
    redirect_uri: "https://evil.example.com/console/",
  });
  t.equal(elsewhere.status, 400, "an unregistered redirect URI is not redirected to");
  const otherResource = await authorize({
    code_challenge: "a".repeat(43),
    code_challenge_method: "S256",
    resource: "api://other",
  });
  t.match(otherResource.headers.get("location"), /error=invalid_target/, "tokens only for the API");
  const toLogin = await authorize({ code_challenge: "a".repeat(43), code_challenge_method: "S256" });
  t.match(toLogin.headers.get("location"), /\/oidc\/interaction\/[\w-]+$/, "a good request goes to the login page");
  t.equal(
    (await fetch(`${issuer}/interaction/unknown`)).status,
    400,
    "an interaction without its cookie: start again, no 500",
  );
});

t.test(
  "the console app in a real browser: the demo user signs in and the page holds a token the API accepts",
  async (t) => {
    // The bundle npm test built before tap (a no-op when it is up to date).
    const paths = consolePaths();
    await ensureConsoleBuilt(paths);
    const { base, settings } = await startConsoleStack(t, paths.outDir);

    const browser = await startBrowser(t);
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const tokenAnswer = page.waitForResponse(
      (response) => response.url().endsWith("/oidc/token") && response.request().method() === "POST",
      { timeout: 60_000 },
    );
    const consolePage = await page.goto(`${base}/console/`);
    t.equal(
      consolePage?.headers()["content-security-policy"]?.startsWith("default-src 'none'; script-src 'self'"),
      true,
    );
    // The app may go to the provider at once, or offer its button.
    await reachLoginPage(page);
    await signInAsDemo(page, t);
    const tokenRequest = (await tokenAnswer).request();
    const sent = new URLSearchParams(tokenRequest.postData() ?? "");
    t.match(
      Object.fromEntries(sent),
      {
        grant_type: "authorization_code",
        client_id: CLIENT_ID,
        redirect_uri: `${base}/console/`,
        resource: DEV_AUDIENCE,
        code_verifier: /^[\w-]{43,128}$/,
      },
      "the app's token request: PKCE and the resource",
    );
    const { access_token: accessToken } = (await (await tokenAnswer).json()) as { access_token: string };
    await page.waitForURL((url) => url.pathname === "/console/" && !url.searchParams.has("code"), { timeout: 30_000 });
    t.pass("back on the console, the code consumed");

    const answer = await fetch(`${base}${settings.apiBase}/company/1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    t.equal(answer.status, 200, "the API accepts the token the page holds");
    t.same(
      problems.filter((p) => /Content Security Policy|Refused/.test(p)),
      [],
      "nothing the console's policy blocks",
    );
  },
);
