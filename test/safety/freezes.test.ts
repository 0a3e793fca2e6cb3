/**
 * The freeze record on a real SQLite store with a ManualClock: frozen until an unfreeze's time,
 * a Freeze meanwhile wins over a scheduled unfreeze, and the guard refuses every stage.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Freezes, freezeGuard } from "../../src/safety/freezes.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";

const HOUR = 3_600_000;

describe("Freezes", () => {
  let folder: string;
  let store: Store;
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "freezes-"));
    store = await openStore(`sqlite://${join(folder, "f.sqlite")}`);
  });
  afterAll(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("holds until the unfreeze's time, then is gone; scheduling twice keeps the first time", async () => {
    const freezes = new Freezes(store, clock, { unfreezeDelayMs: 2 * HOUR });
    expect(await freezes.scheduleUnfreeze(1)).toBeUndefined();
    await freezes.freeze(1, "user");
    const at = await freezes.scheduleUnfreeze(1);
    expect(at).toBe(clock.now() + 2 * HOUR);
    clock.advance(HOUR);
    expect(await freezes.scheduleUnfreeze(1)).toBe(at);
    expect(await freezes.isFrozen(1)).toBe(true);
    clock.advance(HOUR);
    expect(await freezes.isFrozen(1)).toBe(false);
    expect(await store.get("freeze:1")).toBeUndefined();
  });

  it("a Freeze after an unfreeze was scheduled drops it; the operator's unfreeze is at once", async () => {
    const freezes = new Freezes(store, clock);
    expect(freezes.unfreezeDelayMs).toBe(HOUR);
    await freezes.freeze(2, "user");
    await freezes.scheduleUnfreeze(2);
    await freezes.freeze(2, "user");
    clock.advance(2 * HOUR);
    expect(await freezes.current(2)).toMatchObject({ by: "user" });
    expect(await freezes.unfreeze(2)).toBe(true);
    expect(await freezes.isFrozen(2)).toBe(false);
    expect(await freezes.unfreeze(2)).toBe(false);
  });

  it("the guard refuses a frozen user's request at every stage with the reason `frozen`", async () => {
    const freezes = new Freezes(store, clock);
    const guard = freezeGuard(freezes);
    const request = { kind: "buy", currency: "btc", amount: "50" } as const;
    expect(await guard.refusal("quote", 3, request)).toBeUndefined();
    await freezes.freeze(3, "operator");
    for (const stage of ["quote", "confirm", "place"] as const) {
      expect(await guard.refusal(stage, 3, request)).toEqual({ kind: "buy", reason: "frozen", vars: {} });
    }
  });
});
