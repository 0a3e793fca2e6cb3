/**
 * /transactions: newest first, five per page, Prev/Next buttons that edit the same message, and a
 * currency filter (`/transactions btc`, or the Filter button; `all` resets) remembered in the
 * session. `/tx 123` shows one transaction with every detail the exchange sent.
 *
 * The exchange documents only id, state, type and the two timestamps; the amount, currency, fee
 * and so on are extra fields the schema keeps. They are shown when present and well-formed. For a
 * buy the ordered `amount` is in EUR (as the exchange's API reference gives it), for everything
 * else it is in the transaction's currency.
 *
 * Callback data: `tx:p:<page>:<filter>` (a page), `tx:f:<page>:<filter>` (open the filter picker),
 * `tx:s:<filter>` (choose a filter); `*` means all currencies.
 */
import { InlineKeyboard } from "grammy";
import { ExchangeError } from "../../exchange/errors.ts";
import type { Transaction } from "../../exchange/schemas.ts";
import { type Big, decimalFrom, formatAmount } from "../../money.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../feature-router.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { editInPlace } from "../ui/edit.ts";
import { escapeHtml, formatDateTime } from "../ui/format.ts";

export const PAGE_SIZE = 5;
const ALL = "*";
const CODE = /^[a-z0-9]{1,12}$/;
/** Past this, a page number in callback data is noise. */
const MAX_PAGE = 10_000;

type Translate = (key: string, variables?: Record<string, string | number>) => string;

const TYPE_KEYS: Record<string, string> = {
  buy_crypto: "transactions-type-buy",
  sell_crypto: "transactions-type-sell",
  crypto_withdraw: "transactions-type-send",
  fiat_withdraw: "transactions-type-fiat-withdraw",
  fiat_deposit: "transactions-type-fiat-deposit",
  crypto_deposit: "transactions-type-crypto-deposit",
};

const STATE_KEYS: Record<string, string> = {
  opened: "transactions-state-opened",
  success: "transactions-state-success",
  error: "transactions-state-error",
};

/** A human name for the type; values the exchange may add later are shown as they are. */
export function transactionTypeText(t: Translate, type: string): string {
  const key = TYPE_KEYS[type];
  return key ? t(key) : type;
}

/** The state with its emoji; unknown values are shown as they are. */
export function transactionStateText(t: Translate, state: string): string {
  const key = STATE_KEYS[state];
  return key ? t(key) : t("transactions-state-other", { state });
}

function extraCurrency(tx: Transaction): string | undefined {
  const value = tx.currency_code;
  if (typeof value !== "string") return undefined;
  const code = value.toLowerCase();
  return CODE.test(code) ? code : undefined;
}

function extraDecimal(tx: Transaction, field: string): Big | undefined {
  return decimalFrom(tx[field]);
}

/** What moved, when the exchange said: "100,00 € → 0.0015 BTC", "0.5 ETH", or undefined. */
export function transactionAmountText(tx: Transaction, locale: string): string | undefined {
  const currency = extraCurrency(tx);
  const amount = extraDecimal(tx, "amount");
  const crypto = extraDecimal(tx, "crypto_amount");
  const fiat = extraDecimal(tx, "fiat_amount");
  const parts: string[] = [];
  if (tx.transaction_type === "buy_crypto") {
    const paid = amount ?? fiat;
    if (paid) parts.push(formatAmount(paid, "eur", locale));
    if (crypto && currency) parts.push(formatAmount(crypto, currency, locale));
    else if (currency) parts.push(currency.toUpperCase());
  } else if (tx.transaction_type === "sell_crypto") {
    if (amount && currency) parts.push(formatAmount(amount, currency, locale));
    else if (currency) parts.push(currency.toUpperCase());
    if (fiat) parts.push(formatAmount(fiat, "eur", locale));
  } else if (amount && currency) {
    parts.push(formatAmount(amount, currency, locale));
  } else if (currency) {
    parts.push(currency.toUpperCase());
  }
  return parts.length > 0 ? parts.join(" → ") : undefined;
}

/** One line of the list (HTML). */
export function transactionLine(t: Translate, tx: Transaction, locale: string): string {
  const amount = transactionAmountText(tx, locale);
  return t("transactions-line", {
    id: String(tx.id),
    type: escapeHtml(transactionTypeText(t, tx.transaction_type)),
    state: escapeHtml(transactionStateText(t, tx.state)),
    date: formatDateTime(tx.created_at, locale),
    amount: amount === undefined ? "" : ` · ${escapeHtml(amount)}`,
  });
}

/** Every detail of one transaction (HTML). */
export function transactionCard(t: Translate, tx: Transaction, locale: string): string {
  const lines = [
    t("transactions-detail-title", { id: String(tx.id) }),
    t("transactions-detail-type", { type: escapeHtml(transactionTypeText(t, tx.transaction_type)) }),
    t("transactions-detail-state", { state: escapeHtml(transactionStateText(t, tx.state)) }),
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
  lines.push(t("transactions-detail-created", { date: formatDateTime(tx.created_at, locale) }));
  if (tx.updated_at && tx.updated_at !== tx.created_at) {
    lines.push(t("transactions-detail-updated", { date: formatDateTime(tx.updated_at, locale) }));
  }
  return lines.join("\n");
}

/** `/tx 123`: a positive integer id, else undefined. */
export function parseTransactionId(text: string): number | undefined {
  const trimmed = text.trim().replace(/^#/, "");
  if (!/^\d{1,15}$/.test(trimmed)) return undefined;
  const id = Number(trimmed);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function transactionsFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  /** Currencies one can filter by: the price list's, plus EUR. */
  async function knownCurrencies(ctx: PrivateContext): Promise<string[]> {
    const prices = await deps.sessions.use(ctx.from.id, (client) => client.prices());
    const codes = prices.map((p) => p.currency_code.toLowerCase()).filter((code) => CODE.test(code));
    return [...new Set([...codes, "eur"])];
  }

  async function page(ctx: PrivateContext, number: number, filter: string | undefined) {
    const locale = await ctx.i18n.getLocale();
    const rows = await deps.sessions.use(ctx.from.id, (client) =>
      client.transactions({ start: number * PAGE_SIZE, length: PAGE_SIZE + 1, currencyCode: filter }),
    );
    const hasNext = rows.length > PAGE_SIZE;
    const shown = rows.slice(0, PAGE_SIZE);
    const currency = filter?.toUpperCase() ?? "";
    const title = filter ? ctx.t("transactions-title-filtered", { currency }) : ctx.t("transactions-title");
    let body: string;
    if (shown.length === 0 && number === 0) {
      body = filter ? ctx.t("transactions-none-filtered", { currency }) : ctx.t("transactions-none");
    } else if (shown.length === 0) {
      body = ctx.t("transactions-no-more");
    } else {
      // The example is a transaction the user has: the newest one on this page (newest first).
      const example = String(shown[0]?.id ?? "");
      body = `${shown.map((tx) => transactionLine(ctx.t, tx, locale)).join("\n\n")}\n\n${ctx.t("transactions-hint", { id: example })}`;
    }
    const text = `${title}\n${ctx.t("transactions-page", { page: number + 1 })}\n\n${body}`;
    const tag = filter ?? ALL;
    const keyboard = new InlineKeyboard();
    if (number > 0) keyboard.text(ctx.t("transactions-button-prev"), `tx:p:${number - 1}:${tag}`);
    if (hasNext) keyboard.text(ctx.t("transactions-button-next"), `tx:p:${number + 1}:${tag}`);
    keyboard
      .row()
      .text(
        filter ? ctx.t("transactions-button-filter-on", { currency }) : ctx.t("transactions-button-filter"),
        `tx:f:${number}:${tag}`,
      );
    return { text, keyboard };
  }

  composer.command("transactions", requireLogin(deps), async (ctx) => {
    const typed = ctx.match.trim().toLowerCase();
    if (typed === "all" || typed === "alle" || typed === ALL) {
      ctx.session.transactionsFilter = undefined;
    } else if (typed !== "") {
      const known = await knownCurrencies(ctx);
      if (!known.includes(typed)) {
        await ctx.reply(
          ctx.t("transactions-unknown-currency", {
            currency: typed.slice(0, 16),
            list: known.map((c) => c.toUpperCase()).join(", "),
          }),
        );
        return;
      }
      ctx.session.transactionsFilter = typed;
    }
    const { text, keyboard } = await page(ctx, 0, ctx.session.transactionsFilter);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });

  composer.callbackQuery(/^tx:p:(\d{1,5}):([a-z0-9]{1,12}|\*)$/, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const number = Math.min(Number(ctx.match[1]), MAX_PAGE);
    const tag = ctx.match[2] ?? ALL;
    const { text, keyboard } = await page(ctx, number, tag === ALL ? undefined : tag);
    await editInPlace(ctx, text, keyboard);
  });

  composer.callbackQuery(/^tx:f:(\d{1,5}):([a-z0-9]{1,12}|\*)$/, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const known = await knownCurrencies(ctx);
    const keyboard = new InlineKeyboard().text(ctx.t("transactions-button-all"), `tx:s:${ALL}`).row();
    for (const [i, code] of known.entries()) {
      keyboard.text(code.toUpperCase(), `tx:s:${code}`);
      if (i % 4 === 3) keyboard.row();
    }
    keyboard.row().text(ctx.t("button-back"), `tx:p:${ctx.match[1]}:${ctx.match[2]}`);
    await editInPlace(ctx, ctx.t("transactions-choose-filter"), keyboard);
  });

  composer.callbackQuery(/^tx:s:([a-z0-9]{1,12}|\*)$/, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const tag = ctx.match[1] ?? ALL;
    ctx.session.transactionsFilter = tag === ALL ? undefined : tag;
    const { text, keyboard } = await page(ctx, 0, ctx.session.transactionsFilter);
    await editInPlace(ctx, text, keyboard);
  });

  composer.command("tx", requireLogin(deps), async (ctx) => {
    const id = parseTransactionId(ctx.match);
    if (id === undefined) {
      // The example is the user's newest transaction; with none (or no answer), no example.
      const newest = await deps.sessions
        .use(ctx.from.id, (client) => client.transactions({ start: 0, length: 1 }))
        .then(
          (rows) => rows[0]?.id,
          (error: unknown) => {
            if (error instanceof ExchangeError) return undefined;
            throw error;
          },
        );
      await ctx.reply(
        newest === undefined
          ? ctx.t("transactions-bad-id-plain")
          : ctx.t("transactions-bad-id", { id: String(newest) }),
      );
      return;
    }
    const locale = await ctx.i18n.getLocale();
    let tx: Transaction;
    try {
      tx = await deps.sessions.use(ctx.from.id, (client) => client.transaction(id));
    } catch (error) {
      if (error instanceof ExchangeError && error.kind === "not-found") {
        await ctx.reply(ctx.t("transactions-not-found", { id: String(id) }));
        return;
      }
      throw error;
    }
    await ctx.reply(transactionCard(ctx.t, tx, locale), { parse_mode: "HTML" });
  });
  return composer;
}
