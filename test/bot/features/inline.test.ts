/**
 * Inline mode through the Bot API double (answerInlineQuery recorded) over the sandbox: for users
 * who never logged in (market-data account) and for logged-in ones (borrowed token), German and
 * English, stale data with its age, unknown currencies and no source at all.
 */
import type { InlineQueryResultArticle, InputTextMessageContent } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INLINE_CACHE_SECONDS,
  INLINE_RETRY_CACHE_SECONDS,
  priceArticle,
} from "../../../src/bot/features/inline.ts";
import { formatDateTime } from "../../../src/bot/ui/format.ts";
import { formatPrice } from "../../../src/bot/ui/price-format.ts";
import { formatPercent } from "../../../src/domain/money.ts";
import { type FakeUser, parseFormatted } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const TTL = 10_000;

/** The recorded answerInlineQuery call for a query. */
async function answer(user: FakeUser, query: string) {
  const id = await user.inlineQuery(query);
  const call = await user.waitForCall("answerInlineQuery", (c) => c.payload.inline_query_id === id);
  return {
    results: call.payload.results as InlineQueryResultArticle[],
    cacheTime: call.payload.cache_time,
    isPersonal: call.payload.is_personal,
    button: call.payload.button as { text: string; start_parameter: string } | undefined,
  };
}

/** What the chat shows once the user picks a result: the card as text, checked to parse as HTML. */
function card(result: InlineQueryResultArticle | undefined): string {
  const content = result?.input_message_content as InputTextMessageContent;
  expect(content.parse_mode).toBe("HTML");
  return parseFormatted(content.message_text, "HTML").text;
}

describe("inline mode with a market-data account", () => {
  let s: Harness;
  beforeAll(async () => {
    s = await startHarness({ marketData: true, marketTtlMs: TTL });
  });
  afterAll(async () => {
    await s.stop();
  });
  const now = () => s.clock.now();

  it("`@bot` alone lists the top currencies, one result each, for a user who never logged in", async () => {
    const bob = s.user();
    const { results, cacheTime, isPersonal, button } = await answer(bob, "");
    const currencies = s.sandbox.market.currencies();
    expect(results.map((r) => r.id)).toEqual(currencies.map((c) => `price-${c.code}`));
    expect(results.every((r) => r.type === "article")).toBe(true);
    const btc = results[0];
    const price = formatPrice(s.sandbox.market.price("btc", now()), "en");
    const change = formatPercent(s.sandbox.market.change24h("btc", now()), "en");
    expect(btc?.title).toBe(`Bitcoin (BTC): ${price}`);
    expect(btc?.description).toMatch(new RegExp(`^24 h: [▲▼•] ${change.replace(/[+.]/g, "\\$&")}$`));
    expect(card(btc)).toBe(
      [
        `Bitcoin (BTC): ${price}`,
        `24 h: ${btc?.description?.slice("24 h: ".length)}`,
        `Rate of ${formatDateTime(now(), "en")}`,
      ].join("\n"),
    );
    expect(cacheTime).toBe(INLINE_CACHE_SECONDS);
    // Localized results: Telegram may cache them only for the user who asked.
    expect(isPersonal).toBe(true);
    expect(button).toBeUndefined();
    // The bot's own account logged in once; the user has no session.
    expect(s.sandbox.countRequests("POST", "/v1/auth/login")).toBe(1);
    expect((await s.deps.sessions.status(bob.id)).state).toBe("logged-out");
  });

  it("btc, BTC, Bitcoin, bitcoin, btceur and BTC/EUR all give the one Bitcoin card", async () => {
    s.sandbox.setPrice("btc", "12345.67");
    s.clock.advance(TTL);
    const bob = s.user();
    for (const query of ["btc", "BTC", "Bitcoin", "bitcoin", "btceur", "BTC/EUR", "  btc  "]) {
      const { results } = await answer(bob, query);
      expect(
        results.map((r) => r.id),
        query,
      ).toEqual(["price-btc"]);
      expect(card(results[0])).toContain("Bitcoin (BTC): €12,345.67");
    }
  });

  it("the start of a code or name offers what it may mean", async () => {
    const bob = s.user();
    expect((await answer(bob, "bit")).results.map((r) => r.id)).toEqual(["price-btc"]);
    expect((await answer(bob, "l")).results.map((r) => r.id)).toEqual(["price-ltc"]);
  });

  it("an unknown currency: an empty list with a button that opens the bot", async () => {
    const bob = s.user();
    for (const query of ["doge", "btcusd", "<b>"]) {
      const { results, button, cacheTime } = await answer(bob, query);
      expect(results).toEqual([]);
      expect(button).toEqual({ text: "Unknown currency: open the bot", start_parameter: "inline" });
      expect(cacheTime).toBe(INLINE_CACHE_SECONDS);
    }
  });

  it("answers a German user in German, with German numbers", async () => {
    const ute = s.user(undefined, { languageCode: "de" });
    const { results } = await answer(ute, "btc");
    expect(results[0]?.title).toBe("Bitcoin (BTC): 12.345,67\u00a0€");
    expect(card(results[0])).toContain(`Kurs vom ${formatDateTime(now(), "de")}`);
    const unknown = await answer(ute, "doge");
    expect(unknown.button?.text).toBe("Unbekannte Währung: Bot öffnen");
  });

  it("follows the language the user picked with /language over the Telegram one", async () => {
    const ute = s.user(undefined, { languageCode: "de" });
    await s.deps.profiles.update(ute.id, (p) => ({ ...p, locale: "en" }));
    expect((await answer(ute, "btc")).results[0]?.title).toBe("Bitcoin (BTC): €12,345.67");
  });

  it("exchange down: the last card, with its age, cached only briefly", async () => {
    const bob = s.user();
    s.clock.advance(TTL);
    await answer(bob, "btc");
    const fetchedAt = now();
    s.clock.advance(3 * 60_000);
    s.sandbox.faults.failNext(100, 503, { method: "GET", path: "/v1/prices" });
    const { results, cacheTime } = await answer(bob, "btc");
    s.sandbox.faults.reset();
    expect(results[0]?.description).toMatch(/· as of 3 min ago$/);
    const text = card(results[0]);
    expect(text).toContain("Bitcoin (BTC): €12,345.67");
    expect(text).toContain(`Rate of ${formatDateTime(fetchedAt, "en")}`);
    expect(text).toContain("⚠️ As of 3 minutes ago: the exchange cannot be reached right now.");
    expect(cacheTime).toBe(INLINE_RETRY_CACHE_SECONDS);
  }, 20_000);

  it("200 users asking at once make one exchange request", async () => {
    s.clock.advance(TTL);
    const before = s.sandbox.countRequests("GET", "/v1/prices");
    const users = Array.from({ length: 200 }, (_, i) =>
      s.user(undefined, { languageCode: i % 2 ? "de" : "en" }),
    );
    const answers = await Promise.all(users.map((user, i) => answer(user, i % 3 ? "btc" : "")));
    expect(answers.every((a) => a.results.length > 0)).toBe(true);
    expect(s.sandbox.countRequests("GET", "/v1/prices")).toBe(before + 1);
  });
});

describe("inline mode without a market-data account", () => {
  let s: Harness;
  beforeAll(async () => {
    s = await startHarness({ marketTtlMs: TTL });
  });
  afterAll(async () => {
    await s.stop();
  });

  it("nobody logged in: an empty list with a button, no crash, no exchange request", async () => {
    const bob = s.user();
    const { results, button, cacheTime } = await answer(bob, "btc");
    expect(results).toEqual([]);
    expect(button).toEqual({ text: "No prices yet: open the bot", start_parameter: "inline" });
    expect(cacheTime).toBe(INLINE_RETRY_CACHE_SECONDS);
    expect((await answer(bob, "")).results).toEqual([]);
    expect(s.sandbox.countRequests("GET", "/v1/prices")).toBe(0);
  });

  it("a logged-in user's token is borrowed: the user and everyone else get cards", async () => {
    const ada = await s.loggedInUser();
    const logins = s.sandbox.countRequests("POST", "/v1/auth/login");
    s.clock.advance(TTL);
    expect((await answer(ada, "eth")).results.map((r) => r.id)).toEqual(["price-eth"]);
    const bob = s.user();
    expect((await answer(bob, "")).results).toHaveLength(s.sandbox.market.currencies().length);
    expect(s.sandbox.countRequests("POST", "/v1/auth/login")).toBe(logins);
    expect(s.sandbox.countRequests("GET", "/v1/prices")).toBe(1);
  });

  it("the exchange down with nothing fetched before: empty list, a button that says so", async () => {
    const fresh = await startHarness({ marketTtlMs: TTL });
    try {
      await fresh.loggedInUser();
      fresh.sandbox.faults.failNext(100, 503, { method: "GET", path: "/v1/prices" });
      const { results, button } = await answer(fresh.user(), "btc");
      expect(results).toEqual([]);
      expect(button?.text).toBe("Prices unavailable right now: open the bot");
    } finally {
      await fresh.stop();
    }
  }, 20_000);
});

describe("priceArticle", () => {
  it("escapes what the exchange sends before it becomes HTML", () => {
    const t = (key: string, vars?: Record<string, string | number>) => `${key}:${JSON.stringify(vars ?? {})}`;
    const article = priceArticle(
      t,
      { currency: "x<y", name: "A <b>&</b> coin", price: "1", change24h: "0" },
      { fetchedAt: 0, stale: false },
      "en",
      0,
    );
    const html = (article.input_message_content as InputTextMessageContent).message_text;
    expect(html).not.toContain("<b>&</b>");
    expect(html).toContain("A &lt;b&gt;&amp;&lt;/b&gt; coin");
    expect(() => parseFormatted(html, "HTML")).not.toThrow();
  });
});
