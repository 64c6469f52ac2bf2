import type Provider from "oidc-provider";
import type { IncomingMessage, ServerResponse } from "node:http";
import { cspHash } from "../server/pages/page-security.js";
import type { DevUser } from "./identity-provider.js";

/** Where oidc-provider sends a browser that must sign in (its `interactions.url`), under the issuer. */
export const INTERACTION_PATH = "/interaction";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0}input{display:block;width:100%;box-sizing:border-box;padding:.4rem;font:inherit}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit;cursor:pointer}.note{color:#57606a;font-size:.9rem}.error{color:#b42318}`;

/**
 * The policy of the provider's own pages: only their inline style (by hash), no script
 * at all, forms posting to the provider, which then redirects to a client's redirect
 * URI (Chromium applies form-action to those redirects too).
 */
export function providerPagePolicy(formTargets: readonly string[]): string {
  return `default-src 'none'; style-src ${cspHash(STYLE)}; form-action 'self' ${formTargets.join(" ")}; base-uri 'none'; frame-ancestors 'none'`;
}

/** The bodies of a login form: small, and url-encoded. */
const MAX_FORM_BYTES = 16 * 1024;

interface InteractionOptions {
  issuer: string;
  users: readonly DevUser[];
  formTargets: readonly string[];
}

/**
 * The provider's interactions (the oidc-provider API: interactionDetails,
 * interactionFinished, Grant). `GET /interaction/UID` shows the login form when the
 * prompt is `login`; its POST checks the user and finishes the login. The `consent`
 * prompt that follows is granted at once, for the scopes and resources asked for:
 * every client of this provider is first-party.
 */
export async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse, options: InteractionOptions): Promise<void> {
  const policy = providerPagePolicy(options.formTargets);
  try {
    const [, uid = "", action] = /^\/interaction\/([^/?]+)(?:\/([^/?]+))?/.exec(req.url ?? "") ?? [];
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return page(res, 400, policy, "Sign in", "<p>This sign-in page is out of date: start again from the application.</p>");
    const loginAction = `${new URL(options.issuer).pathname.replace(/\/$/, "")}${INTERACTION_PATH}/${uid}/login`;

    if (details.prompt.name === "login") {
      if (req.method === "POST" && action === "login") {
        const form = new URLSearchParams(await readBody(req));
        const user = options.users.find((u) => u.username === form.get("username"));
        if (!user || user.password !== form.get("password")) {
          return page(res, 401, policy, "Sign in", loginForm(loginAction, form.get("username") ?? "", "Unknown user or wrong password."));
        }
        return await provider.interactionFinished(req, res, { login: { accountId: user.username } }, { mergeWithLastSubmission: false });
      }
      const hint = typeof details.params.login_hint === "string" ? details.params.login_hint : "";
      return page(res, 200, policy, "Sign in", loginForm(loginAction, hint));
    }

    if (details.prompt.name === "consent") {
      // As oidc-provider's own example grants it, without asking.
      const promptDetails = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      if (!grant) return page(res, 400, policy, "Sign in", "<p>The grant of this sign-in has expired: start again from the application.</p>");
      if (promptDetails.missingOIDCScope) grant.addOIDCScope(promptDetails.missingOIDCScope.join(" "));
      if (promptDetails.missingOIDCClaims) grant.addOIDCClaims(promptDetails.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(promptDetails.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
      const grantId = await grant.save();
      return await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
    }
    return page(res, 400, policy, "Sign in", `<p>This provider cannot answer the prompt ${escapeHtml(details.prompt.name)}.</p>`);
  } catch (error) {
    if (res.headersSent) return void res.destroy();
    // An expired or unknown interaction (SessionNotFound): the browser came back too late.
    const message = error instanceof Error ? error.message : String(error);
    return page(res, 400, policy, "Sign in", `<p>This sign-in cannot go on (${escapeHtml(message)}): start again from the application.</p>`);
  }
}

function loginForm(action: string, username: string, error?: string): string {
  return `<p class="note">The development provider of <code>cpb dev</code>: its banner prints the demo user and password.</p>
<form method="post" action="${escapeHtml(action)}" autocomplete="off">
<label>Username <input name="username" autocomplete="username" required autofocus value="${escapeHtml(username)}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n` : ""}<button type="submit">Sign in</button>
</form>`;
}

/** oidc-provider's RP-initiated logout asks before it signs out; `form` is its hidden form (`op.logoutForm`). */
export function signOutPage(form: string): string {
  return document("Sign out", `${form}
<p>Sign out of the development provider?</p>
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`);
}

/** After a sign-out with no (or no valid) post_logout_redirect_uri. */
export function signedOutPage(): string {
  return document("Signed out", "<p>You are signed out of the development provider.</p>");
}

function page(res: ServerResponse, status: number, policy: string, title: string, body: string): void {
  const html = Buffer.from(document(title, body));
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": html.length,
    "cache-control": "no-store",
    "content-security-policy": policy,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  res.end(html);
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: Commercial Policy Benchmark (dev)</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new Error("the form is too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
