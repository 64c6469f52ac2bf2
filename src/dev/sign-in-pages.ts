// The HTML of the dev provider's own pages (login, sign-out, signed out) and the policy
// they are served with; when the provider shows them is provider-interactions.ts's.
import type { ServerResponse } from "node:http";
import { cspHash } from "../pages/page-security.js";

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

/** The login form, posting to `action`; `error` says why the last try failed. */
export function loginForm(action: string, username: string, error?: string): string {
  return `<p class="note">The development provider of <code>cpb dev</code>: its banner prints the demo user and password.</p>
<form method="post" action="${escapeHtml(action)}" autocomplete="off">
<label>Username <input name="username" autocomplete="username" required autofocus value="${escapeHtml(username)}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n` : ""}<button type="submit">Sign in</button>
</form>`;
}

/** A paragraph of plain text, escaped. */
export function notice(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}

/** oidc-provider's RP-initiated logout asks before it signs out; `form` is its hidden form (`op.logoutForm`). */
export function signOutPage(form: string): string {
  return document(
    "Sign out",
    `${form}
<p>Sign out of the development provider?</p>
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button>`,
  );
}

/** After a sign-out with no (or no valid) post_logout_redirect_uri. */
export function signedOutPage(): string {
  return document("Signed out", "<p>You are signed out of the development provider.</p>");
}

/** Answers with a page titled `title` around `body` (HTML), never cached, under `policy`. */
export function sendPage(res: ServerResponse, status: number, policy: string, title: string, body: string): void {
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
