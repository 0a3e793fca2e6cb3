/**
 * POST /webapp/login over plain HTTP, against the sandbox and the Bot API double: what it accepts
 * and what it refuses without ever calling the exchange.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer } from "../../src/process/webhook.ts";
import { createLogger } from "../../src/support/logger.ts";
import { signInitData, webAppLink } from "../../src/webapp/init-data.ts";
import { WEBAPP_LOGIN_PATH, webAppRoutes } from "../../src/webapp/routes.ts";
import { type Harness, runJobsNearSessionEnd, startHarness } from "../support/harness.ts";
import { initDataFields, telegramInitData } from "../support/init-data.ts";
import { savedLongAgo } from "../support/safety.ts";

let nextId = 7_100;

describe("the Mini App login over HTTP", () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ webApp: true });
    url = h.webAppLoginUrl ?? "";
  });
  afterAll(async () => {
    await h.stop();
  });

  const loginCalls = () => h.sandbox.requests.filter((r) => r.path === "/v1/auth/login").length;
  const initDataFor = (id: number, languageCode = "en", at = h.clock.now()) =>
    signInitData({ id, firstName: "Ada", languageCode }, h.telegram.token, at);
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const form = (initData: string, code = h.sandbox.currentCode()) => ({
    initData,
    email: h.sandbox.demo.email,
    password: h.sandbox.demo.password,
    code,
  });

  it("serves the page: every word in both languages, inline only, under a CSP that forbids other hosts", async () => {
    const response = await fetch(`${url}?lang=de`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("Bei deinem Börsenkonto anmelden");
    expect(html).toContain("Log in to your exchange account");
    expect(html).not.toMatch(/\bsrc=|\bhref=|@import|url\(/);
  });

  it("logs the user from initData in: 200, one login at the exchange, Logged in in the chat", async () => {
    const ada = h.user(nextId++);
    const before = loginCalls();
    const response = await post(form(initDataFor(ada.id)));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(loginCalls()).toBe(before + 1);
    expect((await ada.waitForReply(/Logged in as/)).text).toContain(h.sandbox.demo.email);
    expect((await h.deps.sessions.status(ada.id)).state).toBe("active");
  });

  it("a Mini App login is a security notice that says so, with its time and a Freeze button", async () => {
    const ada = h.user(nextId++);
    await h.deps.phishing.set(ada.id, "red fox");
    await ada.waitForReply(/anti-phishing phrase was changed/);
    expect((await post(form(initDataFor(ada.id)))).status).toBe(200);
    const notice = await ada.waitForReply(/New login to your exchange account through the Mini App on/);
    expect(notice.text).toContain("🛡 Your anti-phishing phrase: red fox");
    expect(notice.buttons).toEqual([["🧊 Freeze"]]);
  });

  it("logs in a user whose Telegram client sends initData without a signature field", async () => {
    const ada = h.user(nextId++);
    const initData = telegramInitData(
      initDataFields({ id: ada.id, first_name: "Ada", language_code: "en" }, h.clock.now()),
      h.telegram.token,
    );
    expect(initData).not.toContain("signature");
    const response = await post(form(initData));
    expect(response.status).toBe(200);
    expect((await ada.waitForReply(/Logged in as/)).text).toContain(h.sandbox.demo.email);
  });

  it("refuses forged initData, a stale auth_date, a missing one and an oversized body without a login call", async () => {
    const id = nextId++;
    const before = loginCalls();
    const forged = signInitData({ id, firstName: "Eve" }, "999999:not-this-bots-token-at-all", h.clock.now());
    expect((await post(form(forged))).status).toBe(401);
    // Signed for one user, the user id changed afterwards.
    const swapped = initDataFor(id).replace(/%22id%22%3A\d+/, `%22id%22%3A${id + 1}`);
    expect((await post(form(swapped))).status).toBe(401);
    const stale = initDataFor(id, "en", h.clock.now() - 16 * 60_000);
    expect((await post(form(stale))).status).toBe(401);
    expect((await post({ email: h.sandbox.demo.email, password: "x", code: "123456" })).status).toBe(401);
    expect((await post("not json")).status).toBe(401);
    const huge = { ...form(initDataFor(id)), password: "p".repeat(9 * 1024) };
    expect((await post(huge)).status).toBe(413);
    expect((await post(form(initDataFor(id)), { "content-type": "text/plain" })).status).toBe(415);
    expect(loginCalls()).toBe(before);
  });

  it("answers 422 with a sentence in the user's language for a wrong code", async () => {
    const jan = h.user(nextId++, { languageCode: "de" });
    const response = await post(form(initDataFor(jan.id, "de"), "000000"));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: string }).error).toMatch(/Code wurde nicht akzeptiert/);
    const malformed = await post(form(initDataFor(jan.id, "en"), "12ab"));
    expect(malformed.status).toBe(422);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/6 digits/);
  });

  it("answers 429 once the failed-login limit is reached, without calling the exchange again", async () => {
    const bob = h.user(nextId++);
    for (let i = 0; i < 4; i++) expect((await post(form(initDataFor(bob.id), "000000"))).status).toBe(422);
    // The fifth failure reaches the limit: it is already the wait message.
    expect((await post(form(initDataFor(bob.id), "000000"))).status).toBe(429);
    const before = loginCalls();
    const limited = await post(form(initDataFor(bob.id)));
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: string }).error).toMatch(/Too many failed logins/);
    expect(loginCalls()).toBe(before);
  });

  it("makes every Log in button a web_app button to the page; /login in the chat still works", async () => {
    const ada = h.user(nextId++);
    await ada.send("/start");
    const welcome = await ada.waitForReply((m) => m.buttons.length > 0);
    expect(welcome.replyMarkup).toEqual({ inline_keyboard: [[{ text: "🔐 Log in", web_app: { url } }]] });

    await ada.send("/balance");
    const required = await ada.waitForReply(/log in/i);
    expect(JSON.stringify(required.replyMarkup)).toContain('"web_app"');

    await ada.send("/login");
    await ada.waitForReply(/e-mail/);
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);
  });

  it("rewrites a Log in button sent from inside a flow too (its API client is the flow's own)", async () => {
    const ada = h.user(nextId++);
    expect((await post(form(initDataFor(ada.id)))).status).toBe(200);
    await ada.waitForReply(/Logged in/);
    await savedLongAgo(h, ada.id, "btc", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    await ada.send("/send");
    await ada.waitForReply(/Which currency/);
    await ada.tap("BTC");
    await ada.waitForReply(/BTC address/);
    await ada.send("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    await ada.waitForReply(/How much BTC/);
    await ada.send("0.001");
    await ada.waitForReply(/Send BTC/);
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/6-digit code/);
    await h.deps.sessions.markExpired(ada.id);
    await ada.send(h.sandbox.currentCode());
    const ended = await ada.waitForReply(/session has ended/);
    expect(ended.replyMarkup).toEqual({ inline_keyboard: [[{ text: "🔐 Log in", web_app: { url } }]] });
  });

  it("offers to stay logged in with the page too", async () => {
    const ada = h.user(nextId++);
    expect((await post(form(initDataFor(ada.id)))).status).toBe(200);
    await ada.waitForReply(/Logged in/);
    await runJobsNearSessionEnd(h);
    const warning = await ada.waitForReply(/session ends/);
    expect(warning.replyMarkup).toEqual({
      inline_keyboard: [[{ text: "Stay logged in", web_app: { url } }]],
    });
  });
});

describe("the Mini App login: what reaches the log", () => {
  it("names the user and the outcome, never the password, the code or initData (and without WEBAPP_URL, buttons stay)", async () => {
    const h = await startHarness();
    const lines: string[] = [];
    const log = createLogger(
      "debug",
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const server = await startHttpServer({
      port: 0,
      host: "127.0.0.1",
      routes: [webAppRoutes({ deps: { ...h.deps, log }, botToken: h.telegram.token, api: h.bot.api })],
    });
    try {
      const id = nextId++;
      const initData = signInitData({ id, firstName: "Ada" }, h.telegram.token, h.clock.now());
      const send = (code: string, data = initData) =>
        fetch(`${server.url}${WEBAPP_LOGIN_PATH}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            initData: data,
            email: h.sandbox.demo.email,
            password: h.sandbox.demo.password,
            code,
          }),
        });
      expect((await send("000000")).status).toBe(422);
      expect((await send("123456", `${initData}x`)).status).toBe(401);
      const code = h.sandbox.currentCode();
      expect((await send(code)).status).toBe(200);
      const text = lines.join("");
      expect(text).toContain(String(id));
      expect(text).not.toContain(h.sandbox.demo.password);
      expect(text).not.toContain(code);
      expect(text).not.toContain("auth_date");
      expect(webAppLink("http://x", initData)).toContain("#tgWebAppData=");

      // This bot has no WEBAPP_URL: its Log in button stays the chat login.
      const ada = h.user(nextId++);
      await ada.send("/start");
      const welcome = await ada.waitForReply((m) => m.buttons.length > 0);
      expect(welcome.replyMarkup).toEqual({
        inline_keyboard: [[{ text: "🔐 Log in", callback_data: "login" }]],
      });
    } finally {
      await server.close();
      await h.stop();
    }
  });
});
