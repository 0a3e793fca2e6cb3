/**
 * The listings the background jobs make read store indexes: records written by the version before
 * indexes are added by `indexExisting()` (what an instance runs when it takes the jobs lead), and a
 * listed record that is gone (expired by its TTL, deleted) drops out of its index when read.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AlertBook } from "../../src/alerts/book.ts";
import { Ledger } from "../../src/orders/ledger.ts";
import { MasterAlerts } from "../../src/partner/master-alerts.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { draftOf } from "../support/quotes.ts";

let store: Store;
let clock: ManualClock;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-22T10:00:00Z") });
  store = await openStore("memory://");
  clock = new ManualClock(Date.now());
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
});

describe("open orders through indexes", () => {
  it("an open order written before the index is listed after indexExisting, and leaves when settled", async () => {
    const ledger = new Ledger(store, clock);
    const action = await ledger.quote({ userId: 7, ...draftOf("buy", "btc", "100") });
    await ledger.confirm(action.id, 7);
    // What the version without indexes wrote when it sent the order: the record and the open key.
    const sentAt = clock.now();
    const confirmed = await ledger.get(action.id);
    await store.set(`order:${action.id}`, { ...confirmed, state: "sent", sentAt }, 30 * 86_400_000);
    await store.set(`order-open:7:${action.id}`, sentAt, 30 * 86_400_000);
    expect(await ledger.usersWithOpenActions()).toEqual([]);
    expect(await ledger.indexExisting()).toBe(1);
    expect(await ledger.usersWithOpenActions()).toEqual([7]);
    expect((await ledger.open(7)).map((a) => a.id)).toEqual([action.id]);
    await ledger.markSettled(action.id, "success");
    expect(await ledger.usersWithOpenActions()).toEqual([]);
    expect(await store.indexMembers("orders:open:7")).toEqual([]);
  });

  it("an open key gone by its TTL is dropped from both indexes by the next listing", async () => {
    const ledger = new Ledger(store, clock, { retentionMs: 60_000 });
    const action = await ledger.quote({ userId: 8, ...draftOf("sell", "btc", "1") });
    await ledger.confirm(action.id, 8);
    await ledger.markSent(action.id);
    expect(await ledger.usersWithOpenActions()).toEqual([8]);
    vi.setSystemTime(Date.now() + 120_000);
    clock.advance(120_000);
    expect(await ledger.open()).toEqual([]);
    expect(await store.indexMembers("orders:open")).toEqual([]);
    expect(await store.indexMembers("orders:open:8")).toEqual([]);
    expect(await ledger.usersWithOpenActions()).toEqual([]);
  });
});

describe("alerts through indexes", () => {
  it("alerts, fired states and pauses written before the indexes are loaded after indexExisting", async () => {
    const book = new AlertBook(store);
    const now = clock.now();
    // The version without indexes: plain records.
    const old = {
      id: "oldAlert0001",
      userId: 5,
      currency: "btc",
      kind: "above" as const,
      level: "60000",
      createdAt: now,
    };
    await store.set("alert:5:oldAlert0001", old);
    await store.set("alert-off:5:oldAlert0001", { at: now });
    await store.set("alerts-paused:6", { at: now });
    expect((await book.loadAll()).alerts).toEqual([]);
    expect(await book.indexExisting()).toBe(3);
    const added = await book.add(5, { currency: "eth", kind: "below", level: "2000" }, now + 1);
    if (!added.ok) throw new Error("the alert was not added");
    const all = await book.loadAll();
    expect(all.alerts.map((a) => a.id).sort()).toEqual([added.alert.id, "oldAlert0001"].sort());
    expect([...all.disarmed]).toEqual(["5:oldAlert0001"]);
    expect([...all.paused]).toEqual([6]);
    expect((await book.list(5)).map((a) => a.id)).toEqual(["oldAlert0001", added.alert.id]);
    expect((await book.loadUser(5)).disarmed).toEqual(new Set(["5:oldAlert0001"]));
    // Removed, re-armed, resumed: off every index.
    await book.remove(5, "oldAlert0001");
    await book.resume(6);
    const after = await book.loadAll();
    expect(after.alerts.map((a) => a.id)).toEqual([added.alert.id]);
    expect(after.disarmed.size).toBe(0);
    expect(after.paused.size).toBe(0);
    expect(await store.indexMembers("alerts")).toEqual([`5:${added.alert.id}`]);
    expect(await store.indexMembers("alerts:off")).toEqual([]);
  });

  it("a listed alert whose record was deleted behind the book's back drops out when read", async () => {
    const book = new AlertBook(store);
    const added = await book.add(9, { currency: "btc", kind: "above", level: "70000" }, clock.now());
    if (!added.ok) throw new Error("the alert was not added");
    await store.delete(`alert:9:${added.alert.id}`);
    expect(await book.list(9)).toEqual([]);
    expect(await store.indexMembers("alerts:9")).toEqual([]);
    expect((await book.loadAll()).alerts).toEqual([]);
    expect(await store.indexMembers("alerts")).toEqual([]);
  });
});

describe("partner master-balance alerts through an index", () => {
  it("an alert written before the index is listed after indexExisting, and leaves when removed", async () => {
    const alerts = new MasterAlerts(store);
    const old = { currency: "eur", threshold: "1000", armed: true, generation: 1, setBy: 3 };
    await store.set("master-alert:eur", old);
    expect(await alerts.list()).toEqual([]);
    expect(await alerts.indexExisting()).toBe(1);
    expect(await alerts.list()).toEqual([old]);
    expect(await alerts.remove("EUR")).toBe(true);
    expect(await alerts.list()).toEqual([]);
    expect(await store.indexMembers("partner:master-alerts")).toEqual([]);
  });
});
