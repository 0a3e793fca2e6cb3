/**
 * Bank accounts as the bot shows them: a JSON-safe view (it passes through `conversation.external`),
 * the state in words, an HTML card, a button label, and reading a typed choice. Shared by /banks
 * and /withdraw.
 */

import { compactIban, maskIban } from "../../domain/iban.ts";
import type { Translate } from "../../domain/translate.ts";
import type { BankAccount } from "../../exchange/schemas.ts";
import { sameLabel } from "./amount.ts";
import { statusText } from "./coded-values.ts";
import { escapeHtml } from "./format.ts";
import { userText } from "./user-text.ts";

/** A bank account, JSON-safe (it passes through `conversation.external`). */
export interface BankView {
  id: number;
  name: string;
  iban: string;
  bic: string;
  reference: string;
  state: string;
}

export function bankView(
  bank: Pick<BankAccount, "id" | "name" | "iban" | "swift_bic" | "reference_number" | "state">,
): BankView {
  return {
    id: bank.id,
    name: bank.name,
    iban: bank.iban,
    bic: bank.swift_bic,
    reference: bank.reference_number,
    state: bank.state,
  };
}

/** The state in words; a value the exchange may add later is worded too (ui/coded-values.ts), never its code. */
export function bankStateText(t: Translate, state: string): string {
  switch (state) {
    case "verified":
      return t("banks-state-verified");
    case "pending":
    case "unverified":
      return t("banks-state-pending");
    default:
      return statusText(t, state);
  }
}

/** One bank account as an HTML card (the exchange's record or its view); every value is escaped. */
export function bankCard(t: Translate, bank: BankAccount | BankView): string {
  const view = "bic" in bank ? bank : bankView(bank);
  return t("banks-card", {
    name: escapeHtml(userText(view.name)),
    iban: escapeHtml(maskIban(view.iban)),
    bic: escapeHtml(view.bic),
    reference: escapeHtml(view.reference),
    state: escapeHtml(bankStateText(t, view.state)),
  });
}

/** One account in a sentence or a list: its name and the masked IBAN (no HTML). */
export function bankLabel(bank: { name: string; iban: string }): string {
  const typed = userText(bank.name);
  const name = typed.length > 24 ? `${typed.slice(0, 23)}…` : typed;
  return `${name} · ${maskIban(bank.iban)}`;
}

/**
 * Telegram shows about 30 characters of a button; every bank button puts an icon and a space
 * before this label, so the label keeps to 28: the IBAN's last four digits (what tells a user's
 * accounts apart) always, the bank's name cut with "…" to fit.
 */
export const BANK_BUTTON_LABEL_MAX = 28;

/** A button label for one account: its name, shortened to fit, and the IBAN's last digits. */
export function bankButtonLabel(bank: { name: string; iban: string }): string {
  const tail = ` · •• ${compactIban(bank.iban).slice(-4)}`;
  const room = BANK_BUTTON_LABEL_MAX - graphemes(tail).length;
  const name = graphemes(userText(bank.name));
  return `${
    name.length > room
      ? `${name
          .slice(0, room - 1)
          .join("")
          .trimEnd()}…`
      : name.join("")
  }${tail}`;
}

const SEGMENTER = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function graphemes(text: string): string[] {
  return Array.from(SEGMENTER.segment(text), (part) => part.segment);
}

/** A typed choice: the position in the list (`2`), the IBAN's last four digits, or the whole IBAN. */
export function pickTyped(text: string, banks: readonly BankView[]): BankView | undefined {
  const typed = text.replace(/[\s.#]+/g, "").toUpperCase();
  if (/^\d{1,2}$/.test(typed)) return banks[Number(typed) - 1];
  if (typed === "") return undefined;
  const byIban = banks.filter((bank) => bank.iban.replace(/\s+/g, "").toUpperCase().endsWith(typed));
  if (typed.length >= 4 && byIban.length === 1) return byIban[0];
  const byLabel = banks.filter(
    (bank) =>
      sameLabel(text, bankButtonLabel(bank)) ||
      sameLabel(text, bankLabel(bank)) ||
      sameLabel(text, bank.name),
  );
  return byLabel.length === 1 ? byLabel[0] : undefined;
}
