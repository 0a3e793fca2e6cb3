/**
 * /send: crypto to an outside address (issue 4 §2).
 *
 *   currency (buttons from the price list, or typed; `/send btc` skips the question)
 *   → recipient address (cleaned of spaces and `bitcoin:…?amount=` wrappers, format and checksum
 *     checked for that currency: address-check.ts)
 *   → amount in the crypto (money.ts's parseAmount)
 *   → quote card: exchange fee, miner fee, total taken, balance after, EUR value and the
 *     crypto-withdrawal limit left, minimum; refused early with the reason when under the minimum,
 *     over the balance (fees included) or the limit, or when sending is closed for the asset
 *   → Confirm (exactly once, through the order ledger) → a fresh 2FA code typed by the user
 *   → POST v1/send with that code (order core: recorded before the POST, never retried)
 *   → the outcome; the settlement is reported by the order reconciliation's notices.
 *
 * Bad input anywhere gets a sentence saying what is wrong and the flow stays at its step.
 */

import Big from "big.js";
import type { Composer } from "grammy";
import type { AccountSession } from "../../exchange/account.ts";
import { formatAmount, parseAmount } from "../../money.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import { checkAddress, cleanAddress } from "../address-check.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { sessionCall } from "../flows/session-call.ts";
import {
  type CurrencyChoice,
  choicesOf,
  currencyKeyboard,
  knownCodes,
  resolveCurrency,
} from "../ui/currency-choice.ts";
import { amountRefusal, flowNonce, type Refusal, waitStep } from "../ui/flow-input.ts";
import { escapeHtml } from "../ui/format.ts";
import {
  askCodeAndPlace,
  cardFooter,
  cardKeyboard,
  codeConfirmedFeature,
  type OrderStepDeps,
  type OrderStepOptions,
  tellCodeOutcome,
  waitForDecision,
} from "../ui/order-steps.ts";

export const SEND_FLOW = "send";
const PREFIX = "snd";
const STEPS: OrderStepOptions = { prefix: PREFIX, keys: "send" };
const STALE_KEY = "send-button-stale";
const FLOW_TIMEOUT_MS = 15 * 60_000;
const EUR = "eur";
const EURO_WORDS = new Set(["eur", "euro", "euros", "€"]);

type Translate = (key: string, variables?: Record<string, string | number>) => string;

export interface SendRequest {
  currency: string;
  address: string;
  /** Decimal text, checked by parseAmount. */
  amount: string;
}

/** What the card shows; all decimal strings (JSON-safe, it is stored in the ledger). */
export interface SendQuote extends Record<string, string> {
  fee: string;
  minerFee: string;
  /** amount + fee + miner fee: what leaves the balance. */
  total: string;
  balance: string;
  minimum: string;
  /** EUR per unit, and the amount's EUR value (what the crypto-withdrawal limit counts). */
  rate: string;
  value: string;
}

export type SendQuoteResult = { ok: true; quote: SendQuote } | { ok: false; refusal: Refusal };

/**
 * Asks the exchange for everything the card shows and refuses early, with the reason (the exchange
 * stays the authority: the POST can still be refused). Amounts in refusals are formatted for `locale`.
 */
export async function sendQuote(
  client: AccountSession,
  request: SendRequest,
  locale: string,
): Promise<SendQuoteResult> {
  const { currency } = request;
  const amount = new Big(request.amount);
  const [open, fee, minerFee, minimum, balances, rate, limits] = await Promise.all([
    client.assetStatus("send", currency),
    client.fee("send", { currencyCode: currency }),
    client.minerFee(currency),
    client.minimum("send", currency),
    client.cryptoBalances(currency),
    client.exchangeRate(`${currency}${EUR}`).then((r) => r.price),
    client.limits("crypto_withdrawal"),
  ]);
  const code = currency.toUpperCase();
  const crypto = (value: Big) => formatAmount(value, currency, locale);
  const eur = (value: Big) => formatAmount(value, EUR, locale);
  if (!open) return { ok: false, refusal: { key: "send-refused-closed", vars: { code } } };
  if (amount.lt(minimum)) {
    return { ok: false, refusal: { key: "send-refused-minimum", vars: { minimum: crypto(minimum) } } };
  }
  const balance =
    balances.find((item) => item.currency_code.toLowerCase() === currency)?.balance ?? new Big(0);
  const total = amount.plus(fee).plus(minerFee);
  if (total.gt(balance)) {
    const most = balance.minus(fee).minus(minerFee);
    return {
      ok: false,
      refusal: {
        key: "send-refused-balance",
        vars: {
          balance: crypto(balance),
          total: crypto(total),
          fees: crypto(fee.plus(minerFee)),
          most: crypto(most.gt(0) ? most : new Big(0)),
        },
      },
    };
  }
  const value = amount.times(rate).round(2, Big.roundHalfUp);
  const quote: SendQuote = {
    fee: fee.toFixed(),
    minerFee: minerFee.toFixed(),
    total: total.toFixed(),
    balance: balance.toFixed(),
    minimum: minimum.toFixed(),
    rate: rate.toFixed(),
    value: value.toFixed(),
  };
  const record = limits.find((r) => r.limit.code === "crypto_withdrawal");
  if (record !== undefined) {
    const dayLeft = record.limit.daily.minus(record.spent.day_used);
    const monthLeft = record.limit.monthly.minus(record.spent.month_used);
    const left = dayLeft.lt(monthLeft) ? dayLeft : monthLeft;
    const clamped = left.lt(0) ? new Big(0) : left;
    quote.limitLeft = clamped.toFixed();
    quote.limitPeriod = dayLeft.lt(monthLeft) ? "day" : "month";
    if (value.gt(clamped)) {
      return {
        ok: false,
        refusal: {
          key: quote.limitPeriod === "day" ? "send-refused-limit-day" : "send-refused-limit-month",
          vars: { value: eur(value), left: eur(clamped) },
        },
      };
    }
  }
  return { ok: true, quote };
}

/** The quote card, from what the ledger recorded. */
export function sendCardText(t: Translate, action: MoneyAction, locale: string): string {
  const q = action.quote;
  const code = action.currency;
  const crypto = (value: string | undefined) => formatAmount(new Big(value ?? "0"), code, locale);
  const eur = (value: string | undefined) => formatAmount(new Big(value ?? "0"), EUR, locale);
  const lines = [
    t("send-card-title", { code: code.toUpperCase() }),
    "",
    t("send-card-amount", { amount: crypto(action.amount), value: eur(q.value) }),
    t("send-card-address", { address: escapeHtml(action.address ?? "") }),
    t("send-card-fee", { fee: crypto(q.fee) }),
    t("send-card-miner-fee", { fee: crypto(q.minerFee) }),
    t("send-card-total", { total: crypto(q.total) }),
    t("send-card-balance", {
      balance: crypto(q.balance),
      after: crypto(new Big(q.balance ?? "0").minus(q.total ?? "0").toFixed()),
    }),
    t("send-card-minimum", { minimum: crypto(q.minimum) }),
  ];
  lines.push(...cardFooter(t, STEPS, q, action.expiresAt, locale));
  return lines.join("\n");
}

export function sendFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "store" | "clock" | "log">,
  flows: Composer<BotContext>,
): Composer<BotContext> {
  return codeConfirmedFeature(deps, flows, {
    command: "send",
    flowId: SEND_FLOW,
    options: STEPS,
    staleKey: STALE_KEY,
    timeoutMs: FLOW_TIMEOUT_MS,
    flow: (stepDeps) => sendFlow(deps, stepDeps),
    enterArgs: (match) => [match.trim().slice(0, 32)],
  });
}

function sendFlow(deps: Pick<BotDeps, "sessions" | "profiles">, stepDeps: OrderStepDeps) {
  return async function send(conversation: Flow, ctx: FlowContext, typed = ""): Promise<void> {
    const userId = ctx.from?.id ?? 0;
    const nonce = await flowNonce(conversation);
    const step = { flow: PREFIX, nonce, staleKey: STALE_KEY };
    const locale = await ctx.i18n.getLocale();
    const currencies = await sessionCall(conversation, ctx, deps, async (client) =>
      choicesOf(await client.prices()),
    );

    // ── Currency ──
    let currency: string | undefined;
    let candidate = typed === "" ? undefined : pickCurrency(typed, currencies);
    if (typed !== "" && candidate === undefined) await ctx.reply(currencyRefusal(ctx.t, typed, currencies));
    while (currency === undefined) {
      if (candidate === undefined) {
        await ctx.reply(ctx.t("send-ask-currency"), {
          reply_markup: currencyKeyboard(currencies, (code) => `${PREFIX}:${nonce}:cur:${code}`),
        });
        const answer = await waitStep(conversation, step);
        candidate =
          answer.kind === "tap"
            ? currencies.find((c) => `cur:${c.code}` === answer.action)?.code
            : pickCurrency(answer.text, currencies);
        if (candidate === undefined) {
          if (answer.kind === "text") await answer.ctx.reply(currencyRefusal(ctx.t, answer.text, currencies));
          continue;
        }
      }
      const chosen = candidate;
      candidate = undefined;
      const open = await sessionCall(conversation, ctx, deps, (client) => client.assetStatus("send", chosen));
      if (!open) {
        await ctx.reply(ctx.t("send-refused-closed", { code: chosen.toUpperCase() }));
        continue;
      }
      currency = chosen;
    }
    const code = currency;
    const known = currencies.map((c) => c.code);

    // ── Address ──
    await ctx.reply(ctx.t("send-ask-address", { code: code.toUpperCase() }));
    let address: string | undefined;
    while (address === undefined) {
      const answer = await waitStep(conversation, step);
      if (answer.kind === "tap") continue;
      const checked = checkAddress(cleanAddress(answer.text), code, known);
      if (checked.ok) {
        address = checked.address;
        break;
      }
      const vars = {
        code: code.toUpperCase(),
        other: checked.reason === "other-currency" ? checked.other.toUpperCase() : "",
      };
      await answer.ctx.reply(ctx.t(`send-address-${checked.reason}`, vars));
    }
    const to = address;

    // ── Amount, quote, card ──
    let amount: string | undefined;
    let askAmount = true;
    for (;;) {
      if (amount === undefined) {
        if (askAmount) await ctx.reply(ctx.t("send-ask-amount", { code: code.toUpperCase(), address: to }));
        askAmount = false;
        const answer = await waitStep(conversation, step);
        if (answer.kind === "tap") continue;
        const parsed = parseAmount(answer.text, code);
        if (!parsed.ok) {
          const refusal = amountRefusal(parsed);
          await answer.ctx.reply(ctx.t(refusal.key, refusal.vars));
          continue;
        }
        amount = parsed.value.toFixed();
      }
      const request: SendRequest = { currency: code, address: to, amount };
      const quoted = await sessionCall(conversation, ctx, deps, async (client) => {
        const result = await sendQuote(client, request, locale);
        if (!result.ok) return result;
        const action = await stepDeps.ledger.quote({
          userId,
          kind: "send",
          currency: code,
          amount: request.amount,
          address: to,
          quote: result.quote,
        });
        return { ok: true as const, action };
      });
      if (!quoted.ok) {
        if (quoted.refusal.key === "send-refused-closed") {
          await ctx.reply(ctx.t(quoted.refusal.key, quoted.refusal.vars));
          return;
        }
        await ctx.reply(
          `${ctx.t(quoted.refusal.key, quoted.refusal.vars)}\n${ctx.t("send-ask-amount-again")}`,
        );
        amount = undefined;
        continue;
      }
      const action = quoted.action;
      await ctx.reply(sendCardText(ctx.t, action, locale), {
        parse_mode: "HTML",
        reply_markup: cardKeyboard(ctx.t, STEPS, action.id),
      });
      const decision = await waitForDecision(conversation, ctx, stepDeps, STEPS, action);
      if (decision.kind === "requote") continue;
      if (decision.kind === "done") return;
      const outcome = await askCodeAndPlace(conversation, ctx, stepDeps, STEPS, decision.action);
      await tellCodeOutcome(ctx, STEPS, outcome, (action) => ({
        amount: formatAmount(new Big(action.amount), action.currency, locale),
        address: escapeHtml(action.address ?? ""),
      }));
      return;
    }
  };
}

function pickCurrency(text: string, currencies: readonly CurrencyChoice[]): string | undefined {
  if (EURO_WORDS.has(text.trim().toLowerCase())) return undefined;
  return resolveCurrency(text, currencies)?.code;
}

function currencyRefusal(t: Translate, text: string, currencies: readonly CurrencyChoice[]): string {
  if (EURO_WORDS.has(text.trim().toLowerCase())) return t("send-eur");
  return t("send-unknown-currency", { input: text.slice(0, 32), codes: knownCodes(currencies) });
}
