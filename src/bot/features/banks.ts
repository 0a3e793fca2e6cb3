/**
 * /banks: the user's bank accounts, one readable card each (name, masked IBAN, BIC, the RF
 * reference to copy, and whether the account is verified or still waits for its verification
 * deposit), with buttons to add and to remove one.
 *
 *   /banks          the list, with ➕ Add and 🗑 Remove
 *   /banks add      bank name → IBAN → BIC → verification amount → confirmation → POST v1/bank-accounts
 *                   → the reference number and how to verify the account by a small transfer
 *   /banks remove   a button per account → confirmation → DELETE v1/bank-accounts/{id}
 *
 * The IBAN (country, length, format, check digits) and the BIC (shape) are checked with ibantools
 * before anything is sent (ui/bank-input.ts). The exchange keeps at least one bank account: the
 * last one is refused here before the exchange is asked, and the exchange's own refusal is still
 * turned into a sentence. Nothing here moves money, so there is no order ledger: the POST happens
 * once per tap on the confirmation button, inside the conversation.
 *
 * The account views, cards and labels live in ui/bank-view.ts (/withdraw shows them too).
 */

import Big from "big.js";
import { InlineKeyboard } from "grammy";
import { EUR } from "../../domain/currency.ts";
import { groupIban } from "../../domain/iban.ts";
import { formatAmount, parseAmount } from "../../domain/money.ts";
import type { Refusal, Translate } from "../../domain/translate.ts";
import { ExchangeError } from "../../exchange/errors.ts";
import type { BankAccount } from "../../exchange/schemas.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { confirmBankAdd } from "../flows/bank-confirm.ts";
import { startBankCooling } from "../flows/bank-cooling.ts";
import { enterFlow, moneyFlowEntry } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { inMoneyFlow } from "../flows/money-flows.ts";
import { sessionCall } from "../flows/session-call.ts";
import { flowButtons, type WaitOptions, waitAnswer } from "../flows/wait.ts";
import { refusalWords } from "../middleware/error-boundary.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { amountRefusalText, sameLabel } from "../ui/amount.ts";
import { checkBankName, checkBic, checkIban } from "../ui/bank-input.ts";
import { type BankView, bankButtonLabel, bankCard, bankLabel, bankView, pickTyped } from "../ui/bank-view.ts";
import { BANK_REMOVE_PICKED, CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { chunkBlocks } from "../ui/chunks.ts";
import { escapeHtml } from "../ui/format.ts";
import { userText } from "../ui/user-text.ts";

export const BANKS_ADD_FLOW = "banks-add";
export const BANKS_REMOVE_FLOW = "banks-remove";
/** The list's buttons: they only start a flow. */
/** Buttons inside the flows: `bk:<nonce>:<action>`. */
const BUTTONS = FLOW_BUTTONS.banks;
const STALE_KEY = "banks-button-stale";
/** Wrong answers in a row before a step gives up (/cancel ends the flow at any time). */
const MAX_WRONG = 20;

function viewCard(t: Translate, bank: BankView): string {
  return bankCard(t, {
    id: bank.id,
    name: bank.name,
    iban: bank.iban,
    swift_bic: bank.bic,
    reference_number: bank.reference,
    state: bank.state,
  });
}

/** Buttons under the list: add one, and remove one when there is any. */
export function banksKeyboard(t: Translate, banks: readonly BankAccount[]): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard().text(t("banks-button-add"), CALLBACK.banksAdd.data());
  if (banks.length > 0) keyboard.text(t("banks-button-remove"), CALLBACK.banksRemove.data());
  return keyboard;
}

/** The `BANKS_ADD_FLOW` conversation, installed by bot.ts. */
export function banksAddConversation(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "safety">,
): FlowSpec {
  return { id: BANKS_ADD_FLOW, steps: addFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

/** The `BANKS_REMOVE_FLOW` conversation, installed by bot.ts. */
export function banksRemoveConversation(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">): FlowSpec {
  return { id: BANKS_REMOVE_FLOW, steps: removeFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function banksFeature(
  deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">,
): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("banks", requireLogin(deps), async (ctx, next) => {
    if (await inMoneyFlow(ctx)) return next();
    const word = ctx.match.trim().toLowerCase();
    if (word !== "" && (word === "add" || sameLabel(word, ctx.t("banks-button-add")))) {
      return enterFlow(ctx, BANKS_ADD_FLOW);
    }
    if (word !== "" && (word === "remove" || sameLabel(word, ctx.t("banks-button-remove")))) {
      return enterFlow(ctx, BANKS_REMOVE_FLOW);
    }
    const banks = await deps.sessions.use(ctx.from.id, (client) => client.bankAccounts());
    const keyboard = banksKeyboard(ctx.t, banks);
    if (banks.length === 0) {
      await ctx.reply(ctx.t("banks-none"), keyboard ? { reply_markup: keyboard } : {});
      return;
    }
    const cards = banks.map((bank) => bankCard(ctx.t, bank));
    const hasPending = banks.some((bank) => bank.state !== "verified");
    const parts = [ctx.t("banks-title", { count: banks.length }), ...cards];
    if (hasPending) parts.push(ctx.t("banks-pending-hint"));
    const messages = chunkBlocks(parts);
    for (const [index, text] of messages.entries()) {
      const last = index === messages.length - 1;
      await ctx.reply(text, { parse_mode: "HTML", ...(last && keyboard ? { reply_markup: keyboard } : {}) });
    }
  });

  composer.callbackQuery(CALLBACK.banksAdd.data(), requireLogin(deps), moneyFlowEntry(BANKS_ADD_FLOW));
  composer.callbackQuery(CALLBACK.banksRemove.data(), requireLogin(deps), moneyFlowEntry(BANKS_REMOVE_FLOW));
  // A button of a flow that is over (finished, cancelled, timed out, or before a restart's replay).
  composer.callbackQuery(BUTTONS.pattern, async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t(STALE_KEY) });
  });
  return composer;
}

// ── Add ─────────────────────────────────────────────────────────────────────────────────────────

type AddOutcome =
  | { kind: "created"; reference: string }
  | { kind: "refused"; message: string; field?: string };

function addFlow(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing" | "safety">) {
  return async function banksAdd(conversation: Flow, ctx: FlowContext): Promise<void> {
    const { own, wait: step } = await flowButtons(conversation, BUTTONS, STALE_KEY);
    // Read once and recorded, so a replay of the flow does not read the store again between its
    // steps: the amount is typed by the rules of this locale.
    const locale = await externalCall(conversation, () => ctx.i18n.getLocale());
    const existing = await sessionCall(conversation, ctx, deps, async (client) =>
      (await client.bankAccounts()).map((b) => b.iban),
    );

    /** Asks until `check` accepts the typed answer; undefined after too many wrong answers. */
    async function ask<T>(
      key: string,
      check: (
        text: string,
      ) => { ok: true; value: T } | { ok: false; refusal: Refusal } | { ok: false; sentence: string },
    ): Promise<T | undefined> {
      await ctx.reply(ctx.t(key), { parse_mode: "HTML" });
      for (let wrong = 0; wrong < MAX_WRONG; wrong++) {
        const answer = await waitAnswer(conversation, step);
        if (answer.kind === "tap") continue;
        const checked = check(answer.text);
        if (checked.ok) return checked.value;
        await answer.ctx.reply(
          "sentence" in checked ? checked.sentence : ctx.t(checked.refusal.key, checked.refusal.vars),
        );
      }
      await ctx.reply(ctx.t("banks-too-many-tries"));
      return undefined;
    }

    const name = await ask("banks-add-ask-name", (text) => {
      const c = checkBankName(text);
      return c.ok ? { ok: true, value: c.name } : c;
    });
    if (name === undefined) return;
    const iban = await ask("banks-add-ask-iban", (text) => {
      const c = checkIban(text, existing);
      return c.ok ? { ok: true, value: c.iban } : c;
    });
    if (iban === undefined) return;
    const bic = await ask("banks-add-ask-bic", (text) => {
      const c = checkBic(text);
      return c.ok ? { ok: true, value: c.bic } : c;
    });
    if (bic === undefined) return;
    const amount = await ask("banks-add-ask-amount", (text) => {
      const parsed = parseAmount(text, EUR, locale);
      return parsed.ok
        ? { ok: true, value: parsed.value.toFixed() }
        : { ok: false, sentence: amountRefusalText(ctx.t, parsed) };
    });
    if (amount === undefined) return;

    const amountText = formatAmount(new Big(amount), EUR, locale);
    const summary = ctx.t("banks-add-summary", {
      name: escapeHtml(userText(name)),
      iban: escapeHtml(groupIban(iban)),
      bic: escapeHtml(bic),
      amount: amountText,
    });
    if (!(await confirmBankAdd(conversation, ctx, { own, step }, summary))) return;

    const outcome = await sessionCall(conversation, ctx, deps, async (client): Promise<AddOutcome> => {
      try {
        const reference = await client.addBankAccount({
          name,
          iban,
          swiftBic: bic,
          amount: new Big(amount),
        });
        return { kind: "created", reference };
      } catch (error) {
        if (error instanceof ExchangeError && error.kind === "validation") {
          const field = Object.keys(error.fieldErrors)[0];
          return { kind: "refused", message: refusalWords(ctx.t, error), ...(field ? { field } : {}) };
        }
        throw error;
      }
    });
    if (outcome.kind === "refused") {
      await ctx.reply(ctx.t("banks-add-refused", { message: escapeHtml(outcome.message) }), {
        parse_mode: "HTML",
      });
      return;
    }
    await ctx.reply(
      ctx.t("banks-add-created", {
        name: escapeHtml(userText(name)),
        iban: escapeHtml(groupIban(iban)),
        reference: escapeHtml(outcome.reference),
        amount: amountText,
      }),
      { parse_mode: "HTML" },
    );
    await startBankCooling(conversation, ctx, deps, { reference: outcome.reference, iban });
  };
}

// ── Remove ──────────────────────────────────────────────────────────────────────────────────────

type RemoveOutcome =
  | { kind: "removed" }
  | { kind: "last" }
  | { kind: "gone" }
  | { kind: "refused"; message: string };

/** The remove flow's buttons: this run's data start and how it waits. */
interface RemoveRun {
  own: string;
  step: WaitOptions;
}

/** The bank account to remove, tapped or typed; undefined when the user cancels or gives up. */
async function pickBankToRemove(
  conversation: Flow,
  ctx: FlowContext,
  { own, step }: RemoveRun,
  banks: BankView[],
): Promise<BankView | undefined> {
  const keyboard = new InlineKeyboard();
  for (const bank of banks)
    keyboard.text(`🗑 ${bankButtonLabel(bank)}`, own + BUTTONS.actions.remove(bank.id)).row();
  keyboard.text(ctx.t("banks-button-cancel"), own + BUTTONS.actions.no());
  const list = banks.map((bank, index) => `${index + 1}. ${escapeHtml(bankLabel(bank))}`).join("\n");
  await ctx.reply(ctx.t("banks-remove-ask", { list }), { parse_mode: "HTML", reply_markup: keyboard });

  let chosen: BankView | undefined;
  for (let wrong = 0; chosen === undefined; ) {
    const answer = await waitAnswer(conversation, step);
    if (answer.kind === "tap") {
      if (answer.data === own + BUTTONS.actions.no()) {
        await answer.ctx.reply(ctx.t("flow-cancelled"));
        return undefined;
      }
      const id = BANK_REMOVE_PICKED.exec(answer.data)?.[1];
      chosen = banks.find((bank) => String(bank.id) === id);
      continue;
    }
    chosen = pickTyped(answer.text, banks);
    if (chosen !== undefined) break;
    if (sameLabel(answer.text, ctx.t("banks-button-cancel"))) {
      await answer.ctx.reply(ctx.t("flow-cancelled"));
      return undefined;
    }
    if (++wrong >= MAX_WRONG) {
      await ctx.reply(ctx.t("banks-too-many-tries"));
      return undefined;
    }
    await answer.ctx.reply(ctx.t("banks-remove-which", { count: banks.length }));
  }
  return chosen;
}

/** The removal confirmed (true) or the account kept (false). */
async function confirmRemoval(
  conversation: Flow,
  ctx: FlowContext,
  { own, step }: RemoveRun,
  chosen: BankView,
): Promise<boolean> {
  const yesLabel = ctx.t("banks-button-confirm-remove");
  const keepLabel = ctx.t("banks-button-keep");
  await ctx.reply(ctx.t("banks-remove-confirm", { card: viewCard(ctx.t, chosen) }), {
    parse_mode: "HTML",
    reply_markup: new InlineKeyboard()
      .text(yesLabel, own + BUTTONS.actions.removeSure(chosen.id))
      .text(keepLabel, own + BUTTONS.actions.no()),
  });
  for (;;) {
    const answer = await waitAnswer(conversation, step);
    const yes =
      answer.kind === "tap"
        ? answer.data === own + BUTTONS.actions.removeSure(chosen.id)
        : sameLabel(answer.text, yesLabel);
    const no =
      answer.kind === "tap" ? answer.data === own + BUTTONS.actions.no() : sameLabel(answer.text, keepLabel);
    if (no) {
      await answer.ctx.reply(ctx.t("banks-remove-kept"));
      return false;
    }
    if (yes) return true;
    if (answer.kind === "text") await answer.ctx.reply(ctx.t("banks-remove-confirm-hint"));
  }
}

function removeFlow(deps: Pick<BotDeps, "sessions" | "profiles" | "phishing">) {
  return async function banksRemove(conversation: Flow, ctx: FlowContext): Promise<void> {
    const { own, wait: step } = await flowButtons(conversation, BUTTONS, STALE_KEY);
    const banks = await sessionCall(conversation, ctx, deps, async (client) =>
      (await client.bankAccounts()).map(bankView),
    );
    if (banks.length === 0) {
      await ctx.reply(ctx.t("banks-none"));
      return;
    }
    // The exchange keeps at least one: refused here, before anything is sent.
    if (banks.length === 1) {
      await ctx.reply(ctx.t("banks-remove-last"));
      return;
    }
    const chosen = await pickBankToRemove(conversation, ctx, { own, step }, banks);
    if (chosen === undefined) return;
    if (!(await confirmRemoval(conversation, ctx, { own, step }, chosen))) return;

    const id = chosen.id;
    const outcome = await sessionCall(conversation, ctx, deps, async (client): Promise<RemoveOutcome> => {
      // Looked at again just before: another device may have removed one meanwhile.
      const now = await client.bankAccounts();
      if (!now.some((bank) => bank.id === id)) return { kind: "gone" };
      if (now.length <= 1) return { kind: "last" };
      try {
        await client.removeBankAccount(id);
        return { kind: "removed" };
      } catch (error) {
        if (error instanceof ExchangeError && (error.kind === "validation" || error.kind === "http")) {
          return { kind: "refused", message: refusalWords(ctx.t, error) };
        }
        if (error instanceof ExchangeError && error.kind === "not-found") return { kind: "gone" };
        throw error;
      }
    });
    const label = escapeHtml(bankLabel(chosen));
    switch (outcome.kind) {
      case "removed":
        await ctx.reply(ctx.t("banks-removed", { bank: label }), { parse_mode: "HTML" });
        return;
      case "last":
        await ctx.reply(ctx.t("banks-remove-last"));
        return;
      case "gone":
        await ctx.reply(ctx.t("banks-remove-gone", { bank: label }), { parse_mode: "HTML" });
        return;
      case "refused":
        await ctx.reply(ctx.t("banks-remove-refused", { message: escapeHtml(outcome.message) }), {
          parse_mode: "HTML",
        });
        return;
    }
  };
}
