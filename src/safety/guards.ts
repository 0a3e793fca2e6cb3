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
 * A sell's cap counts EUR, which only its quote knows: it is checked at the Confirm and before
 * the send, not before the exchange is asked.
 */
import Big from "big.js";
import type { OrderGuard } from "../orders/guards.ts";
import type { MoneyAction } from "../orders/kinds/index.ts";
import type { OrderRequest, QuoteRefusal } from "../orders/quote.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import type { Allowlist } from "./allowlist.ts";
import type { BankCooling } from "./bank-cooling.ts";
import { type CapKey, capCurrency, type SelfCaps, type StateOf } from "./caps.ts";
import type { SavedAddresses } from "./saved-addresses.ts";
import type { SecurityNotices } from "./security-events.ts";

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
}

/** Send to saved addresses only, and every new destination after its cooling-off. */
export function allowlistGuard(parts: SafetyGuardParts): OrderGuard {
  return {
    async refusal(_stage, userId, request) {
      if (request.kind !== "send" && request.kind !== "withdraw" && request.kind !== "partner-withdraw") {
        return undefined;
      }
      if (!(await parts.allowlist.get(userId)).on) return undefined;
      const now = parts.clock.now();
      if (request.kind === "send") {
        const saved = await parts.addresses.find(userId, request.currency, request.address);
        if (saved === undefined) return refusal(request, "address-unsaved", { currency: request.currency });
        if (saved.usableAt > now) return refusal(request, "address-cooling", { at: String(saved.usableAt) });
        return undefined;
      }
      const usableAt = await parts.banks.usableAt(userId, request.referenceNumber);
      if (usableAt !== undefined && usableAt > now)
        return refusal(request, "bank-cooling", { at: String(usableAt) });
      return undefined;
    },
  };
}

/** The user's own daily caps. */
export function capGuard(parts: SafetyGuardParts): OrderGuard {
  return {
    async refusal(stage, userId, request, action) {
      // A cancelled action is asked only so its tap hears why (a freeze): it reserves nothing.
      if (action?.state === "cancelled") return undefined;
      const key = capKeyOf(request);
      const amount = capAmount(request, action);
      if (amount === undefined) return undefined;
      if (stage !== "place" || action === undefined) {
        const left = await parts.caps.left(userId, key, parts.stateOf, action?.id);
        if (left === undefined || amount.lte(left)) return undefined;
        const cap = (await parts.caps.get(userId, key)).amount ?? "0";
        return overCap(request, key, cap, left);
      }
      const reserved = await parts.caps.reserve(userId, key, action.id, amount, parts.stateOf);
      if (!reserved.ok) return overCap(request, key, reserved.cap, reserved.left);
      await tellLargeOutflow(parts, userId, key, action, amount);
      return undefined;
    },
  };
}

/** The cap a request counts against. */
export function capKeyOf(request: OrderRequest): CapKey {
  switch (request.kind) {
    case "send":
      return `send:${request.currency}`;
    case "withdraw":
    case "partner-withdraw":
      return "withdraw";
    case "buy":
    case "partner-buy":
      return "buy";
    case "sell":
    case "partner-sell":
      return "sell";
  }
}

/** The amount in the cap's currency; a sell's only once quoted (its rate). */
function capAmount(request: OrderRequest, action: MoneyAction | undefined): Big | undefined {
  if (request.kind !== "sell" && request.kind !== "partner-sell") return new Big(request.amount);
  if (action === undefined || (action.kind !== "sell" && action.kind !== "partner-sell")) return undefined;
  return new Big(action.amount).times(action.quote.rate).round(2, Big.roundHalfUp);
}

async function tellLargeOutflow(
  parts: SafetyGuardParts,
  userId: number,
  key: CapKey,
  action: MoneyAction,
  amount: Big,
): Promise<void> {
  if (!(key === "withdraw" || key.startsWith("send:"))) return;
  const cap = (await parts.caps.get(userId, key)).amount;
  if (cap === undefined || amount.lte(new Big(cap).div(2))) return;
  if (!(await parts.store.setIfAbsent(`safety-large:${action.id}`, 1, 7 * 24 * 60 * 60_000))) return;
  await parts.notices.tell(userId, {
    type: "large-outflow",
    kind: action.kind,
    amount: amount.toFixed(),
    currency: capCurrency(key),
  });
}

function overCap(request: OrderRequest, key: CapKey, cap: string, left: Big): QuoteRefusal {
  return refusal(request, "own-limit", {
    cap,
    left: (left.gt(0) ? left : new Big(0)).toFixed(),
    currency: capCurrency(key),
  });
}

function refusal(
  request: OrderRequest,
  reason: QuoteRefusal["reason"],
  vars: Record<string, string>,
): QuoteRefusal {
  return { kind: request.kind, reason, vars };
}
