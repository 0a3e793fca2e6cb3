/**
 * The safety net's records on real stores, time moved by the injected clock: the allowlist and
 * the cooling-off loosen only after the current cooling-off, a raised cap holds after 24 hours,
 * two reservations racing on two connections (two instances on Redis) never pass a cap together,
 * and nothing that names an address is readable in the SQLite file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionState } from "../../src/orders/action.ts";
import { COOLING_INDEX, coolingKey, HOUR_MS } from "../../src/safety/cooling.ts";
import { claimUsableNow } from "../../src/safety/cooling-notices.ts";
import { SafetyNet } from "../../src/safety/safety-net.ts";
import type { SecurityEvent } from "../../src/safety/security-events.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Store } from "../../src/store/store.ts";
import { Vault } from "../../src/store/vault.ts";
import { ManualClock } from "../../src/support/clock.ts";
import { type RedisServer, redisAvailable, redisUnavailableReason, startRedis } from "../support/redis.ts";

const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

/** Every security event the net raised, in order. */
function recorder(): {
  told: { userId: number; event: SecurityEvent }[];
  tell: (u: number, e: SecurityEvent) => Promise<void>;
} {
  const told: { userId: number; event: SecurityEvent }[] = [];
  return { told, tell: async (userId, event) => void told.push({ userId, event }) };
}

describe("safety net records (SQLite)", () => {
  const folder = mkdtempSync(join(tmpdir(), "safety-"));
  const file = join(folder, "bot.sqlite");
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));
  const vault = Vault.fromBase64(Vault.generateKey());
  const notices = recorder();
  let store: Store;
  let safety: SafetyNet;
  const nobodyPlaced = async (): Promise<ActionState | undefined> => "placed";

  beforeAll(async () => {
    store = await openStore(`sqlite://${file}`);
    safety = new SafetyNet({ store, vault, clock, notices, cooling: { defaultHours: 24, minimumHours: 2 } });
  });
  afterAll(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("is on for a user without a record, with the operator's default cooling-off", async () => {
    expect(await safety.allowlist.get(1)).toEqual({ on: true, hours: 24 });
  });

  it("saves an address sealed, usable after the cooling-off, and says so", async () => {
    const saved = await safety.saveAddress(2, { currency: "btc", label: "Cold wallet", address: BTC });
    expect(saved).toMatchObject({
      ok: true,
      existed: false,
      saved: { usableAt: clock.now() + 24 * HOUR_MS },
    });
    expect(notices.told.at(-1)).toEqual({
      userId: 2,
      event: {
        type: "address-saved",
        currency: "btc",
        label: "Cold wallet",
        address: BTC,
        usableAt: clock.now() + 24 * HOUR_MS,
      },
    });
    // Saved again (a new label): its cooling-off is neither restarted nor shortened.
    clock.advance(HOUR_MS);
    const again = await safety.saveAddress(2, { currency: "btc", label: "Cold", address: BTC });
    expect(again).toMatchObject({
      ok: true,
      existed: true,
      saved: { label: "Cold", usableAt: clock.now() + 23 * HOUR_MS },
    });
    await store.purgeDeleted();
    const raw = readFileSync(file).toString("latin1");
    expect(raw).not.toContain(BTC);
    expect(raw).not.toContain("Cold wallet");
  });

  it("turns the allowlist off only after the current cooling-off; on again cancels that", async () => {
    const user = 3;
    const off = await safety.setAllowlist(user, false);
    expect(off).toEqual({ ok: true, effectiveAt: clock.now() + 24 * HOUR_MS });
    clock.advance(23 * HOUR_MS);
    expect((await safety.allowlist.get(user)).on).toBe(true);
    clock.advance(HOUR_MS);
    expect((await safety.allowlist.get(user)).on).toBe(false);
    // Back on: at once.
    expect(await safety.setAllowlist(user, true)).toEqual({ ok: true, effectiveAt: clock.now() });
    expect((await safety.allowlist.get(user)).on).toBe(true);
    await safety.setAllowlist(user, false);
    await safety.setAllowlist(user, true);
    clock.advance(25 * HOUR_MS);
    expect((await safety.allowlist.get(user)).on).toBe(true);
  });

  it("lengthens the cooling-off at once, shortens it after the current one, refuses outside [minimum, 72]", async () => {
    const user = 4;
    expect(await safety.setCoolingHours(user, 48)).toEqual({ ok: true, effectiveAt: clock.now() });
    expect((await safety.allowlist.get(user)).hours).toBe(48);
    const shorter = await safety.setCoolingHours(user, 6);
    expect(shorter).toEqual({ ok: true, effectiveAt: clock.now() + 48 * HOUR_MS });
    clock.advance(47 * HOUR_MS);
    expect((await safety.allowlist.get(user)).hours).toBe(48);
    clock.advance(HOUR_MS);
    expect((await safety.allowlist.get(user)).hours).toBe(6);
    expect(await safety.setCoolingHours(user, 1)).toEqual({ ok: false, reason: "hours" });
    expect(await safety.setCoolingHours(user, 73)).toEqual({ ok: false, reason: "hours" });
    expect(notices.told.filter((n) => n.userId === user).map((n) => n.event.type)).toEqual([
      "cooling-off-changed",
      "cooling-off-changed",
    ]);
  });

  it("lowers a cap at once and raises it (or removes it) only after 24 hours, with a notice each time", async () => {
    const user = 5;
    expect(await safety.setCap(user, "withdraw", "500")).toEqual({ effectiveAt: clock.now() });
    expect(await safety.setCap(user, "withdraw", "200")).toEqual({ effectiveAt: clock.now() });
    const raised = await safety.setCap(user, "withdraw", "1000");
    expect(raised).toEqual({ effectiveAt: clock.now() + 24 * HOUR_MS });
    expect((await safety.caps.get(user, "withdraw")).amount).toBe("200");
    expect((await safety.caps.left(user, "withdraw", nobodyPlaced))?.toFixed()).toBe("200");
    clock.advance(24 * HOUR_MS - 1);
    expect((await safety.caps.get(user, "withdraw")).amount).toBe("200");
    clock.advance(1);
    expect((await safety.caps.get(user, "withdraw")).amount).toBe("1000");
    await safety.setCap(user, "withdraw", undefined);
    expect((await safety.caps.get(user, "withdraw")).amount).toBe("1000");
    clock.advance(24 * HOUR_MS);
    expect(await safety.caps.get(user, "withdraw")).toEqual({});
    expect(notices.told.filter((n) => n.userId === user).map((n) => n.event)).toContainEqual({
      type: "limit-changed",
      limit: "withdraw",
      currency: "eur",
      amount: "1000",
      effectiveAt: raised.effectiveAt,
    });
  });

  it("counts the last 24 hours of orders that may have happened, not cancelled ones", async () => {
    const user = 6;
    await safety.setCap(user, "buy", "100");
    const states = new Map<string, ActionState>();
    const stateOf = async (id: string) => states.get(id);
    states.set("a", "placed");
    expect(await safety.caps.reserve(user, "buy", "a", new Big(60), stateOf)).toEqual({ ok: true });
    const over = await safety.caps.reserve(user, "buy", "b", new Big(50), stateOf);
    expect(over).toMatchObject({ ok: false, cap: "100" });
    if (!over.ok) expect(over.left.toFixed()).toBe("40");
    states.set("a", "cancelled");
    expect(await safety.caps.reserve(user, "buy", "b", new Big(50), stateOf)).toEqual({ ok: true });
    states.set("b", "settled");
    clock.advance(24 * HOUR_MS + 1);
    expect((await safety.caps.left(user, "buy", stateOf))?.toFixed()).toBe("100");
  });
});

describe("the end of a cooling-off, told once", () => {
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));
  const vault = Vault.fromBase64(Vault.generateKey());
  let store: Store;
  beforeAll(async () => {
    store = await openStore("memory://cooling-notices");
  });
  afterAll(async () => {
    await store.close();
  });

  it("announces each address and bank account once, even when two ticks race, and unlists the user once the listing ends", async () => {
    const safety = new SafetyNet({ store, vault, clock, notices: recorder() });
    await safety.saveAddress(9, { currency: "btc", label: "Cold", address: BTC });
    await safety.bankAdded(9, { reference: "RF18539007547034", iban: "DE89 •••• 3000" });
    expect(await claimUsableNow(store, safety, clock.now())).toEqual([]);
    clock.advance(24 * HOUR_MS);
    const [first, second] = await Promise.all([
      claimUsableNow(store, safety, clock.now()),
      claimUsableNow(store, safety, clock.now()),
    ]);
    expect([...(first ?? []), ...(second ?? [])]).toEqual(
      expect.arrayContaining([
        { userId: 9, type: "address", label: "Cold", currency: "btc" },
        { userId: 9, type: "bank", iban: "DE89 •••• 3000" },
      ]),
    );
    expect([...(first ?? []), ...(second ?? [])]).toHaveLength(2);
    expect(await claimUsableNow(store, safety, clock.now())).toEqual([]);
    expect(await store.indexMembers(COOLING_INDEX)).toEqual(["9"]);
    // The listing's key lives a week past the last destination's time (a store TTL, real time): gone, the user leaves.
    await store.delete(coolingKey(9));
    await claimUsableNow(store, safety, clock.now());
    expect(await store.indexMembers(COOLING_INDEX)).toEqual([]);
  });
});

describe.skipIf(!redisAvailable())("a cap across two instances (Redis)", () => {
  if (!redisAvailable()) console.warn(redisUnavailableReason);
  let redis: RedisServer;
  let stores: Store[];
  const clock = new ManualClock(Date.parse("2026-11-22T10:00:00Z"));
  const vault = Vault.fromBase64(Vault.generateKey());

  beforeAll(async () => {
    redis = await startRedis();
    stores = [
      await openStore(redis.url, { namespace: "caps" }),
      await openStore(redis.url, { namespace: "caps" }),
    ];
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await redis.stop();
  });

  it("lets at most the cap's worth through when many reservations race on two connections", async () => {
    const nets = stores.map((store) => new SafetyNet({ store, vault, clock, notices: recorder() }));
    const [a, b] = nets as [SafetyNet, SafetyNet];
    await a.setCap(7, "withdraw", "100");
    const placed = async (): Promise<ActionState> => "placed";
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).caps.reserve(7, "withdraw", `o${i}`, new Big(30), placed),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect((await b.caps.left(7, "withdraw", placed))?.toFixed()).toBe("10");
  });
});
