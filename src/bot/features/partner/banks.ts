/**
 * /banks in partner mode: the partner user's bank accounts as cards, a View and a Remove button per
 * account and ➕ Add.
 *
 *   View    GET …/bank-accounts/{id}, every field the exchange sends (ui/fields.ts), copyable
 *   Remove  a confirmation, then DELETE …/bank-accounts/{id}; the last account is never removed
 *           (the list is read again just before, and the exchange's own refusal is worded too)
 *   Add     through the deprecated POST …/bank-accounts, said so first: bank name, IBAN and BIC
 *           checked with ibantools as typed (ui/bank-input.ts), a card to confirm, then one POST
 *
 * Callback data (ui/callback-data.ts): `pb:v:<id>`, `pb:r:<id>`, `pb:rr:<id>` (confirmed), `pb:k` (keep), `pb:add`.
 */
import { type CallbackQueryContext, InlineKeyboard } from "grammy";
import { groupIban } from "../../../domain/iban.ts";
import { ExchangeError } from "../../../exchange/errors.ts";
import type { PartnerBankView } from "../../../exchange/partner-schemas.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { Flow, FlowContext, PrivateContext } from "../../context.ts";
import type { BotDeps } from "../../deps.ts";
import { confirmBankAdd } from "../../flows/bank-confirm.ts";
import { startBankCooling } from "../../flows/bank-cooling.ts";
import { enterFlow } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { flowUserId } from "../../flows/user.ts";
import { flowButtons, type WaitOptions, waitAnswer } from "../../flows/wait.ts";
import { refusalWords } from "../../middleware/error-boundary.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { type Checked, checkBankName, checkBic, checkIban } from "../../ui/bank-input.ts";
import { bankButtonLabel, bankCard, bankLabel, bankStateText, bankView } from "../../ui/bank-view.ts";
import { CALLBACK, FLOW_BUTTONS } from "../../ui/callback-data.ts";
import { chunkBlocks } from "../../ui/chunks.ts";
import { answerTap, closeCard } from "../../ui/edit.ts";
import { fieldMessages } from "../../ui/fields.ts";
import { escapeHtml } from "../../ui/format.ts";
import { userText } from "../../ui/user-text.ts";

/** Not key-shaped on purpose: a conversation id, not a sentence. */
export const PARTNER_BANK_ADD_FLOW = "partnerBankAdd";
const MAX_WRONG = 20;
/** The flow's buttons are /banks' own (`bk:`): partner mode has no account-mode /banks flow beside it. */
const BUTTONS = FLOW_BUTTONS.banks;
const STALE_KEY = "banks-button-stale";

type AddOutcome =
  | { kind: "added" }
  | { kind: "refused"; message: string }
  /** The deprecated endpoint is gone (404, 405, 410). */
  | { kind: "gone" };

/** The `PARTNER_BANK_ADD_FLOW` conversation, installed by bot.ts. */
export function partnerBankAddConversation(
  deps: { partner: PartnerServices } & Pick<BotDeps, "safety">,
): FlowSpec {
  return { id: PARTNER_BANK_ADD_FLOW, steps: addFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function partnerBanksFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("banks", async (ctx) => {
    await showBanks(deps, ctx, ctx.match);
  });

  composer.callbackQuery(CALLBACK.partnerBankAdd.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, PARTNER_BANK_ADD_FLOW);
  });

  composer.callbackQuery(CALLBACK.partnerBankView.pattern, async (ctx) => {
    await showBank(deps, ctx);
  });

  composer.callbackQuery(CALLBACK.partnerBankRemove.pattern, async (ctx) => {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return answerTap(ctx);
    const bankId = CALLBACK.partnerBankRemove.read(ctx).id;
    const banks = await deps.partner.api.bankAccounts(id);
    const bank = banks.find((b) => b.id === bankId);
    if (bank === undefined) return answerTap(ctx, ctx.t("partner-banks-gone"), true);
    // The exchange keeps at least one: refused here, before anything is sent.
    if (banks.length <= 1) return answerTap(ctx, ctx.t("banks-remove-last"), true);
    await answerTap(ctx);
    await ctx.reply(ctx.t("banks-remove-confirm", { card: bankCard(ctx.t, bank) }), {
      parse_mode: "HTML",
      reply_markup: new InlineKeyboard()
        .text(ctx.t("banks-button-confirm-remove"), CALLBACK.partnerBankRemoveSure.data(bank.id))
        .text(ctx.t("banks-button-keep"), CALLBACK.partnerBankKeep.data()),
    });
  });

  composer.callbackQuery(CALLBACK.partnerBankKeep.data(), async (ctx) => {
    await answerTap(ctx);
    await closeCard(ctx, ctx.t("banks-remove-kept"));
  });

  composer.callbackQuery(CALLBACK.partnerBankRemoveSure.pattern, async (ctx) => {
    await removeBank(deps, ctx);
  });
  return composer;
}

function addFlow(deps: { partner: PartnerServices } & Pick<BotDeps, "safety">) {
  return async function partnerBankAdd(conversation: Flow, ctx: FlowContext): Promise<void> {
    const telegramId = flowUserId(ctx);
    const partnerUserId = await externalCall(conversation, () => deps.partner.users.partnerIdOf(telegramId));
    if (partnerUserId === undefined) {
      await ctx.reply(ctx.t("partner-not-linked"));
      return;
    }
    const existing = await externalCall(conversation, async () =>
      (await deps.partner.api.bankAccounts(partnerUserId)).map((bank) => bank.iban),
    );
    // The exchange marks this endpoint deprecated; the user is told whom to ask if it fails.
    await ctx.reply(ctx.t("partner-banks-add-intro", { contact: deps.partner.supportContact }));

    const { own, wait: step } = await flowButtons(conversation, BUTTONS, STALE_KEY);

    const name = await ask(conversation, ctx, step, {
      key: "banks-add-ask-name",
      check: checkBankName,
      field: "name",
    });
    if (name === undefined) return;
    const iban = await ask(conversation, ctx, step, {
      key: "banks-add-ask-iban",
      check: (text) => checkIban(text, existing),
      field: "iban",
    });
    if (iban === undefined) return;
    const bic = await ask(conversation, ctx, step, {
      key: "banks-add-ask-bic",
      check: checkBic,
      field: "bic",
    });
    if (bic === undefined) return;

    // What is sent is shown first and added only on Confirm, as in account mode (features/banks.ts).
    const summary = {
      name: escapeHtml(userText(name)),
      iban: escapeHtml(groupIban(iban)),
      bic: escapeHtml(bic),
    };
    if (
      !(await confirmBankAdd(conversation, ctx, { own, step }, ctx.t("partner-banks-add-summary", summary)))
    )
      return;

    const outcome = await addAccount(conversation, ctx, deps, { partnerUserId, name, iban, bic });
    if (outcome.kind === "gone") {
      await ctx.reply(ctx.t("partner-banks-add-gone", { contact: deps.partner.supportContact }));
      return;
    }
    if (outcome.kind === "refused") {
      await ctx.reply(ctx.t("banks-add-refused", { message: escapeHtml(outcome.message) }), {
        parse_mode: "HTML",
      });
      return;
    }
    // The account as the exchange now lists it (its reference is what a withdrawal names it by),
    // read back by its IBAN and shown as /banks shows an account, not as the exchange's answer.
    const added = await externalCall(conversation, async () => {
      const banks = await deps.partner.api.bankAccounts(partnerUserId);
      const found = banks.find((bank) => bank.iban.replace(/\s/g, "") === iban.replace(/\s/g, ""));
      return found === undefined ? undefined : bankView(found);
    });
    const parts =
      added === undefined
        ? [
            ctx.t("partner-banks-added-unlisted", {
              name: escapeHtml(userText(name)),
              iban: escapeHtml(groupIban(iban)),
            }),
          ]
        : [
            [
              ctx.t("partner-banks-added", {
                name: escapeHtml(userText(added.name)),
                iban: escapeHtml(groupIban(iban)),
              }),
              ctx.t("partner-banks-added-details", {
                reference: escapeHtml(added.reference),
                state: escapeHtml(bankStateText(ctx.t, added.state)),
              }),
            ].join("\n"),
          ];
    if (added !== undefined && added.state !== "verified") parts.push(ctx.t("banks-pending-hint"));
    await ctx.reply(parts.join("\n\n"), { parse_mode: "HTML" });
    if (added?.reference)
      await startBankCooling(conversation, ctx, deps, { reference: added.reference, iban });
  };
}

/** `/banks`: every bank account with its View and Remove buttons, and Add; `/banks add` adds one. */
async function showBanks(
  deps: { partner: PartnerServices },
  ctx: PrivateContext,
  words: string,
): Promise<void> {
  if (words.trim().toLowerCase() === "add") return enterFlow(ctx, PARTNER_BANK_ADD_FLOW);
  const id = await partnerUserOf(ctx, deps);
  if (id === undefined) return;
  const banks = await deps.partner.api.bankAccounts(id);
  const keyboard = new InlineKeyboard();
  for (const bank of banks) {
    keyboard
      .text(`👁 ${bankButtonLabel(bank)}`, CALLBACK.partnerBankView.data(bank.id))
      .text(ctx.t("banks-button-remove"), CALLBACK.partnerBankRemove.data(bank.id))
      .row();
  }
  keyboard.text(ctx.t("banks-button-add"), CALLBACK.partnerBankAdd.data());
  if (banks.length === 0) {
    await ctx.reply(ctx.t("banks-none"), { reply_markup: keyboard });
    return;
  }
  const messages = chunkBlocks([
    ctx.t("banks-title", { count: banks.length }),
    ...banks.map((bank) => bankCard(ctx.t, bank)),
  ]);
  for (const [index, text] of messages.entries()) {
    const last = index === messages.length - 1;
    await ctx.reply(text, { parse_mode: "HTML", ...(last ? { reply_markup: keyboard } : {}) });
  }
}

/** A bank account's View: every field the exchange keeps for it. */
async function showBank(
  deps: { partner: PartnerServices },
  ctx: CallbackQueryContext<PrivateContext>,
): Promise<void> {
  await ctx.answerCallbackQuery();
  const id = await partnerUserOf(ctx, deps);
  if (id === undefined) return;
  const bankId = CALLBACK.partnerBankView.read(ctx).id;
  let bank: PartnerBankView;
  try {
    bank = await deps.partner.api.bankAccount(id, bankId);
  } catch (error) {
    if (error instanceof ExchangeError && error.kind === "not-found") {
      await ctx.reply(ctx.t("partner-banks-gone"));
      return;
    }
    throw error;
  }
  const locale = await ctx.i18n.getLocale();
  const title = ctx.t("partner-banks-view-title");
  const empty = ctx.t("partner-banks-view-empty");
  for (const text of fieldMessages(ctx.t, title, bank.answer, locale, { copyable: true, empty })) {
    await ctx.reply(text, { parse_mode: "HTML" });
  }
}

/** A removal confirmed: the account read again, then removed (never the last one). */
async function removeBank(
  deps: { partner: PartnerServices },
  ctx: CallbackQueryContext<PrivateContext>,
): Promise<void> {
  const id = await partnerUserOf(ctx, deps);
  if (id === undefined) return answerTap(ctx);
  await answerTap(ctx);
  const bankId = CALLBACK.partnerBankRemoveSure.read(ctx).id;
  // Read again just before: another device may have removed one meanwhile.
  const banks = await deps.partner.api.bankAccounts(id);
  const bank = banks.find((b) => b.id === bankId);
  if (bank === undefined) {
    await closeCard(ctx, ctx.t("partner-banks-gone"));
    return;
  }
  if (banks.length <= 1) {
    await closeCard(ctx, ctx.t("banks-remove-last"));
    return;
  }
  try {
    await deps.partner.api.removeBankAccount(id, bankId);
  } catch (error) {
    if (error instanceof ExchangeError && error.kind === "not-found") {
      await closeCard(ctx, ctx.t("partner-banks-gone"));
      return;
    }
    if (error instanceof ExchangeError && (error.kind === "validation" || error.kind === "http")) {
      await closeCard(ctx, ctx.t("banks-remove-refused", { message: refusalWords(ctx.t, error) }));
      return;
    }
    throw error;
  }
  await closeCard(ctx, ctx.t("partner-banks-removed", { bank: bankLabel(bank) }));
}

/** One field of the new account, asked until it passes its check (a few tries). */
async function ask<K extends string>(
  conversation: Flow,
  ctx: FlowContext,
  step: WaitOptions,
  question: { key: string; check: (text: string) => Checked<K>; field: K },
): Promise<string | undefined> {
  const { key, check, field } = question;
  await ctx.reply(ctx.t(key), { parse_mode: "HTML" });
  for (let wrong = 0; wrong < MAX_WRONG; wrong++) {
    const answer = await waitAnswer(conversation, step);
    if (answer.kind === "tap") continue;
    const checked = check(answer.text);
    if (checked.ok) return (checked as Record<K, string>)[field];
    await answer.ctx.reply(ctx.t(checked.refusal.key, checked.refusal.vars));
  }
  await ctx.reply(ctx.t("banks-too-many-tries"));
  return undefined;
}

/** The account added at the exchange: added (its answer, JSON-safe), refused in words, or the endpoint gone. */
function addAccount(
  conversation: Flow,
  ctx: FlowContext,
  deps: { partner: PartnerServices },
  { partnerUserId, name, iban, bic }: { partnerUserId: number; name: string; iban: string; bic: string },
): Promise<AddOutcome> {
  return externalCall(conversation, async (): Promise<AddOutcome> => {
    try {
      await deps.partner.api.addBankAccount(partnerUserId, { name, iban, swift_bic: bic });
      return { kind: "added" };
    } catch (error) {
      if (error instanceof ExchangeError && error.kind === "validation") {
        return { kind: "refused", message: refusalWords(ctx.t, error) };
      }
      if (
        error instanceof ExchangeError &&
        (error.kind === "not-found" || error.status === 405 || error.status === 410)
      ) {
        return { kind: "gone" };
      }
      throw error;
    }
  });
}
