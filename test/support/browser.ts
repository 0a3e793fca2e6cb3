/**
 * Headless Chromium for the tests that need a real browser: Debian's `chromium` package (what
 * .ci/run installs), driven by puppeteer-core, which never downloads a browser of its own. Each
 * launch gets a fresh profile folder and flags that keep the browser off the network except for
 * what the page itself asks.
 *
 * Without the browser the tests skip with a printed reason, except in CI (CI=true) or with
 * REQUIRE_BROWSER=1, where a missing browser fails them.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const browserAvailable = existsSync(CHROMIUM_PATH);
export const browserRequired = process.env.CI === "true" || process.env.REQUIRE_BROWSER === "1";
export const browserMissingReason = `no browser at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium; .ci/run does)`;

if (!browserAvailable && !browserRequired) {
  process.stderr.write(`browser tests skipped: ${browserMissingReason}\n`);
}

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!browserAvailable) throw new Error(`Browser tests cannot run: ${browserMissingReason}.`);
  const profile = mkdtempSync(join(tmpdir(), "bot-browser-"));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    userDataDir: profile,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
