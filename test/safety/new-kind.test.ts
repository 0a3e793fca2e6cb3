/**
 * A new kind of money leaving the account is covered by the safety net through its descriptor
 * alone: the kind below exists in this test only (no line of src/ names it), and the allowlist,
 * the cooling-off, the user's own cap and a Freeze hold for it as for a send. The guards read a
 * kind's facts (where its money goes, how it counts against a cap: orders/kinds/kind.ts) through
 * the lookup production hands them (the registry's `descriptorOf`); this one knows one kind more.
 *
 * Real parts: the harness's SQLite store, the safety net's records, the Freezes and the
 * security notices, the clock moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionState, KindAction } from "../../src/orders/action.ts";
import type { GuardStage, OrderGuard } from "../../src/orders/guards.ts";
import { descriptorOf, type MoneyAction } from "../../src/orders/kinds/index.ts";
import { type KindDescriptor, sendCap, TO_ADDRESS } from "../../src/orders/kinds/kind.ts";
import type { OrderRequest } from "../../src/orders/quote.ts";
import { HOUR_MS } from "../../src/safety/cooling.ts";
import { freezeGuard } from "../../src/safety/freezes.ts";
import { allowlistGuard, capGuard, type SafetyGuardParts } from "../../src/safety/guards.ts";
import type { SecurityEvent } from "../../src/safety/security-events.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../support/harness.ts";

/** A payout of crypto to an outside address: a kind the registry does not have. */
interface PayoutRequest {
  kind: "payout";
  currency: string;
  address: string;
  amount: string;
}
type PayoutAction = KindAction<"payout", { fee: string }, { address: string }>;

/** The whole of the new kind: one descriptor. Its quote and POST are not asked here. */
const payout: KindDescriptor<"payout", PayoutRequest, PayoutAction> = {
  kind: "payout",
  family: "send",
  api: "account",
  secret: "code",
  retriedWithKey: false,
  transactionTypes: ["crypto_payout"],
  flow: "payout",
  words: "send",
  destination: TO_ADDRESS,
  cap: sendCap,
  quote: async () => ({ ok: true, quote: { fee: "0" } }),
  draft: ({ currency, address, amount }, quote) => ({ kind: "payout", currency, address, amount, quote }),
  request: ({ currency, address, amount }) => ({ kind: "payout", currency, address, amount }),
  post: async () => undefined,
};

type AnyRequest = OrderRequest | PayoutRequest;
type AnyAction = MoneyAction | PayoutAction;

const ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const OTHER = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";

describe("a new outflow kind, registered in this test alone", () => {
  let h: Harness;
  let ada: FakeUser;
  const told: { userId: number; event: SecurityEvent }[] = [];
  const states = new Map<string, ActionState>();
  let guards: OrderGuard<AnyRequest, AnyAction>[];

  const request = (amount: string, address = ADDRESS): PayoutRequest => ({
    kind: "payout",
    currency: "btc",
    address,
    amount,
  });
  /** The action the ledger would hold after the card's Confirm. */
  const action = (id: string, amount: string): PayoutAction => ({
    id,
    userId: ada.id,
    kind: "payout",
    currency: "btc",
    amount,
    address: ADDRESS,
    quote: { fee: "0" },
    state: "confirmed",
    createdAt: h.clock.now(),
    expiresAt: h.clock.now() + 60_000,
  });
  async function refusal(stage: GuardStage, asked: AnyRequest, recorded?: AnyAction) {
    for (const guard of guards) {
      const refused = await guard.refusal(stage, ada.id, asked, recorded);
      if (refused !== undefined) return refused;
    }
    return undefined;
  }

  beforeAll(async () => {
    h = await startHarness();
    h.watchSecurityNotices((userId, event) => void told.push({ userId, event }));
    ada = await h.loggedInUser();
    const { store, safety, securityNotices, freezes } = h.deps;
    const parts: SafetyGuardParts = {
      store,
      clock: h.clock,
      addresses: safety.addresses,
      banks: safety.banks,
      allowlist: safety.allowlist,
      caps: safety.caps,
      notices: securityNotices,
      stateOf: async (id) => states.get(id),
      // The registry's lookup, and the new kind beside it: nothing else is told about it.
      factsOf: (kind) => (kind === payout.kind ? payout : descriptorOf(kind)),
    };
    guards = [freezeGuard(freezes), allowlistGuard(parts), capGuard(parts)];
  });
  afterAll(async () => {
    await h.stop();
  });

  it("is refused to an address that is not saved, while the allowlist is on", async () => {
    expect(await refusal("quote", request("0.001", OTHER))).toEqual({
      kind: "payout",
      reason: "address-unsaved",
      vars: { currency: "btc" },
    });
  });

  it("waits for a saved address's cooling-off, and goes after it", async () => {
    const saved = await h.deps.safety.saveAddress(ada.id, {
      currency: "btc",
      label: "Cold",
      address: ADDRESS,
    });
    if (!saved.ok) throw new Error("not saved");
    expect(await refusal("quote", request("0.001"))).toEqual({
      kind: "payout",
      reason: "address-cooling",
      vars: { at: String(saved.saved.usableAt) },
    });
    h.clock.advance(25 * HOUR_MS);
    expect(await refusal("quote", request("0.001"))).toBeUndefined();
  });

  it("counts against the user's own cap of the crypto, shared with a send, and raises the large-outflow notice", async () => {
    await h.deps.safety.setCap(ada.id, "send:btc", "0.01");
    const first = action("payout-first", "0.008");
    states.set(first.id, "sent");
    expect(await refusal("place", request("0.008"), first)).toBeUndefined();
    expect(told.filter((t) => t.event.type === "large-outflow")).toEqual([
      { userId: ada.id, event: { type: "large-outflow", kind: "send", amount: "0.008", currency: "btc" } },
    ]);
    const ownLimit = { reason: "own-limit", vars: { cap: "0.01", left: "0.002", currency: "btc" } };
    expect(await refusal("quote", request("0.005"))).toEqual({ kind: "payout", ...ownLimit });
    const send = { kind: "send", currency: "btc", address: ADDRESS, amount: "0.005" } as const;
    expect(await refusal("quote", send)).toEqual({ kind: "send", ...ownLimit });
    // An order that did not happen stops counting.
    states.set(first.id, "failed");
    expect(await refusal("quote", request("0.005"))).toBeUndefined();
  });

  it("is refused at every stage once the user froze their money actions", async () => {
    await h.deps.freezes.freeze(ada.id, "user");
    const recorded = action("payout-frozen", "0.001");
    for (const stage of ["quote", "confirm", "place"] as const) {
      expect(await refusal(stage, request("0.001"), recorded)).toEqual({
        kind: "payout",
        reason: "frozen",
        vars: {},
      });
    }
  });
});
