import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it), or CHROMIUM_PATH. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A real headless browser, closed with the test; playwright-core drives it, with no browser download. */
export async function startBrowser(t: Teardown): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  t.teardown(() => browser.close());
  return browser;
}
