/**
 * The safety net's rules as the money pipeline's guards (orders/guards.ts), asked at the quote,
 * the Confirm and before the send claim:
 *
 * - allowlist: with it on, a send goes only to a saved address past its cooling-off, and a
 *   withdrawal to a bank account added through the bot only past its cooling-off;
 * - own caps: an amount over what is left of the user's own daily cap is refused; before the
 *   send claim the amount is reserved atomically (caps.ts), and a send or withdrawal above half
 *   of the cap raises a security notice (once per order).
 *
 * Which kinds they cover is the kinds' own facts (orders/kinds/kind.ts), never their names: where
 * the money goes (`destination`) and how it counts against a cap (`cap`), so a new kind is covered
 * by its descriptor alone (test/safety/new-kind.test.ts). A sell's cap counts EUR, which only its
 * quote knows: it is checked at the Confirm and before the send, not before the exchange is asked.
 */
import Big from "big.js";
import type { GuardedAction, GuardedRequest, OrderGuard } from "../orders/guards.ts";
import type { AnyKindDescriptor, OwnCap } from "../orders/kinds/kind.ts";
import type { QuoteRefusal } from "../orders/quote.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import type { Allowlist } from "./allowlist.ts";
import type { BankCooling } from "./bank-cooling.ts";
import { type CapKey, capCurrency, type SelfCaps, type StateOf } from "./caps.ts";
import type { SavedAddresses } from "./saved-addresses.ts";
import type { SecurityNotices } from "./security-events.ts";

/** The facts the guards read of a kind, found by its name (production: the registry's `descriptorOf`). */
export type KindFacts = Pick<AnyKindDescriptor, "family" | "destination" | "cap">;

export interface SafetyGuardParts {
  store: Store;
  clock: Clock;
  addresses: SavedAddresses;
  banks: BankCooling;
  allowlist: Allowlist;
  caps: SelfCaps;
  notices: SecurityNotices;
  /** The ledger state of an action (a cap counts orders that may have happened). */
  stateOf: StateOf;
  factsOf: (kind: string) => KindFacts;
}

/** Money to an address only when it is saved, and to any new destination only after its cooling-off. */
export function allowlistGuard<R extends GuardedRequest, A extends GuardedAction>(
  parts: SafetyGuardParts,
): OrderGuard<R, A> {
  return {
    async refusal(_stage, userId, request) {
      const destination = parts.factsOf(request.kind).destination;
      if (destination.to === "nowhere") return undefined;
      if (!(await parts.allowlist.get(userId)).on) return undefined;
      const now = parts.clock.now();
      if (destination.to === "address") {
        const { currency, address } = destination.of(request);
        const saved = await parts.addresses.find(userId, currency, address);
        if (saved === undefined) return refusal(request, "address-unsaved", { currency });
        if (saved.usableAt > now) return refusal(request, "address-cooling", { at: String(saved.usableAt) });
        return undefined;
      }
      const usableAt = await parts.banks.usableAt(userId, destination.of(request).referenceNumber);
      if (usableAt !== undefined && usableAt > now)
        return refusal(request, "bank-cooling", { at: String(usableAt) });
      return undefined;
    },
  };
}

/** The user's own daily caps. */
export function capGuard<R extends GuardedRequest, A extends GuardedAction>(
  parts: SafetyGuardParts,
): OrderGuard<R, A> {
  return {
    async refusal(stage, userId, request, action) {
      // A cancelled action is asked only so its tap hears why (a freeze): it reserves nothing.
      if (action?.state === "cancelled") return undefined;
      const facts = parts.factsOf(request.kind);
      const key = capKey(facts.cap.of(request));
      const amount = facts.cap.amount(request, action);
      if (amount === undefined) return undefined;
      if (stage !== "place" || action === undefined) {
        const left = await parts.caps.left(userId, key, parts.stateOf, action?.id);
        if (left === undefined || amount.lte(left)) return undefined;
        const cap = (await parts.caps.get(userId, key)).amount ?? "0";
        return overCap(request, key, cap, left);
      }
      const reserved = await parts.caps.reserve(userId, key, action.id, amount, parts.stateOf);
      if (!reserved.ok) return overCap(request, key, reserved.cap, reserved.left);
      if (facts.destination.to !== "nowhere") {
        await tellLargeOutflow(parts, userId, key, action.id, facts.family, amount);
      }
      return undefined;
    },
  };
}

/** The key a cap is kept under (caps.ts): its family's, a send's per crypto. */
function capKey(cap: OwnCap): CapKey {
  return cap.family === "send" ? `send:${cap.currency}` : cap.family;
}

/** Money that left above half of the user's own cap raises a notice, once per order. */
async function tellLargeOutflow(
  parts: SafetyGuardParts,
  userId: number,
  key: CapKey,
  actionId: string,
  family: KindFacts["family"],
  amount: Big,
): Promise<void> {
  const cap = (await parts.caps.get(userId, key)).amount;
  if (cap === undefined || amount.lte(new Big(cap).div(2))) return;
  if (!(await parts.store.setIfAbsent(`safety-large:${actionId}`, 1, 7 * 24 * 60 * 60_000))) return;
  // Worded by its family (a send, a withdrawal), whichever kind it was.
  await parts.notices.tell(userId, {
    type: "large-outflow",
    kind: family,
    amount: amount.toFixed(),
    currency: capCurrency(key),
  });
}

function overCap<K extends string>(
  request: { kind: K },
  key: CapKey,
  cap: string,
  left: Big,
): QuoteRefusal<K> {
  return refusal(request, "own-limit", {
    cap,
    left: (left.gt(0) ? left : new Big(0)).toFixed(),
    currency: capCurrency(key),
  });
}

function refusal<K extends string>(
  request: { kind: K },
  reason: QuoteRefusal["reason"],
  vars: Record<string, string>,
): QuoteRefusal<K> {
  return { kind: request.kind, reason, vars };
}
