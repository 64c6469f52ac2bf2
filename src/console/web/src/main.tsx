import { render } from "preact";
import { App } from "./app";
import { createAuth } from "./auth/auth";
import { loadConfig } from "./config";
import "./styles/app.css";
import "./styles/print.css";

/**
 * Start-up: read the config, finish a sign-in when the provider has just sent the
 * browser back, then draw. Failures before the app exists are shown as plain text.
 */
async function start(root: HTMLElement) {
  const config = await loadConfig();
  const auth = createAuth(config);
  await auth.completeSignIn();
  render(<App config={config} auth={auth} />, root);
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
