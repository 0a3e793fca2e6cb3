/**
 * The Mini App login in a real browser (headless Chromium): opened the way Telegram opens it, with
 * signed `initData` in the `tgWebAppData` fragment, filled in and sent like a person would. The
 * screenshots land in test-artifacts/ (not committed) for a human look.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { HTTPRequest, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { signInitData, webAppLink } from "../../src/webapp/init-data.ts";
import { browserAvailable, browserRequired, launchBrowser, type TestBrowser } from "../support/browser.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");

/** Telegram's dark theme, as a client passes it in `tgWebAppThemeParams`. */
const DARK_THEME = {
  bg_color: "#17212b",
  text_color: "#f5f5f5",
  hint_color: "#708499",
  secondary_bg_color: "#232e3c",
  button_color: "#5288c1",
  button_text_color: "#ffffff",
  destructive_text_color: "#ec3942",
};

describe.skipIf(!browserAvailable && !browserRequired)("the Mini App login in a real browser", () => {
  let h: Harness;
  let chromium: TestBrowser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await startHarness({ webApp: true });
    chromium = await launchBrowser();
  });
  afterAll(async () => {
    await chromium?.close();
    await h?.stop();
  });

  const loginCalls = () => h.sandbox.requests.filter((r) => r.path === "/v1/auth/login").length;

  /**
   * The page as Telegram opens it for `user`: signed initData in the fragment, on a phone-sized
   * screen. `foreign()` lists the requests it made to any other host.
   */
  async function openAs(
    user: FakeUser,
    languageCode: string,
    theme?: Record<string, string>,
  ): Promise<{ page: Page; foreign: () => string[] }> {
    const initData = signInitData(
      { id: user.id, firstName: `User ${user.id}`, languageCode },
      h.telegram.token,
      h.clock.now(),
    );
    const pageUrl = h.webAppLoginUrl ?? "";
    const page = await chromium.browser.newPage();
    await page.setViewport({ width: 390, height: 720, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const requests: string[] = [];
    page.on("request", (request: HTTPRequest) => {
      requests.push(request.url());
    });
    await page.goto(webAppLink(pageUrl, initData, theme), { waitUntil: "load" });
    const origin = new URL(pageUrl).origin;
    expect(requests.length).toBeGreaterThanOrEqual(1);
    return { page, foreign: () => requests.filter((url) => new URL(url).origin !== origin) };
  }

  // The tests are compiled without DOM types: checks on the DOM run as script text in the page.

  async function fill(page: Page, code: string): Promise<void> {
    await page.type("#email", h.sandbox.demo.email);
    await page.type("#password", h.sandbox.demo.password);
    await page.type("#code", code);
  }

  it("logs in in English: the form posts, the exchange gets one login, the chat says Logged in", async () => {
    const ada = h.user(8_101, { languageCode: "en" });
    const { page, foreign } = await openAs(ada, "en");
    expect(await page.$eval("h1", (e) => e.textContent)).toBe("Log in to your exchange account");
    expect(await page.$eval("html", (e) => e.getAttribute("lang"))).toBe("en");

    await fill(page, h.sandbox.currentCode());
    await page.screenshot({ path: join(ARTIFACTS, "webapp-login-en.png"), fullPage: true });
    const before = loginCalls();
    await page.click("#submit");
    await page.waitForSelector("#status.done");
    expect(await page.$eval("#status", (e) => e.textContent)).toContain("Logged in");
    expect(loginCalls()).toBe(before + 1);
    expect((await ada.waitForReply(/Logged in as/)).text).toContain(h.sandbox.demo.email);
    // The password field is emptied once it has done its job.
    expect(await page.evaluate('document.getElementById("password").value')).toBe("");

    expect(foreign()).toEqual([]);
    await page.close();
  });

  it("speaks German with Telegram's dark theme, shows a wrong code's sentence, then logs in", async () => {
    const jan = h.user(8_102, { languageCode: "de" });
    const { page, foreign } = await openAs(jan, "de", DARK_THEME);
    expect(await page.$eval("h1", (e) => e.textContent)).toBe("Bei deinem Börsenkonto anmelden");
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(23, 33, 43)");

    await fill(page, "000000");
    await page.click("#submit");
    await page.waitForSelector("#status.error");
    expect(await page.$eval("#status", (e) => e.textContent)).toMatch(/Code wurde nicht akzeptiert/);
    await page.screenshot({ path: join(ARTIFACTS, "webapp-login-de.png"), fullPage: true });

    await page.type("#code", h.sandbox.currentCode());
    await page.click("#submit");
    await page.waitForSelector("#status.done");
    expect((await jan.waitForReply(/Angemeldet als/)).text).toContain(h.sandbox.demo.email);

    expect(foreign()).toEqual([]);
    await page.close();
  });
});
