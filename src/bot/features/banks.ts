/**
 * /banks: the user's bank accounts, one readable card each (name, masked IBAN, BIC, the RF
 * reference to copy, and whether the account is verified or still waits for its verification
 * deposit).
 *
 * Listing only for now. Adding and removing an account come later: they hang off
 * `banksKeyboard` (buttons under the list) and their own conversations registered in
 * `banksFeature`; `bankCard` is shared with them (and with /withdraw, which shows the target).
 */
import { Composer, type InlineKeyboard } from "grammy";
import type { BankAccount } from "../../exchange/schemas.ts";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { chunkBlocks } from "../ui/chunks.ts";
import { escapeHtml } from "../ui/format.ts";
import { maskIban } from "../ui/iban.ts";

type Translate = (key: string, variables?: Record<string, string | number>) => string;

/** The state in words; values the exchange may add later are shown as they are. */
export function bankStateText(t: Translate, state: string): string {
  switch (state) {
    case "verified":
      return t("banks-state-verified");
    case "pending":
    case "unverified":
      return t("banks-state-pending");
    default:
      return t("banks-state-other", { state });
  }
}

/** One bank account as an HTML card; every value from the exchange is escaped. */
export function bankCard(t: Translate, bank: BankAccount): string {
  return t("banks-card", {
    name: escapeHtml(bank.name),
    iban: escapeHtml(maskIban(bank.iban)),
    bic: escapeHtml(bank.swift_bic),
    reference: escapeHtml(bank.reference_number),
    state: escapeHtml(bankStateText(t, bank.state)),
  });
}

/** Buttons under the list. None yet: "Add" and "Remove" arrive with the add/remove issue. */
export function banksKeyboard(_t: Translate, _banks: readonly BankAccount[]): InlineKeyboard | undefined {
  return undefined;
}

export function banksFeature(deps: Pick<BotDeps, "sessions">): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("banks", requireLogin(deps), async (ctx) => {
    const banks = await deps.sessions.use(ctx.from?.id ?? 0, (client) => client.bankAccounts());
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
  return composer;
}
