/**
 * /withdraw: euros to one of the user's verified bank accounts (issue 4 §3).
 *
 *   bank account (a button per account, IBAN masked; accounts still waiting for their
 *   verification deposit are shown as not usable yet; also typed: its number or IBAN's end)
 *   → EUR amount (money.ts's parseAmount)
 *   → quote card: the account, amount, balance after, the fiat-withdrawal limit left; refused
 *     early with the reason when over the balance or the limit
 *   → Confirm (exactly once, through the order ledger) → a fresh 2FA code typed by the user
 *   → POST v1/fiat-withdrawal with the account's reference_number and that code (order core:
 *     recorded before the POST, never retried) → the outcome; settlement comes as an order notice.
 */

import Big from "big.js";
import { type Composer, InlineKeyboard } from "grammy";
import type { AccountSession } from "../../exchange/account.ts";
import { formatAmount, parseAmount } from "../../money.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import type { BotContext, Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { sessionCall } from "../flows/session-call.ts";
import { type BankView, bankButtonLabel, bankView, pickTyped } from "../ui/bank-view.ts";
import { amountRefusal, flowNonce, type Refusal, waitStep } from "../ui/flow-input.ts";
import { escapeHtml } from "../ui/format.ts";
import { maskIban } from "../ui/iban.ts";
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

export const WITHDRAW_FLOW = "withdraw";
const PREFIX = "wd";
const STEPS: OrderStepOptions = { prefix: PREFIX, keys: "withdraw" };
const STALE_KEY = "withdraw-button-stale";
const FLOW_TIMEOUT_MS = 15 * 60_000;
const EUR = "eur";

type Translate = (key: string, variables?: Record<string, string | number>) => string;

/** What the card shows; decimal strings and the account's name and masked IBAN (JSON-safe). */
export interface WithdrawQuote extends Record<string, string> {
  balance: string;
  bankName: string;
  bankIban: string;
}

export type WithdrawQuoteResult = { ok: true; quote: WithdrawQuote } | { ok: false; refusal: Refusal };

const isVerified = (bank: { state: string }) => bank.state === "verified";

/**
 * Asks the exchange for the balance, the fiat-withdrawal limit and the account (still there and
 * verified?), and refuses early with the reason. Amounts in refusals are formatted for `locale`.
 */
export async function withdrawQuote(
  client: AccountSession,
  request: { amount: string; bankId: number },
  locale: string,
): Promise<WithdrawQuoteResult> {
  const amount = new Big(request.amount);
  const [balance, limits, banks] = await Promise.all([
    client.fiatBalance().then((b) => b.balance),
    client.limits("fiat_withdrawal"),
    client.bankAccounts(),
  ]);
  const eur = (value: Big) => formatAmount(value, EUR, locale);
  const bank = banks.find((b) => b.id === request.bankId);
  if (bank === undefined) return { ok: false, refusal: { key: "withdraw-bank-gone" } };
  if (!isVerified(bank)) return { ok: false, refusal: { key: "withdraw-bank-pending" } };
  if (amount.gt(balance)) {
    return { ok: false, refusal: { key: "withdraw-refused-balance", vars: { balance: eur(balance) } } };
  }
  const quote: WithdrawQuote = {
    balance: balance.toFixed(),
    bankName: bank.name,
    bankIban: maskIban(bank.iban),
  };
  const record = limits.find((r) => r.limit.code === "fiat_withdrawal");
  if (record !== undefined) {
    const dayLeft = record.limit.daily.minus(record.spent.day_used);
    const monthLeft = record.limit.monthly.minus(record.spent.month_used);
    const left = dayLeft.lt(monthLeft) ? dayLeft : monthLeft;
    const clamped = left.lt(0) ? new Big(0) : left;
    quote.limitLeft = clamped.toFixed();
    quote.limitPeriod = dayLeft.lt(monthLeft) ? "day" : "month";
    if (amount.gt(clamped)) {
      return {
        ok: false,
        refusal: {
          key: quote.limitPeriod === "day" ? "withdraw-refused-limit-day" : "withdraw-refused-limit-month",
          vars: { left: eur(clamped) },
        },
      };
    }
  }
  return { ok: true, quote };
}

/** The quote card, from what the ledger recorded. */
export function withdrawCardText(t: Translate, action: MoneyAction, locale: string): string {
  const q = action.quote;
  const eur = (value: string | undefined) => formatAmount(new Big(value ?? "0"), EUR, locale);
  const lines = [
    t("withdraw-card-title"),
    "",
    t("withdraw-card-amount", { amount: eur(action.amount) }),
    t("withdraw-card-bank", { name: escapeHtml(q.bankName ?? ""), iban: escapeHtml(q.bankIban ?? "") }),
    t("withdraw-card-reference", { reference: escapeHtml(action.referenceNumber ?? "") }),
    t("withdraw-card-balance", {
      balance: eur(q.balance),
      after: eur(new Big(q.balance ?? "0").minus(action.amount).toFixed()),
    }),
  ];
  lines.push(...cardFooter(t, STEPS, q, action.expiresAt, locale));
  return lines.join("\n");
}

export function withdrawFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "store" | "clock" | "log">,
  flows: Composer<BotContext>,
): Composer<BotContext> {
  return codeConfirmedFeature(deps, flows, {
    command: "withdraw",
    flowId: WITHDRAW_FLOW,
    options: STEPS,
    staleKey: STALE_KEY,
    timeoutMs: FLOW_TIMEOUT_MS,
    flow: (stepDeps) => withdrawFlow(deps, stepDeps),
  });
}

function withdrawFlow(deps: Pick<BotDeps, "sessions" | "profiles">, stepDeps: OrderStepDeps) {
  return async function withdraw(conversation: Flow, ctx: FlowContext): Promise<void> {
    const userId = ctx.from?.id ?? 0;
    const nonce = await flowNonce(conversation);
    const step = { flow: PREFIX, nonce, staleKey: STALE_KEY };
    const locale = await ctx.i18n.getLocale();
    const banks = await sessionCall(conversation, ctx, deps, async (client) =>
      (await client.bankAccounts()).map(bankView),
    );
    if (banks.length === 0) {
      await ctx.reply(ctx.t("withdraw-no-banks"));
      return;
    }
    if (!banks.some(isVerified)) {
      const list = banks.map((bank) => `⏳ ${bankButtonLabel(bank)}`).join("\n");
      await ctx.reply(ctx.t("withdraw-none-verified", { list }));
      return;
    }

    // ── Bank account ──
    const keyboard = new InlineKeyboard();
    for (const bank of banks) {
      const verified = isVerified(bank);
      keyboard
        .text(
          verified ? `🏦 ${bankButtonLabel(bank)}` : `⏳ ${bankButtonLabel(bank)}`,
          `${PREFIX}:${nonce}:${verified ? "b" : "p"}:${bank.id}`,
        )
        .row();
    }
    const list = banks
      .map(
        (bank, index) =>
          `${index + 1}. ${bankButtonLabel(bank)}${isVerified(bank) ? "" : ` ${ctx.t("withdraw-pending-mark")}`}`,
      )
      .join("\n");
    await ctx.reply(ctx.t("withdraw-ask-bank", { list }), { reply_markup: keyboard });
    let bank: BankView | undefined;
    while (bank === undefined) {
      const answer = await waitStep(conversation, step);
      const picked =
        answer.kind === "tap"
          ? banks.find((b) => /^[bp]:(\d+)$/.exec(answer.action)?.[1] === String(b.id))
          : pickTyped(answer.text, banks);
      if (picked === undefined) {
        if (answer.kind === "text")
          await answer.ctx.reply(ctx.t("withdraw-which-bank", { count: banks.length }));
        continue;
      }
      if (!isVerified(picked)) {
        await answer.ctx.reply(ctx.t("withdraw-bank-pending"));
        continue;
      }
      bank = picked;
    }
    const target = bank;

    // ── Amount, quote, card ──
    let amount: string | undefined;
    let askAmount = true;
    for (;;) {
      if (amount === undefined) {
        if (askAmount) await ctx.reply(ctx.t("withdraw-ask-amount", { bank: bankButtonLabel(target) }));
        askAmount = false;
        const answer = await waitStep(conversation, step);
        if (answer.kind === "tap") continue;
        const parsed = parseAmount(answer.text, EUR);
        if (!parsed.ok) {
          const refusal = amountRefusal(parsed);
          await answer.ctx.reply(ctx.t(refusal.key, refusal.vars));
          continue;
        }
        amount = parsed.value.toFixed();
      }
      const value = amount;
      const quoted = await sessionCall(conversation, ctx, deps, async (client) => {
        const result = await withdrawQuote(client, { amount: value, bankId: target.id }, locale);
        if (!result.ok) return result;
        const action = await stepDeps.ledger.quote({
          userId,
          kind: "withdraw",
          currency: EUR,
          amount: value,
          referenceNumber: target.reference,
          quote: result.quote,
        });
        return { ok: true as const, action };
      });
      if (!quoted.ok) {
        const sentence = ctx.t(quoted.refusal.key, quoted.refusal.vars);
        if (quoted.refusal.key === "withdraw-bank-gone" || quoted.refusal.key === "withdraw-bank-pending") {
          await ctx.reply(sentence);
          return;
        }
        await ctx.reply(`${sentence}\n${ctx.t("withdraw-ask-amount-again")}`);
        amount = undefined;
        continue;
      }
      const action = quoted.action;
      await ctx.reply(withdrawCardText(ctx.t, action, locale), {
        parse_mode: "HTML",
        reply_markup: cardKeyboard(ctx.t, STEPS, action.id),
      });
      const decision = await waitForDecision(conversation, ctx, stepDeps, STEPS, action);
      if (decision.kind === "requote") continue;
      if (decision.kind === "done") return;
      const outcome = await askCodeAndPlace(conversation, ctx, stepDeps, STEPS, decision.action);
      await tellCodeOutcome(ctx, STEPS, outcome, (action) => ({
        amount: formatAmount(new Big(action.amount), EUR, locale),
        bank: escapeHtml(`${action.quote.bankName ?? ""} · ${action.quote.bankIban ?? ""}`),
      }));
      return;
    }
  };
}
