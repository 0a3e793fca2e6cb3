/**
 * The plans' store records (src/plans/book.ts) on a real SQLite file and the injected clock: the
 * due listing by hour, a plan moved when RECURRING_SPREAD_MINUTES changes between restarts, and a
 * resumed plan running from its next date (no catch-up of the paused days).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PLAN_SETTINGS, PlanBook } from "../../src/plans/book.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";

const START = Date.parse("2026-11-22T10:00:00Z");
const TERMS = {
  mode: "partner" as const,
  currency: "btc",
  amount: "10",
  schedule: { every: "day" as const, hour: 9 },
  zone: "UTC",
};

describe("the plan book", () => {
  let folder: string;
  let store: Store;
  let clock: ManualClock;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), "plans-"));
    store = await openStore(`sqlite://${join(folder, "bot.sqlite")}`);
    clock = new ManualClock(START);
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists a plan as due only from its minute on, and not before", async () => {
    const book = new PlanBook(store, clock, { ...DEFAULT_PLAN_SETTINGS, spreadMs: 0 });
    const made = await book.create({ ...TERMS, id: "AAAAAAAAAAAA", userId: 1 });
    if (!made.ok) throw new Error(made.reason);
    expect(await book.due(clock.now())).toEqual([]);
    clock.advance(Date.parse("2026-11-23T08:59:00Z") - clock.now());
    expect(await book.due(clock.now())).toEqual([]);
    clock.advance(60_000);
    expect((await book.due(clock.now())).map((plan) => plan.id)).toEqual(["AAAAAAAAAAAA"]);
  });

  it("a plan listed under the old spread's hour is found after RECURRING_SPREAD_MINUTES changes", async () => {
    const before = new PlanBook(store, clock, { ...DEFAULT_PLAN_SETTINGS, spreadMs: 0 });
    // 09:00 in Kolkata is 03:30 UTC: this plan's minute (38 of 59) moves it to the next UTC hour.
    await before.create({ ...TERMS, zone: "Asia/Kolkata", id: "BBBBBBBBBBBB", userId: 2 });
    await before.due(clock.now());
    // Restarted with a spread: the plan's minute may move it; it is still found once due.
    const after = new PlanBook(store, clock, { ...DEFAULT_PLAN_SETTINGS, spreadMs: 59 * 60_000 });
    const plan = await after.get("BBBBBBBBBBBB");
    const due = plan ? after.dueAt(plan) : undefined;
    if (due === undefined) throw new Error("no due time");
    clock.advance(due + 60_000 - clock.now());
    expect(new Date(due).toISOString()).toBe("2026-11-23T04:08:00.000Z");
    expect((await after.due(clock.now())).map((p) => p.id)).toEqual(["BBBBBBBBBBBB"]);
  });

  it("paused, then resumed days later: the next run is the next date after now", async () => {
    const book = new PlanBook(store, clock, { ...DEFAULT_PLAN_SETTINGS, spreadMs: 0 });
    await book.create({ ...TERMS, id: "CCCCCCCCCCCC", userId: 3 });
    expect((await book.setState("CCCCCCCCCCCC", 3, "paused"))?.state).toBe("paused");
    expect(await book.setState("CCCCCCCCCCCC", 4, "active")).toBeUndefined(); // someone else's
    clock.advance(5 * 24 * 3_600_000);
    expect(await book.due(clock.now())).toEqual([]);
    const resumed = await book.setState("CCCCCCCCCCCC", 3, "active");
    expect(resumed?.next?.date).toBe("2026-11-28");
    expect(await book.due(clock.now())).toEqual([]);
  });
});
