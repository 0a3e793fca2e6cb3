/**
 * Price charts through the whole bot: the jobs' tick records the sandbox's prices on the injected
 * clock, `/price btc` answers with the 24 h chart (sendPhoto, the card as caption, the span
 * buttons) in English and German, a span tapped redraws it in place (editMessageMedia), `/prices`
 * offers the top currencies' chart; with no history the text answers of before. Inline answers
 * carry the chart as a photo whose address the bot's own HTTP server serves: real JPEG bytes while
 * it is valid, 404 once expired or changed. Partner mode draws from the partner API's rates.
 */

import type { InlineQueryResult } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readChartPhotoPath } from "../../../src/charts/photo-url.ts";
import { CHART_HEIGHT, CHART_WIDTH } from "../../../src/charts/render.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import { Vault } from "../../../src/store/vault.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";
import { readJpeg } from "../../support/jpeg.ts";

const MINUTE = 60_000;

/** The jobs' ticks every 5 minutes for `hours`, as the leader records them. */
async function recordHours(h: Harness, jobs: BackgroundJobs, hours: number): Promise<void> {
  for (let i = 0; i < (hours * 60) / 5; i++) {
    await jobs.tick();
    h.clock.advance(5 * MINUTE);
  }
}

function jobsOf(h: Harness): BackgroundJobs {
  return startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 3_600_000, autoStart: false });
}

describe("price charts in account mode", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  let ada: FakeUser;
  let bea: FakeUser;
  beforeAll(async () => {
    h = await startHarness({ marketData: true, webApp: true });
    jobs = jobsOf(h);
    ada = h.user();
    bea = h.user(undefined, { languageCode: "de" });
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("answers with text as before while there is no price history", async () => {
    await ada.send("/price btc");
    const card = await ada.waitForReply(/Bitcoin \(BTC\): /);
    expect(card.kind).toBe("text");
    await ada.send("/prices");
    expect((await ada.waitForReply(/Prices in euros/)).buttons).toEqual([]);
  });

  it("/price btc: the 24 h chart with the card as caption and the spans; a tap redraws it in place", async () => {
    await recordHours(h, jobs, 6);
    await ada.send("/price btc");
    const photo = await ada.waitForReply();
    expect(photo.kind).toBe("photo");
    expect(photo.parseMode).toBe("HTML");
    const [rate, change, time] = photo.text.split("\n");
    expect(rate).toMatch(/^Bitcoin \(BTC\): €[\d,.]+$/);
    expect(change).toMatch(/^24 h: [▲▼•] /);
    expect(time).toMatch(/^Rate of .+ UTC$/);
    expect(photo.file?.filename).toBe("btc-24h.png");
    expect(photo.file?.size).toBeGreaterThan(10_000);
    expect(photo.buttons).toEqual([["• 24 h •", "7 days", "30 days"]]);

    await ada.tap("7 days", photo);
    // The tap is answered first (the spinner stops), then the picture is redrawn.
    await ada.waitForCall("answerCallbackQuery");
    const edit = await ada.waitForCall("editMessageMedia");
    expect(edit.ok).toBe(true);
    const edited = await ada.waitForReply((m) => m.messageId === photo.messageId && m.edited);
    expect(edited.kind).toBe("photo");
    expect(edited.file?.filename).toBe("btc-7d.png");
    expect(edited.text).toMatch(/^Bitcoin \(BTC\): /);
    expect(edited.buttons).toEqual([["24 h", "• 7 days •", "30 days"]]);
  });

  it("/price alone asks which currency; the one tapped answers with its chart", async () => {
    await ada.send("/price");
    const question = await ada.waitForReply(/Which currency\?/);
    await ada.tap("LTC", question);
    const photo = await ada.waitForReply((m) => m.kind === "photo");
    expect(photo.file?.filename).toBe("ltc-24h.png");
    expect(photo.text).toMatch(/^Litecoin \(LTC\): /);
    expect(photo.buttons).toEqual([["• 24 h •", "7 days", "30 days"]]);
  });

  it("speaks German to a German user", async () => {
    await bea.send("/price eth");
    const photo = await bea.waitForReply();
    expect(photo.kind).toBe("photo");
    expect(photo.text).toMatch(/^Ethereum \(ETH\): [\d.,]+\s€\n24 h: [▲▼•] .+\nKurs vom .+ UTC$/);
    expect(photo.buttons).toEqual([["• 24 Std. •", "7 Tage", "30 Tage"]]);
    await bea.tap("30 Tage", photo);
    const edited = await bea.waitForReply((m) => m.messageId === photo.messageId && m.edited);
    expect(edited.buttons).toEqual([["24 Std.", "7 Tage", "• 30 Tage •"]]);
    expect(edited.file?.filename).toBe("eth-30d.png");
  });

  it("/prices offers the top currencies' chart under the list", async () => {
    await ada.send("/prices");
    const list = await ada.waitForReply(/Prices in euros/);
    expect(list.buttons).toEqual([["📈 Chart of the top 5"]]);
    await ada.tap("📈 Chart of the top 5", list);
    const chart = await ada.waitForReply((m) => m.kind === "photo");
    expect(chart.file?.filename).toBe("prices-24h.png");
    expect(chart.file?.size).toBeGreaterThan(10_000);
  });

  it("inline: the best match comes first as a photo served by the bot, 404 once expired or changed", async () => {
    const id = await ada.inlineQuery("btc");
    const call = await ada.waitForCall("answerInlineQuery", (c) => c.payload.inline_query_id === id);
    const results = call.payload.results as InlineQueryResult[];
    const [first, second] = results;
    if (first === undefined || !("photo_url" in first))
      throw new Error(`expected a photo first, got ${first?.type}`);
    expect(second?.type).toBe("article");
    expect(first.photo_width).toBe(CHART_WIDTH);
    expect(first.photo_height).toBe(CHART_HEIGHT);
    expect(first.caption).toMatch(/^<b>Bitcoin \(BTC\): /);
    expect(first.parse_mode).toBe("HTML");
    expect(first.photo_url.startsWith(new URL(h.webAppLoginUrl ?? "").origin)).toBe(true);

    // JPEG, as the Bot API asks of inline photos: the photo and a smaller thumbnail.
    const served = await fetch(first.photo_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const image = readJpeg(Buffer.from(await served.arrayBuffer()));
    expect([image.width, image.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(first.thumbnail_url).not.toBe(first.photo_url);
    const thumbnail = await fetch(first.thumbnail_url);
    expect(thumbnail.headers.get("content-type")).toBe("image/jpeg");
    expect(readJpeg(Buffer.from(await thumbnail.arrayBuffer()))).toMatchObject({ width: 320, height: 180 });

    // Changed in any part, or signed under another key: nothing.
    const url = new URL(first.photo_url);
    const otherKey = Vault.fromBase64(Vault.generateKey());
    const forged = [
      first.photo_url.replace("/chart/btc.", "/chart/eth."),
      first.photo_url.replace(".24h.", ".30d."),
      first.photo_url.replace(/\.en\.(\d+)\./, (_, s: string) => `.en.${Number(s) + 86_400}.`),
      first.photo_url.replace(/\.[A-Za-z0-9_-]{32}\.jpg$/, `.${otherKey.hash("chart-photo:btc.24h.en")}.jpg`),
      first.photo_url.replace(/\.jpg$/, ".png"),
      `${url.origin}/chart/btc.24h.en.jpg`,
    ];
    for (const address of forged) expect([address, (await fetch(address)).status]).toEqual([address, 404]);
    expect(readChartPhotoPath(url.pathname, h.deps.vault, h.clock.now())).toMatchObject({ code: "btc" });

    // Past its time (60 to 70 minutes), the same address answers 404.
    h.clock.advance(71 * MINUTE);
    expect((await fetch(first.photo_url)).status).toBe(404);
    expect((await fetch(first.thumbnail_url)).status).toBe(404);
  });
});

describe("price charts in partner mode", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    jobs = jobsOf(h);
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  it("/price btc answers with text before there is history, then with the chart of the partner rates", async () => {
    const pia = await h.partnerUser();
    await pia.send("/price btc");
    expect((await pia.waitForReply(/BTC/)).kind).toBe("text");

    await recordHours(h, jobs, 3);
    await pia.send("/price btc");
    const photo = await pia.waitForReply();
    expect(photo.kind).toBe("photo");
    expect(photo.file?.filename).toBe("btc-24h.png");
    expect(photo.text).toContain("BTC");
    expect(photo.buttons).toEqual([["• 24 h •", "7 days", "30 days"]]);
    await pia.tap("30 days", photo);
    const edited = await pia.waitForReply((m) => m.messageId === photo.messageId && m.edited);
    expect(edited.file?.filename).toBe("btc-30d.png");
    expect(edited.buttons).toEqual([["24 h", "7 days", "• 30 days •"]]);
  });
});
