/**
 * /transactions: newest first, five per page, Prev/Next buttons that edit the same message, and a
 * currency filter (`/transactions btc`, or the Filter button; `all` resets) remembered in the
 * session. `/tx 123` shows one transaction with every detail the exchange sent. The words of a
 * line and of the card are ui/transaction-text.ts's, shared with partner mode.
 *
 * Callback data (ui/callback-data.ts): `tx:p:<page>:<filter>` (a page), `tx:f:<page>:<filter>` (open the filter picker),
 * `tx:s:<filter>` (choose a filter); `*` means all currencies. Export (`tx:x:menu`, then `tx:x:<range>`)
 * sends the statement of a range as a CSV file (flows/statement.ts).
 */
import { type CallbackQueryContext, InlineKeyboard } from "grammy";
import { ExchangeError } from "../../exchange/errors.ts";
import type { Transaction } from "../../exchange/schemas.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { sendStatement } from "../flows/statement.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { editInPlace } from "../ui/edit.ts";
import { exportRangeKeyboard, isExportRange } from "../ui/statement-ranges.ts";
import { transactionCard, transactionLine } from "../ui/transaction-text.ts";
import { userText } from "../ui/user-text.ts";

export const PAGE_SIZE = 5;
const ALL = "*";
const CODE = /^[a-z0-9]{1,12}$/;
/** Past this, a page number in callback data is noise. */
const MAX_PAGE = 10_000;

type TxDeps = Pick<BotDeps, "sessions" | "orders" | "clock">;

/** `/tx 123`: a positive integer id, else undefined. */
export function parseTransactionId(text: string): number | undefined {
  const trimmed = text.trim().replace(/^#/, "");
  if (!/^\d{1,15}$/.test(trimmed)) return undefined;
  const id = Number(trimmed);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function transactionsFeature(deps: TxDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("transactions", requireLogin(deps), async (ctx) => {
    await onTransactionsCommand(deps, ctx, ctx.match);
  });

  // The home card's Transactions: the first page, with the filter the session remembers.
  composer.callbackQuery(CALLBACK.home.data("tx"), requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    await firstPage(deps, ctx);
  });

  composer.callbackQuery(CALLBACK.txPage.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const tapped = CALLBACK.txPage.read(ctx);
    const tag = tapped.tag;
    const { text, keyboard } = await page(
      deps,
      ctx,
      Math.min(tapped.page, MAX_PAGE),
      tag === ALL ? undefined : tag,
    );
    await editInPlace(ctx, text, keyboard);
  });

  composer.callbackQuery(CALLBACK.txFilter.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showFilterPicker(deps, ctx);
  });

  composer.callbackQuery(CALLBACK.txSet.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { tag } = CALLBACK.txSet.read(ctx);
    ctx.session.transactionsFilter = tag === ALL ? undefined : tag;
    const { text, keyboard } = await page(deps, ctx, 0, ctx.session.transactionsFilter);
    await editInPlace(ctx, text, keyboard);
  });

  // Export: the ranges, then the statement of the one picked (every currency, whatever the filter).
  composer.callbackQuery(CALLBACK.txExport.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { range } = CALLBACK.txExport.read(ctx);
    if (!isExportRange(range)) {
      await ctx.reply(ctx.t("export-choose"), { reply_markup: exportRangeKeyboard(ctx.t) });
      return;
    }
    await sendStatement(ctx, deps, range, (start, length) =>
      deps.sessions.use(ctx.from.id, (client) => client.transactions({ start, length })),
    );
  });

  // The tax tool's file: its ranges, then the file of the one picked.
  composer.callbackQuery(CALLBACK.txKoinly.pattern, requireLogin(deps), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { range } = CALLBACK.txKoinly.read(ctx);
    if (!isExportRange(range)) {
      await ctx.reply(ctx.t("export-koinly-choose"), { reply_markup: exportRangeKeyboard(ctx.t, "koinly") });
      return;
    }
    await sendStatement(
      ctx,
      deps,
      range,
      (start, length) => deps.sessions.use(ctx.from.id, (client) => client.transactions({ start, length })),
      "koinly",
    );
  });

  composer.command("tx", requireLogin(deps), async (ctx) => {
    await showTransaction(deps, ctx, ctx.match);
  });
  return composer;
}

/** Currencies one can filter by: the price list's, plus EUR. */
async function knownCurrencies(deps: TxDeps, ctx: PrivateContext): Promise<string[]> {
  const prices = await deps.sessions.use(ctx.from.id, (client) => client.prices());
  const codes = prices.map((p) => p.currency_code.toLowerCase()).filter((code) => CODE.test(code));
  return [...new Set([...codes, "eur"])];
}

/** Page `number` (from 0) of the user's transactions, with `filter` (a currency) or all. */
async function page(deps: TxDeps, ctx: PrivateContext, number: number, filter: string | undefined) {
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
  if (number > 0) keyboard.text(ctx.t("transactions-button-prev"), CALLBACK.txPage.data(number - 1, tag));
  if (hasNext) keyboard.text(ctx.t("transactions-button-next"), CALLBACK.txPage.data(number + 1, tag));
  keyboard
    .row()
    .text(
      filter ? ctx.t("transactions-button-filter-on", { currency }) : ctx.t("transactions-button-filter"),
      CALLBACK.txFilter.data(number, tag),
    )
    .text(ctx.t("transactions-button-export"), CALLBACK.txExport.data("menu"));
  return { text, keyboard };
}

async function firstPage(deps: TxDeps, ctx: PrivateContext): Promise<void> {
  const { text, keyboard } = await page(deps, ctx, 0, ctx.session.transactionsFilter);
  await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
}

/** The Filter button: every currency to filter by, and Back to the page it was tapped on. */
async function showFilterPicker(deps: TxDeps, ctx: CallbackQueryContext<PrivateContext>): Promise<void> {
  const tapped = CALLBACK.txFilter.read(ctx);
  const known = await knownCurrencies(deps, ctx);
  const keyboard = new InlineKeyboard()
    .text(ctx.t("transactions-button-all"), CALLBACK.txSet.data(ALL))
    .row();
  for (const [i, code] of known.entries()) {
    keyboard.text(code.toUpperCase(), CALLBACK.txSet.data(code));
    if (i % 4 === 3) keyboard.row();
  }
  keyboard.row().text(ctx.t("button-back"), CALLBACK.txPage.data(tapped.page, tapped.tag));
  await editInPlace(ctx, ctx.t("transactions-choose-filter"), keyboard);
}

/** `/tx 123`: the transaction's card; a word that is no id gets an example, an unknown id a sentence. */
async function showTransaction(deps: TxDeps, ctx: PrivateContext, typed: string): Promise<void> {
  const id = parseTransactionId(typed);
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
}

/** `/transactions [currency|all]`: the filter set (or kept), then the first page. */
async function onTransactionsCommand(deps: TxDeps, ctx: PrivateContext, words: string): Promise<void> {
  const typed = words.trim().toLowerCase();
  if (typed === "all" || typed === "alle" || typed === ALL) {
    ctx.session.transactionsFilter = undefined;
  } else if (typed !== "") {
    const known = await knownCurrencies(deps, ctx);
    if (!known.includes(typed)) {
      await ctx.reply(
        ctx.t("transactions-unknown-currency", {
          currency: userText(typed, 16),
          list: known.map((c) => c.toUpperCase()).join(", "),
        }),
      );
      return;
    }
    ctx.session.transactionsFilter = typed;
  }
  await firstPage(deps, ctx);
}
