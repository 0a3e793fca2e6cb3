/**
 * A transaction for people, in both modes: one line of the list ("✅ done · #1001 Buy · €100.00 →
 * 0.0017 BTC", then its time) and the card of `/tx` with every detail the exchange sent. Account
 * mode passes the exchange's transactions; partner mode what exchange/partner-read.ts read from its
 * unspecified payload (so every field may be missing).
 *
 * The exchange documents only id, state, type and the two timestamps; the amount, currency, fee
 * and so on are extra fields. They are shown when present and well-formed. For a buy the ordered
 * `amount` is in EUR (as the exchange's API reference gives it), for everything else it is in the
 * transaction's currency. Types and states other spellings may carry (`buy`, `completed`) read
 * as the documented ones (ui/coded-values.ts); values nobody knows get a neutral word, never their code.
 *
 * @example
 * const lines = rows.map((tx) => transactionLine(ctx.t, tx, locale));
 */
import { type Big, decimalFrom, formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import type { PartnerTxItem, TxView } from "../../exchange/partner-read.ts";
import { kindOf, kindsOf } from "../../orders/kinds/index.ts";
import { transactionStateText, transactionTypeText } from "./coded-values.ts";
import { fieldLines } from "./fields.ts";
import { escapeHtml, formatDateTime } from "./format.ts";

const CODE = /^[a-z0-9]{1,12}$/;
const NONE = "—";

/**
 * The transaction types whose amounts read as a buy's or a sell's: those of the kinds of that
 * family (their descriptors'), and the other spelling a row may carry (coded-values.ts).
 */
const typesOf = (family: "buy" | "sell", otherSpelling: string) =>
  new Set([...kindsOf(family).flatMap((kind) => kindOf(kind).transactionTypes), otherSpelling]);
const BUY_TYPES = typesOf("buy", "buy");
const SELL_TYPES = typesOf("sell", "sell");

function extraCurrency(tx: TxView): string | undefined {
  const value = tx.currency_code;
  if (typeof value !== "string") return undefined;
  const code = value.toLowerCase();
  return CODE.test(code) ? code : undefined;
}

function extraDecimal(tx: TxView, field: string): Big | undefined {
  return decimalFrom(tx[field]);
}

/** What moved, when the exchange said: "100,00 € → 0.0015 BTC", "0.5 ETH", or undefined. */
export function transactionAmountText(tx: TxView, locale: string): string | undefined {
  const currency = extraCurrency(tx);
  const crypto = extraDecimal(tx, "crypto_amount") ?? extraDecimal(tx, "quantity");
  const fiat = extraDecimal(tx, "fiat_amount") ?? extraDecimal(tx, "eur_amount");
  // The partner API shows no payload: a row may give its amount only under the name of its unit.
  const amount = extraDecimal(tx, "amount");
  const parts: string[] = [];
  const type = tx.transaction_type ?? "";
  if (BUY_TYPES.has(type)) {
    const paid = amount ?? fiat;
    if (paid) parts.push(formatAmount(paid, "eur", locale));
    if (crypto && currency) parts.push(formatAmount(crypto, currency, locale));
    else if (currency) parts.push(currency.toUpperCase());
  } else if (SELL_TYPES.has(type)) {
    const sold = amount ?? crypto;
    if (sold && currency) parts.push(formatAmount(sold, currency, locale));
    else if (currency) parts.push(currency.toUpperCase());
    if (fiat) parts.push(formatAmount(fiat, "eur", locale));
  } else {
    const moved = amount ?? (currency === "eur" ? fiat : crypto);
    if (moved && currency) parts.push(formatAmount(moved, currency, locale));
    else if (currency) parts.push(currency.toUpperCase());
  }
  return parts.length > 0 ? parts.join(" → ") : undefined;
}

function typeText(t: Translate, tx: TxView): string {
  return tx.transaction_type === undefined ? NONE : transactionTypeText(t, tx.transaction_type);
}

function stateText(t: Translate, tx: TxView): string {
  return tx.state === undefined ? NONE : transactionStateText(t, tx.state);
}

function dateText(value: number | string | undefined, locale: string): string {
  return value === undefined ? NONE : formatDateTime(value, locale);
}

/**
 * One transaction of a partner list (a user's, or every user's on the operator desk) as lines
 * (HTML): its line in account mode's words, and below it what nobody recognised, named and
 * worded. `ids` keeps the exchange's record ids in that rest (the operator desk wants them).
 */
export function transactionItemLines(
  t: Translate,
  item: PartnerTxItem,
  locale: string,
  options: { ids?: boolean } = {},
): string[] {
  const rest = options.ids ? item.restWithIds : item.rest;
  const restLines = rest === undefined ? [] : fieldLines(t, rest, locale, { maxLines: 8 });
  return item.kind === "unrecognised" ? restLines : [transactionLine(t, item.tx, locale), ...restLines];
}

/** One line of the list (HTML). */
export function transactionLine(t: Translate, tx: TxView, locale: string): string {
  const amount = transactionAmountText(tx, locale);
  return t("transactions-line", {
    id: escapeHtml(String(tx.id ?? NONE)),
    type: escapeHtml(typeText(t, tx)),
    state: escapeHtml(stateText(t, tx)),
    date: dateText(tx.created_at, locale),
    amount: amount === undefined ? "" : ` · ${escapeHtml(amount)}`,
  });
}

/** Every detail of one transaction (HTML). */
export function transactionCard(t: Translate, tx: TxView, locale: string): string {
  const lines = [
    t("transactions-detail-title", { id: escapeHtml(String(tx.id ?? NONE)) }),
    t("transactions-detail-type", { type: escapeHtml(typeText(t, tx)) }),
    t("transactions-detail-state", { state: escapeHtml(stateText(t, tx)) }),
  ];
  const amount = transactionAmountText(tx, locale);
  if (amount) lines.push(t("transactions-detail-amount", { amount: escapeHtml(amount) }));
  const fee = extraDecimal(tx, "fee");
  const feeCurrency = typeof tx.fee_currency === "string" ? tx.fee_currency.toLowerCase() : undefined;
  if (fee && feeCurrency && CODE.test(feeCurrency)) {
    lines.push(t("transactions-detail-fee", { fee: escapeHtml(formatAmount(fee, feeCurrency, locale)) }));
  }
  const currency = extraCurrency(tx);
  const minerFee = extraDecimal(tx, "miner_fee");
  if (minerFee && currency) {
    lines.push(
      t("transactions-detail-miner-fee", { fee: escapeHtml(formatAmount(minerFee, currency, locale)) }),
    );
  }
  const price = extraDecimal(tx, "price");
  if (price && currency) {
    lines.push(
      t("transactions-detail-price", {
        currency: currency.toUpperCase(),
        price: escapeHtml(formatAmount(price, "eur", locale)),
      }),
    );
  }
  if (typeof tx.address === "string" && tx.address) {
    lines.push(t("transactions-detail-address", { address: escapeHtml(tx.address) }));
  }
  if (typeof tx.reference_number === "string" && tx.reference_number) {
    lines.push(t("transactions-detail-reference", { reference: escapeHtml(tx.reference_number) }));
  }
  lines.push(t("transactions-detail-created", { date: dateText(tx.created_at, locale) }));
  if (tx.updated_at !== undefined && dateText(tx.updated_at, locale) !== dateText(tx.created_at, locale)) {
    lines.push(t("transactions-detail-updated", { date: dateText(tx.updated_at, locale) }));
  }
  return lines.join("\n");
}
