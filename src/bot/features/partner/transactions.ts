/**
 * /transactions and /tx in partner mode: the partner user's transactions, five per page with
 * Prev/Next buttons that edit the same message (`ptx:<page>`), and `/tx 123` with every field the
 * exchange sent. Each transaction is read for its usual fields (exchange/partner-read.ts) and shown in
 * account mode's words (ui/transaction-text.ts); what nobody recognised follows it, named and
 * formatted (ui/fields.ts). Internal ids (the user's, the partner's) only on `/tx`.
 */

import type { Translate } from "../../../domain/translate.ts";
import { ExchangeError } from "../../../exchange/errors.ts";
import type { PartnerTxItem } from "../../../exchange/partner-read.ts";
import type { PartnerTransactions } from "../../../exchange/partner-schemas.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { PrivateContext } from "../../context.ts";
import type { BotDeps } from "../../deps.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { sendStatement } from "../../flows/statement.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { CALLBACK } from "../../ui/callback-data.ts";
import { chunkBlocks } from "../../ui/chunks.ts";
import { editInPlace } from "../../ui/edit.ts";
import { fieldLines } from "../../ui/fields.ts";
import { MAX_FIELDS_PAGE, pagedFields, pageQuery } from "../../ui/paged-fields.ts";
import { exportRangeKeyboard, isExportRange } from "../../ui/statement-ranges.ts";
import { transactionCard, transactionItemLines } from "../../ui/transaction-text.ts";

/** One transaction of the list: its line, and below it what nobody recognised (no internal ids). */
export function partnerTransactionLines(t: Translate, item: PartnerTxItem, locale: string): string[] {
  return transactionItemLines(t, item, locale);
}

type Deps = { partner: PartnerServices } & Pick<BotDeps, "orders" | "clock">;

export function partnerTransactionsFeature(deps: Deps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("transactions", (ctx) => firstPage(deps, ctx));
  // The home card's Transactions.
  composer.callbackQuery(CALLBACK.home.data("tx"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await firstPage(deps, ctx);
  });

  composer.callbackQuery(CALLBACK.partnerTxPage.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const { text, keyboard } = await page(
      deps,
      ctx,
      id,
      Math.min(CALLBACK.partnerTxPage.read(ctx).page, MAX_FIELDS_PAGE),
    );
    await editInPlace(ctx, text, keyboard);
  });

  // Export: the ranges, then the statement of the one picked (flows/statement.ts).
  composer.callbackQuery(CALLBACK.txExport.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { range } = CALLBACK.txExport.read(ctx);
    if (!isExportRange(range)) {
      await ctx.reply(ctx.t("export-choose"), { reply_markup: exportRangeKeyboard(ctx.t) });
      return;
    }
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    await sendStatement(ctx, deps, range, async (start, length) =>
      statementRows(await deps.partner.api.userTransactions(id, { start, length })),
    );
  });

  // The tax tool's file: its ranges, then the file of the one picked.
  composer.callbackQuery(CALLBACK.txKoinly.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { range } = CALLBACK.txKoinly.read(ctx);
    if (!isExportRange(range)) {
      await ctx.reply(ctx.t("export-koinly-choose"), { reply_markup: exportRangeKeyboard(ctx.t, "koinly") });
      return;
    }
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    await sendStatement(
      ctx,
      deps,
      range,
      async (start, length) => statementRows(await deps.partner.api.userTransactions(id, { start, length })),
      "koinly",
    );
  });

  composer.command("tx", async (ctx) => {
    await showTransaction(deps, ctx, ctx.match);
  });
  return composer;
}

/** Page `number` (from 0) of the partner user's transactions, and the newest id listed. */
async function page(deps: Deps, ctx: PrivateContext, userId: number, number: number) {
  const locale = await ctx.i18n.getLocale();
  const { items } = await deps.partner.api.userTransactions(userId, pageQuery(number));
  const first = items[0];
  const newest = first?.kind === "transaction" ? first.tx.id : undefined;
  const shown = pagedFields(ctx.t, items, locale, {
    page: number,
    pageData: CALLBACK.partnerTxPage.data,
    title: ctx.t("partner-transactions-title"),
    empty: ctx.t("partner-transactions-none"),
    lines: (item) => partnerTransactionLines(ctx.t, item, locale),
  });
  shown.keyboard.row().text(ctx.t("transactions-button-export"), CALLBACK.txExport.data("menu"));
  return { ...shown, newest };
}

async function firstPage(deps: Deps, ctx: PrivateContext): Promise<void> {
  const id = await partnerUserOf(ctx, deps);
  if (id === undefined) return;
  const { text, keyboard, newest } = await page(deps, ctx, id, 0);
  // The example is a transaction the user has (the newest listed); with none, no example.
  const hint = newest === undefined ? "" : `\n\n${ctx.t("partner-transactions-hint", { id: newest })}`;
  await ctx.reply(`${text}${hint}`, {
    parse_mode: "HTML",
    reply_markup: keyboard,
  });
}

/** `/tx 123`: the transaction's card, with every field the exchange sent. */
async function showTransaction(deps: Deps, ctx: PrivateContext, words: string): Promise<void> {
  const typed = words.trim().replace(/^#/, "");
  const txId = /^\d{1,15}$/.test(typed) ? Number(typed) : 0;
  if (!Number.isSafeInteger(txId) || txId <= 0) {
    await ctx.reply(ctx.t("partner-tx-bad-id"));
    return;
  }
  const id = await partnerUserOf(ctx, deps);
  if (id === undefined) return;
  const locale = await ctx.i18n.getLocale();
  let tx: PartnerTxItem;
  try {
    tx = (await deps.partner.api.userTransaction(id, txId)).item;
  } catch (error) {
    if (error instanceof ExchangeError && error.kind === "not-found") {
      await ctx.reply(ctx.t("partner-tx-not-found", { id: String(txId) }));
      return;
    }
    throw error;
  }
  // The card shows the id asked for, whatever the answer calls it; every other field stays.
  const view = tx.kind === "transaction" ? tx.tx : undefined;
  const rest = tx.restWithIds;
  const parts =
    view === undefined
      ? [ctx.t("partner-tx-title", { id: String(txId) })]
      : [transactionCard(ctx.t, { ...view, id: txId }, locale)];
  if (rest !== undefined) parts.push(fieldLines(ctx.t, rest, locale).join("\n"));
  if (parts.length === 1 && view === undefined) parts.push(ctx.t("partner-tx-empty"));
  for (const text of chunkBlocks(parts)) await ctx.reply(text, { parse_mode: "HTML" });
}

/** The statement's rows: the list's items that are records, as they came. */
function statementRows({ items }: PartnerTransactions): Record<string, unknown>[] {
  return items.flatMap((item) => (item.fields === undefined ? [] : [item.fields]));
}
