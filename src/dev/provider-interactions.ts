import type Provider from "oidc-provider";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DevUser } from "./dev-identity.js";
import { loginForm, notice, providerPagePolicy, sendPage } from "./sign-in-pages.js";

/** Where oidc-provider sends a browser that must sign in (its `interactions.url`), under the issuer. */
export const INTERACTION_PATH = "/interaction";

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
 * every client of this provider is first-party. The pages are sign-in-pages.ts's.
 */
export async function handleInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  options: InteractionOptions,
): Promise<void> {
  const policy = providerPagePolicy(options.formTargets);
  const page = (status: number, body: string) => sendPage(res, status, policy, "Sign in", body);
  try {
    const [, uid = "", action] = /^\/interaction\/([^/?]+)(?:\/([^/?]+))?/.exec(req.url ?? "") ?? [];
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid)
      return page(400, notice("This sign-in page is out of date: start again from the application."));
    const loginAction = `${new URL(options.issuer).pathname.replace(/\/$/, "")}${INTERACTION_PATH}/${uid}/login`;

    if (details.prompt.name === "login") {
      if (req.method === "POST" && action === "login") {
        const form = new URLSearchParams(await readBody(req));
        const user = options.users.find((u) => u.username === form.get("username"));
        if (!user || user.password !== form.get("password")) {
          return page(401, loginForm(loginAction, form.get("username") ?? "", "Unknown user or wrong password."));
        }
        return await provider.interactionFinished(
          req,
          res,
          { login: { accountId: user.username } },
          { mergeWithLastSubmission: false },
        );
      }
      const hint = typeof details.params.login_hint === "string" ? details.params.login_hint : "";
      return page(200, loginForm(loginAction, hint));
    }

    if (details.prompt.name === "consent") {
      // As oidc-provider's own example grants it, without asking.
      const promptDetails = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      if (!grant) return page(400, notice("The grant of this sign-in has expired: start again from the application."));
      if (promptDetails.missingOIDCScope) grant.addOIDCScope(promptDetails.missingOIDCScope.join(" "));
      if (promptDetails.missingOIDCClaims) grant.addOIDCClaims(promptDetails.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(promptDetails.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(" "));
      const grantId = await grant.save();
      return await provider.interactionFinished(
        req,
        res,
        { consent: details.grantId ? {} : { grantId } },
        { mergeWithLastSubmission: true },
      );
    }
    return page(400, notice(`This provider cannot answer the prompt ${details.prompt.name}.`));
  } catch (error) {
    if (res.headersSent) return void res.destroy();
    // An expired or unknown interaction (SessionNotFound): the browser came back too late.
    const message = error instanceof Error ? error.message : String(error);
    return page(400, notice(`This sign-in cannot go on (${message}): start again from the application.`));
  }
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
