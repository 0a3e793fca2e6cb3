/**
 * The demo's own commands against a stand-in context: `#N` and `#M.N` taps, `:advance` running
 * the jobs at each due point on the way (a single jump looked like downtime: a recurring run due
 * on the way was reported "missed while the bot was offline"), and `:inline` printing a card
 * offered both as a chart and as text once, with the chart written to a file.
 */
import type { InlineQueryResult } from "grammy/types";
import { describe, expect, it } from "vitest";
import { type DemoCommandContext, handleDemoCommand } from "../../src/demo/commands.ts";
import { ManualClock } from "../../src/support/clock.ts";

type Buttons = NonNullable<ReturnType<DemoCommandContext["buttons"]>>["buttons"];

function context(parts: Partial<DemoCommandContext>): { ctx: DemoCommandContext; printed: string[] } {
  const printed: string[] = [];
  const ctx = { print: (text: string) => printed.push(text), ...parts };
  // Only what each command touches; the rest of the context is never reached.
  return { ctx: ctx as Partial<DemoCommandContext> as DemoCommandContext, printed };
}

describe("tapping a button in the demo", () => {
  const held = new Map<number, Buttons>([
    [7, [{ label: "🧊 Freeze", messageId: 7, data: "freeze" }]],
    [
      12,
      [
        { label: "✅ Confirm", messageId: 12, data: "confirm" },
        { label: "✖️ Cancel", messageId: 12, data: "cancel" },
      ],
    ],
  ]);
  const taps: Array<[number, string]> = [];
  const me = {
    tapData: async (messageId: number, data: string) => {
      taps.push([messageId, data]);
      return "query-id";
    },
  };
  const { ctx, printed } = context({
    me: me as Partial<DemoCommandContext["me"]> as DemoCommandContext["me"],
    buttons: (messageId) => {
      const id = messageId ?? Math.max(...held.keys());
      const buttons = held.get(id);
      return buttons === undefined ? undefined : { messageId: id, buttons };
    },
  });

  it("#N taps the newest message's button N, #M.N button N of an earlier message M", async () => {
    await handleDemoCommand("#2", ctx);
    await handleDemoCommand("#7.1", ctx);
    expect(taps).toEqual([
      [12, "cancel"],
      [7, "freeze"],
    ]);
  });

  it("says what is there when a message or a button is not", async () => {
    await handleDemoCommand("#9.1", ctx);
    await handleDemoCommand("#7.3", ctx);
    expect(printed.slice(-2)).toEqual([
      "(demo) Message 9 has no buttons.",
      "(demo) There is no button 3; message 7 has 1.",
    ]);
  });
});

describe(":advance", () => {
  it("runs the jobs at each due point on the way and at least hourly, then once at the end", async () => {
    const start = Date.parse("2026-11-28T00:50:00Z");
    const clock = new ManualClock(start);
    const runAt = Date.parse("2026-11-28T08:14:00Z");
    const ticks: number[] = [];
    const { ctx, printed } = context({
      clock,
      dueTimes: async () => (clock.now() < runAt ? [runAt] : [runAt + 86_400_000]),
      tick: async () => {
        ticks.push(clock.now());
      },
    });
    await handleDemoCommand(":advance 24h", ctx);
    expect(ticks).toContain(runAt);
    expect(ticks.at(-1)).toBe(start + 86_400_000);
    // Never more than an hour between two runs of the jobs.
    const gaps = ticks.map((at, i) => at - (ticks[i - 1] ?? start));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(3_600_000);
    expect(clock.now()).toBe(start + 86_400_000);
    expect(printed.at(-1)).toBe("(demo) The sandbox clock is now 2026-11-29T00:50:00.000Z.");
  });
});

describe(":inline", () => {
  it("prints a card offered as a chart and as text once, with the chart's file", async () => {
    const card = { title: "Bitcoin (BTC): €58,000.00", description: "24 h: ▲ +1.20%" };
    const text = { input_message_content: { message_text: "…" } };
    const photo = "http://127.0.0.1:9/chart/x.jpg";
    const results: InlineQueryResult[] = [
      { type: "photo", id: "chart-btc", photo_url: photo, thumbnail_url: photo, ...card },
      { type: "article", id: "btc", ...card, ...text },
      { type: "article", id: "eth", title: "Ether (ETH): €3,000.00", description: "24 h: ▼ -0.50%", ...text },
    ];
    const me = { inlineQuery: async () => "q1", inlineResults: async () => results };
    const { ctx, printed } = context({
      me: me as Partial<DemoCommandContext["me"]> as DemoCommandContext["me"],
      savePicture: async (_url, name) => `demo-files/001-${name}`,
    });
    await handleDemoCommand(":inline btc", ctx);
    expect(printed).toEqual([
      "(inline) Bitcoin (BTC): €58,000.00 – 24 h: ▲ +1.20% [picture demo-files/001-chart-btc.jpg]",
      "(inline) Ether (ETH): €3,000.00 – 24 h: ▼ -0.50%",
    ]);
  });
});
