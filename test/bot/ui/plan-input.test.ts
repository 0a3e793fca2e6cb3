/** /recurring's words (src/bot/ui/plan-input.ts), in English and German, and what is refused. */
import { describe, expect, it } from "vitest";
import { readPlanInput } from "../../../src/bot/ui/plan-input.ts";

describe("reading a plan from /recurring's words", () => {
  it("reads the schedules and ends in both languages", () => {
    expect(readPlanInput("btc 50 daily 9")).toEqual({
      ok: true,
      input: { currency: "btc", amount: "50", schedule: { every: "day", hour: 9 } },
    });
    expect(readPlanInput("ETH 12,50 wöchentlich montag um 18 uhr")).toEqual({
      ok: true,
      input: { currency: "eth", amount: "12.5", schedule: { every: "week", weekday: 1, hour: 18 } },
    });
    expect(readPlanInput("btc 100 monthly last 09:00 until 2027-06-30")).toMatchObject({
      ok: true,
      input: { schedule: { every: "month", day: "last", hour: 9 }, end: { until: "2027-06-30" } },
    });
    expect(readPlanInput("btc 100 monatlich 15. 8 bis 30.06.2027")).toMatchObject({
      input: { schedule: { every: "month", day: 15, hour: 8 }, end: { until: "2027-06-30" } },
    });
    expect(readPlanInput("btc 100 monthly 1st 8 runs 12")).toMatchObject({ input: { end: { runs: 12 } } });
    expect(readPlanInput("btc 100 monatlich letzter 8 12 mal")).toMatchObject({
      input: { schedule: { day: "last" }, end: { runs: 12 } },
    });
  });

  it("says which part is wrong", () => {
    expect(readPlanInput("btc 50")).toEqual({ ok: false, error: "usage" });
    expect(readPlanInput("eur 50 daily 9")).toEqual({ ok: false, error: "usage" });
    expect(readPlanInput("btc 1,00.0 daily 9")).toEqual({ ok: false, error: "amount" });
    // A thousand, by the rules of the reader's language.
    expect(readPlanInput("btc 1.000 daily 9", "de")).toMatchObject({ ok: true, input: { amount: "1000" } });
    expect(readPlanInput("btc 1,000 daily 9", "en")).toMatchObject({ ok: true, input: { amount: "1000" } });
    expect(readPlanInput("btc 50 hourly 9")).toEqual({ ok: false, error: "schedule" });
    expect(readPlanInput("btc 50 weekly someday 9")).toEqual({ ok: false, error: "weekday" });
    expect(readPlanInput("btc 50 monthly 29 9")).toEqual({ ok: false, error: "day" });
    expect(readPlanInput("btc 50 daily 24")).toEqual({ ok: false, error: "hour" });
    expect(readPlanInput("btc 50 daily 9 until 2027-02-30")).toEqual({ ok: false, error: "end" });
    expect(readPlanInput("btc 50 daily 9 runs 0")).toEqual({ ok: false, error: "end" });
  });
});
