import { render } from "preact";
import { App } from "./app.js";
import { createAuth } from "./auth/auth.js";
import { wasSignedOut } from "./auth/signed-out-marker.js";
import { loadConfig } from "./config.js";
import "./styles/app.css";
import "./styles/print.css";

/**
 * Start-up: read the config, finish a sign-in when the provider has just sent the
 * browser back, then draw. Without a session the page signs in at once (README,
 * Console: a reload signs in again, silently while the provider's session lasts), except
 * after a failed sign-in (which would only fail again) and after an explicit sign-out:
 * those offer a "Sign in" button. Failures before the app exists are shown as plain text.
 */
async function start(root: HTMLElement) {
  const config = await loadConfig();
  const auth = createAuth(config);
  const outcome = await auth.completeSignIn();
  const signInFailure = outcome.kind === "failed" ? outcome.reason : null;
  const signingIn = auth.session() === null && signInFailure === null && !wasSignedOut();
  render(<App config={config} auth={auth} signingIn={signingIn} signInFailure={signInFailure} />, root);
  if (signingIn) await auth.signIn();
}

const root = document.getElementById("app")!;
start(root).catch((err: unknown) => {
  const message = document.createElement("p");
  message.className = "fatal";
  message.setAttribute("role", "alert");
  message.dataset.testid = "startup-error";
  message.textContent = `The console could not start: ${err instanceof Error ? err.message : String(err)}`;
  const retry = document.createElement("a");
  retry.href = "/console/";
  retry.textContent = "Start again";
  root.replaceChildren(message, retry);
});
