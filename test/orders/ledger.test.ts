import { beforeEach, describe, expect, it } from "vitest";
import { isActionId, Ledger, type MoneyAction } from "../../src/orders/ledger.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { draftOf } from "../support/quotes.ts";

let store: Store;
let clock: ManualClock;
let ledger: Ledger;

beforeEach(async () => {
  store = await openStore("memory://");
  clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));
  ledger = new Ledger(store, clock, { quoteTtlMs: 60_000 });
});

const quote = (userId = 1, kind: MoneyAction["kind"] = "buy") =>
  ledger.quote({ userId, ...draftOf(kind, "BTC", "100") });

describe("Ledger", () => {
  it("records a quote with a url-safe 12-character id", async () => {
    const action = await quote();
    expect(isActionId(action.id)).toBe(true);
    expect(Buffer.byteLength(`ord:c:${action.id}`)).toBeLessThan(64);
    expect(await ledger.get(action.id)).toMatchObject({
      state: "quoted",
      currency: "btc",
      amount: "100",
      expiresAt: clock.now() + 60_000,
    });
    expect(await ledger.get("../../etc")).toBeUndefined();
  });

  it("goes quoted → confirmed → sent → placed → settled and leaves the open list", async () => {
    const action = await quote();
    expect((await ledger.confirm(action.id, 1)).ok).toBe(true);
    const sent = await ledger.markSent(action.id);
    expect(sent).toMatchObject({ state: "sent", sentAt: clock.now() });
    expect((await ledger.open(1)).map((a) => a.id)).toEqual([action.id]);
    expect(await ledger.usersWithOpenActions()).toEqual([1]);
    expect(await ledger.markPlaced(action.id, 77)).toMatchObject({ state: "placed", transactionId: 77 });
    expect(await ledger.open(1)).toHaveLength(1);
    expect(await ledger.markSettled(action.id, "success")).toMatchObject({
      state: "settled",
      outcome: "success",
    });
    expect(await ledger.open(1)).toEqual([]);
    expect(await ledger.open()).toEqual([]);
  });

  it("says whether a user may have open actions with one read, cleared once nothing is open", async () => {
    expect(await ledger.hasOpen(1)).toBe(false);
    const first = await quote();
    await ledger.confirm(first.id, 1);
    expect(await ledger.hasOpen(1)).toBe(false); // confirmed, not sent: nothing to reconcile
    await ledger.markSent(first.id);
    expect(await ledger.hasOpen(1)).toBe(true);
    expect(await ledger.hasOpen(2)).toBe(false);
    await ledger.markSettled(first.id, "success");
    expect(await ledger.hasOpen(1)).toBe(true); // until a listing finds nothing open
    expect(await ledger.open(1)).toEqual([]);
    expect(await ledger.hasOpen(1)).toBe(false);
  });

  it("a listing that found nothing keeps the flag of an action opened meanwhile", async () => {
    const first = await quote();
    await ledger.confirm(first.id, 1);
    await ledger.markSent(first.id);
    await ledger.markSettled(first.id, "success");
    // Another instance opens an action after this listing read the flag and the keys.
    const second = await quote(1, "sell");
    await ledger.confirm(second.id, 1);
    const listing = store.indexMembers;
    store.indexMembers = async (index) => {
      const members = await listing.call(store, index);
      await ledger.markSent(second.id);
      return members;
    };
    expect(await ledger.open(1)).toEqual([]);
    store.indexMembers = listing;
    expect(await ledger.hasOpen(1)).toBe(true);
    expect((await ledger.open(1)).map((a) => a.id)).toEqual([second.id]);
  });

  it("sent → unknown → not-placed, and final states do not move", async () => {
    const action = await quote();
    await ledger.confirm(action.id, 1);
    await ledger.markSent(action.id);
    expect(await ledger.markUnknown(action.id, "timeout")).toMatchObject({ state: "unknown" });
    expect(await ledger.markNotPlaced(action.id)).toMatchObject({ state: "not-placed" });
    expect(await ledger.markPlaced(action.id)).toBeUndefined();
    expect(await ledger.markSettled(action.id, "success")).toBeUndefined();
    expect((await ledger.get(action.id))?.state).toBe("not-placed");
  });

  it("refuses a second confirm, another user's confirm, and an unknown id", async () => {
    const action = await quote();
    expect(await ledger.confirm(action.id, 2)).toMatchObject({ ok: false, reason: "not-yours" });
    expect((await ledger.confirm(action.id, 1)).ok).toBe(true);
    expect(await ledger.confirm(action.id, 1)).toMatchObject({ ok: false, reason: "already" });
    expect(await ledger.confirm("AAAAAAAAAAAA", 1)).toEqual({ ok: false, reason: "unknown" });
  });

  it("confirms exactly once under 50 concurrent calls", async () => {
    const action = await quote();
    const results = await Promise.all(Array.from({ length: 50 }, () => ledger.confirm(action.id, 1)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "already")).toHaveLength(49);
    const sends = await Promise.all(Array.from({ length: 50 }, () => ledger.markSent(action.id)));
    expect(sends.filter((s) => s !== undefined)).toHaveLength(1);
  });

  it("confirms exactly once across two stores on one backend (two instances)", async () => {
    const a = new Ledger(await openStore("memory://ledger-shared"), clock);
    const b = new Ledger(await openStore("memory://ledger-shared"), clock);
    const action = await a.quote({ userId: 5, ...draftOf("sell", "eth", "0.5") });
    const results = await Promise.all([a.confirm(action.id, 5), b.confirm(action.id, 5)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("expires a quote after its TTL; the quote is not claimed", async () => {
    const action = await quote();
    clock.advance(60_000);
    expect(await ledger.confirm(action.id, 1)).toMatchObject({ ok: false, reason: "expired" });
    expect((await ledger.get(action.id))?.state).toBe("expired");
    expect(await ledger.confirm(action.id, 1)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("a newer quote of the same kind replaces the older one; other kinds are untouched", async () => {
    const old = await quote(1, "buy");
    const sell = await quote(1, "sell");
    const fresh = await quote(1, "buy");
    expect((await ledger.get(old.id))?.state).toBe("replaced");
    expect(await ledger.confirm(old.id, 1)).toMatchObject({ ok: false, reason: "replaced" });
    expect((await ledger.confirm(fresh.id, 1)).ok).toBe(true);
    expect((await ledger.confirm(sell.id, 1)).ok).toBe(true);
  });

  it("cancel and confirm exclude each other", async () => {
    const action = await quote();
    const [cancel, confirm] = await Promise.all([ledger.cancel(action.id, 1), ledger.confirm(action.id, 1)]);
    expect([cancel.ok, confirm.ok].filter(Boolean)).toHaveLength(1);
    const other = await quote();
    expect((await ledger.cancel(other.id, 1)).ok).toBe(true);
    expect(await ledger.confirm(other.id, 1)).toMatchObject({ ok: false, reason: "cancelled" });
  });

  it("a confirmed action waiting for its code can be cancelled, and then never sent", async () => {
    const action = await quote(1, "send");
    await ledger.confirm(action.id, 1);
    expect((await ledger.cancel(action.id, 1)).ok).toBe(true);
    expect(await ledger.markSent(action.id)).toBeUndefined();
  });

  it("reopens a sent action for a new code (the exchange refused the code: nothing happened)", async () => {
    const action = await quote(1, "withdraw");
    await ledger.confirm(action.id, 1);
    await ledger.markSent(action.id);
    const reopened = await ledger.reopenForCode(action.id);
    expect(reopened?.state).toBe("confirmed");
    expect(reopened?.sentAt).toBeUndefined();
    expect(await ledger.open(1)).toEqual([]);
    expect((await ledger.markSent(action.id))?.state).toBe("sent");
  });

  it("claims a transaction for one action only, and a notice once", async () => {
    expect(await ledger.claimTransaction(9, "aaaaaaaaaaaa")).toBe(true);
    expect(await ledger.claimTransaction(9, "aaaaaaaaaaaa")).toBe(true);
    expect(await ledger.claimTransaction(9, "bbbbbbbbbbbb")).toBe(false);
    expect(await ledger.claimNotice("aaaaaaaaaaaa", "settled")).toBe(true);
    expect(await ledger.claimNotice("aaaaaaaaaaaa", "settled")).toBe(false);
  });
});
