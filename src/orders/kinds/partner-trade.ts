/**
 * The quote of a partner buy or sell (partner mode): the rate (GET …/exchange-rates), the
 * minimum (GET …/limits/minimum) and the user's balance (GET …/users/{id}/balances), read
 * tolerantly by the partner client (exchange/partner-schemas.ts: the API reference shows no
 * payload for them), and the early
 * refusals. The partner API has no fee endpoint, so the card shows no fee, and the partner user
 * limits cover fiat deposits and withdrawals only, so no limit applies to a trade.
 *
 * Units as in account mode: a buy's amount is EUR, a sell's the crypto; the pair is the crypto's
 * code followed by `eur`, as the API's pairs are written.
 *
 * @example
 * const result = await partnerTradeQuote(partner, { kind: "partner-buy", currency: "btc", amount: "100" });
 *
 * The two kinds' descriptors (partner-buy.ts, partner-sell.ts) are {@link partnerTradeKind} of their side.
 */
import { randomUUID } from "node:crypto";
import Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { roundDown } from "../../domain/money.ts";
import type { PartnerMinimums } from "../../exchange/partner-schemas.ts";
import type { Keyed, KindAction } from "../action.ts";
import { type PartnerClient, partnerOf } from "../order-client.ts";
import { type KindQuoteResult, refuse } from "../refusal.ts";
import { type CapRule, type KindDescriptor, NOWHERE } from "./kind.ts";

export type PartnerTradeKind = "partner-buy" | "partner-sell";

/** A partner buy (EUR) or sell (the crypto), for the partner user linked to the Telegram user. */
export interface PartnerTradeRequest<K extends PartnerTradeKind = PartnerTradeKind> {
  kind: K;
  currency: string;
  amount: string;
  /**
   * A recurring plan's run (plans/runner.ts): the key derived from the plan and the run's date,
   * so every attempt of that run, on any instance, is one order. Absent for a card: a fresh one.
   */
  idempotencyKey?: string;
}

/** The card's numbers (decimal strings); `minimum` and `balance` absent when the exchange's answer had none. */
export interface PartnerTradeQuote {
  pair: string;
  rate: string;
  pay: string;
  payCurrency: string;
  /** Roughly what arrives, before the exchange's fee. */
  get: string;
  getCurrency: string;
  minimum?: string;
  minimumCurrency?: string;
  balance?: string;
  /** EUR, when the exchange named one (the partner API has no fee endpoint today). */
  fee?: string;
}

export type PartnerTradeAction<K extends PartnerTradeKind = PartnerTradeKind> = KindAction<
  K,
  PartnerTradeQuote,
  Keyed
>;

export const pairOf = (currency: string) => `${currency}${EUR}`;

/** The minimum of a buy (EUR) or sell (the crypto) in the partner's answer; undefined when it names none. */
function minimumOf(minimums: PartnerMinimums, kind: PartnerTradeKind): Big | undefined {
  return kind === "partner-buy" ? minimums.buy : minimums.sell;
}

/**
 * The partner's minimum of a buy (EUR) or sell (the crypto) of `currency`, read as a quote reads
 * it: a recurring plan below it is refused when it is made, not at every run.
 */
export async function partnerTradeMinimum(
  api: PartnerClient["api"],
  kind: PartnerTradeKind,
  currency: string,
): Promise<Big | undefined> {
  return minimumOf(await api.minimumLimits({ pair: pairOf(currency) }), kind);
}

export async function partnerTradeQuote(
  { api, partnerUserId }: PartnerClient,
  request: PartnerTradeRequest,
): Promise<KindQuoteResult<PartnerTradeQuote, PartnerTradeKind>> {
  const { kind, currency } = request;
  const buy = kind === "partner-buy";
  const pair = pairOf(currency);
  const amount = new Big(request.amount);
  const [rates, minimums, balances] = await Promise.all([
    api.exchangeRates({ pair }),
    api.minimumLimits({ pair }),
    api.userBalance(partnerUserId),
  ]);
  const rate = rates.asked;
  if (rate === undefined || rate.lte(0)) return refuse(kind, "closed", { code: currency.toUpperCase() });
  const minimum = minimumOf(minimums, kind);
  const minimumCurrency = buy ? EUR : currency;
  if (minimum !== undefined && amount.lt(minimum)) {
    return refuse(kind, "minimum", { minimum: minimum.toFixed(), currency: minimumCurrency });
  }
  const payCurrency = buy ? EUR : currency;
  const balance = balances.spendable.get(payCurrency);
  const quote: PartnerTradeQuote = {
    pair,
    rate: rate.toFixed(),
    pay: amount.toFixed(),
    payCurrency,
    get: buy
      ? roundDown(amount.div(rate), currency).toFixed()
      : amount.times(rate).round(2, Big.roundDown).toFixed(),
    getCurrency: buy ? currency : EUR,
  };
  if (minimum !== undefined) {
    quote.minimum = minimum.toFixed();
    quote.minimumCurrency = minimumCurrency;
  }
  if (balance !== undefined) {
    quote.balance = balance.toFixed();
    if (balance.lt(amount)) {
      return refuse(kind, "balance", {
        balance: balance.toFixed(),
        needed: amount.toFixed(),
        currency: payCurrency,
      });
    }
  }
  return { ok: true, quote };
}

/** The one POST of a partner trade, named by its partner API method (`api.buy`), so "find references" finds it. */
export type PartnerTradePost = (
  api: PartnerClient["api"],
  partnerUserId: number,
  order: Parameters<PartnerClient["api"]["buy"]>[1],
) => Promise<{ transaction_id: number }>;

/**
 * A partner buy or sell: quoted here, no secret step, and a POST that carries the idempotency key
 * fixed when the action was recorded, so a lost answer is asked again with it (place.ts).
 */
export function partnerTradeKind<K extends PartnerTradeKind>(
  kind: K,
  facts: {
    family: "buy" | "sell";
    transactionType: string;
    cap: CapRule<PartnerTradeRequest<K>, PartnerTradeAction<K>>;
    post: PartnerTradePost;
  },
): KindDescriptor<K, PartnerTradeRequest<K>, PartnerTradeAction<K>> {
  return {
    kind,
    family: facts.family,
    api: "partner",
    secret: "none",
    retriedWithKey: true,
    transactionTypes: [facts.transactionType],
    flow: "partner-trade",
    words: "partner-trade",
    destination: NOWHERE,
    cap: facts.cap,
    quote: (client, request) => partnerTradeQuote(partnerOf(client), request),
    // Fixed before anything is sent, once per action: a double tap is one action, so one key.
    draft: ({ currency, amount, idempotencyKey }, quote) => ({
      kind,
      currency,
      amount,
      quote,
      idempotencyKey: idempotencyKey ?? randomUUID(),
    }),
    request: ({ currency, amount }) => ({ kind, currency, amount }),
    async post(client, { amount, quote, idempotencyKey }) {
      const { api, partnerUserId } = partnerOf(client);
      const order = { amount: new Big(amount), pair: quote.pair, idempotencyKey };
      return { transactionId: (await facts.post(api, partnerUserId, order)).transaction_id };
    },
  };
}
