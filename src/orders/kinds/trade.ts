/**
 * The quote of a buy or sell, and the early refusals: asks the exchange for the rate,
 * the fee, the minimum, the limit left, whether the asset is open and the balance, then either
 * refuses with a reason (nothing is recorded) or returns the numbers the card shows, as decimal
 * strings (JSON-safe: conversations store it).
 *
 * Units: a buy's amount is EUR (what the user pays before the fee), a sell's is the crypto. The
 * fee endpoint takes and returns EUR, so a sell's fee is asked for its EUR
 * value at the current rate.
 *
 * Limit mapping (the spec lists five limit types without saying which order counts against which;
 * the sandbox does the same): buy → `credit_card_buy` (the EUR amount, fee excluded); sell → none
 * of them (crypto leaves, EUR arrives in the account: neither a deposit nor a withdrawal), so a
 * sell's card says that no limit applies.
 *
 * The exchange stays the authority (rule 6): these checks are for the user's sake, and the POST
 * can still be refused.
 *
 * @example
 * const result = await tradeQuote(client, { kind: "buy", currency: "btc", amount: "100" });
 * if (!result.ok) reply(refusalText(t, result.refusal, locale)); // bot/ui/order-card.ts
 *
 * The two kinds' descriptors (buy.ts, sell.ts) are {@link tradeKind} of their side.
 */
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { roundDown } from "../../domain/money.ts";
import type { AccountSession } from "../../exchange/account.ts";
import type { LimitType } from "../../exchange/schemas.ts";
import type { KindAction } from "../action.ts";
import { checkLimit, type LimitNote } from "../limit-left.ts";
import { accountOf } from "../order-client.ts";
import { type KindQuoteResult, refuse } from "../refusal.ts";
import { type CapRule, type KindDescriptor, NOWHERE, noReceipt } from "./kind.ts";

export type TradeKind = "buy" | "sell";

export interface TradeRequest<K extends TradeKind = TradeKind> {
  kind: K;
  /** Lower-case crypto code. */
  currency: string;
  /** Decimal text, already checked by parseAmount: EUR for buy, the crypto for sell. */
  amount: string;
}

/** The card's numbers, all decimal strings; `limitType`/`limitLeft` absent when no limit applies. */
export interface TradeQuote extends LimitNote {
  /** EUR per unit of the crypto. */
  rate: string;
  /** EUR. */
  fee: string;
  /** What leaves the account: EUR (buy, fee included) or the crypto (sell). */
  pay: string;
  payCurrency: string;
  /** Roughly what arrives: the crypto (buy) or EUR after the fee (sell). */
  get: string;
  getCurrency: string;
  minimum: string;
  minimumCurrency: string;
  /** The balance the amount is taken from, in `payCurrency`. */
  balance: string;
}

export type TradeQuoteResult = KindQuoteResult<TradeQuote, TradeKind>;

export type TradeAction<K extends TradeKind = TradeKind> = KindAction<K, TradeQuote>;

/** The limit type each kind counts against (see the module comment); undefined: none applies. */
export const TRADE_LIMIT_TYPE: Record<TradeKind, LimitType | undefined> = {
  buy: "credit_card_buy",
  sell: undefined,
};

export async function tradeQuote(client: AccountSession, request: TradeRequest): Promise<TradeQuoteResult> {
  const { kind, currency } = request;
  const amount = new Big(request.amount);
  const limitType = TRADE_LIMIT_TYPE[kind];
  const [open, rate, minimum, balance, limits] = await Promise.all([
    client.assetStatus(kind, currency),
    client.exchangeRate(`${currency}${EUR}`).then((r) => r.price),
    client.minimum(kind, currency),
    kind === "buy"
      ? client.fiatBalance().then((b) => b.balance)
      : client
          .cryptoBalances(currency)
          .then((list) => list.find((item) => item.currency_code.toLowerCase() === currency)?.balance),
    limitType === undefined ? Promise.resolve([]) : client.limits(limitType),
  ]);
  const code = currency.toUpperCase();
  if (!open) return refuse(kind, "closed", { code });
  const minimumCurrency = kind === "buy" ? EUR : currency;
  if (amount.lt(minimum)) {
    return refuse(kind, "minimum", { minimum: minimum.toFixed(), currency: minimumCurrency });
  }
  const gross = kind === "buy" ? amount : amount.times(rate).round(2, Big.roundDown);
  if (gross.lt("0.01")) {
    return refuse(kind, "minimum", { minimum: minimum.toFixed(), currency: minimumCurrency });
  }
  const fee = await client.fee(kind, { amount: gross, currencyCode: currency });
  const have = balance ?? new Big(0);
  const quote: TradeQuote =
    kind === "buy"
      ? {
          rate: rate.toFixed(),
          fee: fee.toFixed(),
          pay: amount.plus(fee).toFixed(),
          payCurrency: EUR,
          get: rate.gt(0) ? roundDown(amount.div(rate), currency).toFixed() : "0",
          getCurrency: currency,
          minimum: minimum.toFixed(),
          minimumCurrency,
          balance: have.toFixed(),
        }
      : {
          rate: rate.toFixed(),
          fee: fee.toFixed(),
          pay: amount.toFixed(),
          payCurrency: currency,
          get: gross.minus(fee).toFixed(),
          getCurrency: EUR,
          minimum: minimum.toFixed(),
          minimumCurrency,
          balance: have.toFixed(),
        };
  if (kind === "sell" && new Big(quote.get).lte(0)) {
    return refuse(kind, "fee", { fee: fee.toFixed() });
  }
  if (have.lt(quote.pay)) {
    return refuse(kind, "balance", {
      balance: have.toFixed(),
      needed: quote.pay,
      currency: quote.payCurrency,
    });
  }
  const over = limitType === undefined ? undefined : checkLimit(quote, limits, limitType, gross);
  if (over !== undefined) return refuse(kind, "limit", over);
  return { ok: true, quote };
}

/** The one POST of a trade, named by its exchange method (`account.buy`), so "find references" finds it. */
export type TradePost = (
  account: AccountSession,
  order: { amount: Big; currencyCode: string },
) => Promise<void>;

/** A buy or sell of the user's own account: quoted here, no secret step, one POST never repeated. */
export function tradeKind<K extends TradeKind>(
  kind: K,
  facts: { transactionType: string; cap: CapRule<TradeRequest<K>, TradeAction<K>>; post: TradePost },
): KindDescriptor<K, TradeRequest<K>, TradeAction<K>> {
  return {
    kind,
    family: kind,
    api: "account",
    secret: "none",
    retriedWithKey: false,
    transactionTypes: [facts.transactionType],
    flow: "trade",
    words: "trade",
    destination: NOWHERE,
    cap: facts.cap,
    quote: (client, request) => tradeQuote(accountOf(client), request),
    draft: ({ currency, amount }, quote) => ({ kind, currency, amount, quote }),
    request: ({ currency, amount }) => ({ kind, currency, amount }),
    post: (client, { amount, currency }) =>
      noReceipt(facts.post(accountOf(client), { amount: new Big(amount), currencyCode: currency })),
  };
}
