/**
 * Charts that say what they show. In the first minutes /price says there is
 * no chart yet and still offers the spans (a span tapped later draws it); a chart's title names the
 * span its data really covers and its time axis never repeats a label; the top-5 chart has a
 * caption. English and German.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartWords } from "../../../src/bot/flows/price-chart.ts";
import { createI18n } from "../../../src/bot/i18n.ts";
import { timeAxis } from "../../../src/charts/render.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { Profiles } from "../../../src/session/profiles.ts";
import { openStore } from "../../../src/store/open-store.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const MINUTE = 60_000;
const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
const tOf = (locale: string) => (key: string, vars?: Record<string, string | number>) =>
  i18n.t(locale, key, vars);
const START = Date.UTC(2026, 10, 27, 21, 58, 5);

describe("a chart's title and time axis", () => {
  const oneMinute: [number, number][] = [
    [START, 60000],
    [START + 30_000, 60010],
    [START + MINUTE, 60020],
  ];
  for (const [locale, title] of [
    ["en", "Bitcoin (BTC) · 1 minute"],
    ["de", "Bitcoin (BTC) · 1 Minute"],
  ] as const) {
    it(`names the span the data covers, not the one asked for (${locale})`, () => {
      const words = chartWords(
        tOf(locale),
        { points: oneMinute, since: START },
        { name: "Bitcoin", code: "btc", range: "24h" },
        locale,
      );
      expect(words.title).toBe(title);
      expect(words.note).toMatch(/UTC$/);
      // Data that fills the span keeps the span's name.
      expect(
        chartWords(
          tOf(locale),
          { points: oneMinute, since: undefined },
          { name: "Bitcoin", code: "btc", range: "7d" },
          locale,
        ).title,
      ).toBe(locale === "en" ? "Bitcoin (BTC) · 7 days" : "Bitcoin (BTC) · 7 Tage");
    });

    it(`labels each tick of the time axis differently (${locale})`, async () => {
      for (const [span, end] of [
        ["day", START + MINUTE],
        ["day", START + 24 * 60 * MINUTE],
        ["days", START + 3 * 60 * MINUTE],
        ["days", START + 7 * 24 * 60 * MINUTE],
      ] as const) {
        const labels = (await timeAxis({ locale, span }, START, end)).map((tick) => tick.label);
        expect(labels.length).toBeGreaterThan(0);
        expect(new Set(labels).size).toBe(labels.length);
      }
    });
  }
});

describe("/price in the first minutes, and the top-5 chart", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    h = await startHarness({ marketData: true });
    jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 3_600_000, autoStart: false });
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  for (const [languageCode, words] of [
    ["en", { none: "No chart yet", spans: ["• 24 h •", "7 days", "30 days"], wait: "Not enough prices" }],
    [
      "de",
      { none: "Noch kein Diagramm", spans: ["• 24 Std. •", "7 Tage", "30 Tage"], wait: "Noch zu wenige" },
    ],
  ] as const) {
    it(`says there is no chart yet and offers the spans; a span tapped says to wait (${languageCode})`, async () => {
      const ada = h.user(undefined, { languageCode });
      await ada.send("/price btc");
      const card = await ada.waitForReply(/BTC/);
      expect(card.kind).toBe("text");
      expect(card.text).toContain(words.none);
      expect(card.buttons).toEqual([words.spans]);
      await ada.tap(words.spans[1], card);
      const answer = await ada.waitForCall("answerCallbackQuery");
      expect(String(answer.payload.text)).toContain(words.wait);
    });
  }

  it("a span tapped under that text once prices are kept draws the chart as a new message", async () => {
    const bea = h.user();
    await bea.send("/price btc");
    const card = await bea.waitForReply(/No chart yet/);
    for (let i = 0; i < 12; i++) {
      await jobs.tick();
      h.clock.advance(5 * MINUTE);
    }
    await bea.tap("7 days", card);
    const photo = await bea.waitForReply((m) => m.kind === "photo");
    expect(photo.file?.filename).toBe("btc-7d.png");
    expect(photo.buttons).toEqual([["24 h", "• 7 days •", "30 days"]]);
    // The text's spans went: its chart is the new message.
    await bea.waitForReply((m) => m.messageId === card.messageId && m.edited && m.buttons.length === 0);
  });

  for (const [languageCode, button, caption] of [
    ["en", "📈 Chart of the top 5", "how each price changed in % over"],
    ["de", "📈 Diagramm der Top 5", "wie sich jeder Kurs über"],
  ] as const) {
    it(`the top-5 chart comes with a caption (${languageCode})`, async () => {
      const cem = h.user(undefined, { languageCode });
      await cem.send("/prices");
      const list = await cem.waitForReply((m) => m.buttons.flat().includes(button));
      await cem.tap(button, list);
      const chart = await cem.waitForReply((m) => m.kind === "photo");
      expect(chart.text).toContain(caption);
      expect(chart.text).toMatch(/BTC/);
    });
  }
});
