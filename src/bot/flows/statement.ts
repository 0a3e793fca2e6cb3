/**
 * A statement to download, in either mode: the transactions of a range paged from the exchange
 * (100 a page, each page with a deadline of its own, so a long history is not cut by the update's
 * 20 s; no row doubled or lost when transactions arrive meanwhile: statement-pages.ts), progress
 * shown in one message edited at most once a second ("Collecting… 1,200 transactions"), the
 * bot's own orders joined from the ledger by transaction id, then one CSV sent with sendDocument
 * under Telegram's 50 MB: the statement for people (ui/statement-csv.ts) or the tax tool's
 * import file (ui/koinly-csv.ts).
 */

import { InputFile } from "grammy";
import type { Translate } from "../../domain/translate.ts";
import { withDeadline } from "../../exchange/deadline.ts";
import { readTransaction } from "../../exchange/partner-read.ts";
import { normalizeTimestamp } from "../../exchange/schemas.ts";
import type { MoneyAction } from "../../orders/ledger.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import type { ExportRange } from "../ui/callback-data.ts";
import { koinlyCsv } from "../ui/koinly-csv.ts";
import { orderSummary } from "../ui/quote-card.ts";
import {
  type LedgerColumns,
  type StatementRow,
  statementCsv,
  TELEGRAM_FILE_LIMIT,
} from "../ui/statement-csv.ts";
import { RANGE_KEYS, spanOf } from "../ui/statement-ranges.ts";
import { newestFirst, type PageSource } from "./statement-pages.ts";

export type { PageSource };

export const EXPORT_PAGE = 100;
/** Each page's own deadline (exchange/deadline.ts): the whole export may take longer. */
const PAGE_DEADLINE_MS = 15_000;
/** A history longer than this many pages is cut there (a million transactions). */
const MAX_PAGES = 10_000;
/** Progress edits at most this often (Telegram limits edits too). Real time: a person watches it. */
const PROGRESS_EVERY_MS = 1_000;

/** The statement for people (the default), or the tax tool's import file (ui/koinly-csv.ts). */
export type StatementFormat = "statement" | "koinly";

export async function sendStatement(
  ctx: PrivateContext,
  deps: Pick<BotDeps, "orders" | "clock">,
  range: ExportRange,
  page: PageSource,
  format: StatementFormat = "statement",
): Promise<void> {
  const span = spanOf(range, deps.clock.now());
  const locale = await ctx.i18n.getLocale();
  const columnsOf = (action: MoneyAction) => ledgerColumns(ctx.t, locale, action);
  // Counts go to Fluent as numbers: it picks the plural and groups the digits for the locale.
  const collecting = (count: number) => ctx.t("export-collecting", { count });
  const progress = await ctx.reply(collecting(0));
  const edit = (text: string) =>
    ctx.api.editMessageText(progress.chat.id, progress.message_id, text).catch(() => undefined);

  const rows: StatementRow[] = [];
  let lastEdit = performance.now();
  let pages = 0;
  const timed: PageSource = (start, length) => withDeadline(PAGE_DEADLINE_MS, () => page(start, length));
  for await (const { rows: items } of newestFirst(timed, EXPORT_PAGE)) {
    let older = 0;
    for (const fields of items) {
      const at = timeOf(fields);
      if (span.to !== undefined && at !== undefined && at >= span.to) continue;
      if (span.from !== undefined && at !== undefined && at < span.from) {
        older++;
        continue;
      }
      rows.push({ tx: readTransaction(fields).tx, ...(await ledgerOf(deps, fields, columnsOf)) });
    }
    // Newest first: new rows all older than the range end it.
    if (++pages >= MAX_PAGES || (items.length > 0 && older === items.length)) break;
    if (performance.now() - lastEdit >= PROGRESS_EVERY_MS) {
      lastEdit = performance.now();
      await edit(collecting(rows.length));
    }
  }
  const label = ctx.t(RANGE_KEYS[range]);
  if (rows.length === 0) {
    await edit(ctx.t("export-empty", { range: label }));
    return;
  }
  await edit(ctx.t("export-collected", { count: rows.length }));
  if (format === "koinly") {
    const csv = koinlyCsv(ctx.t, rows, TELEGRAM_FILE_LIMIT);
    const caption = [ctx.t("export-koinly-caption", { range: label, count: csv.rows })];
    if (csv.unreadable > 0) caption.push(ctx.t("export-koinly-unreadable", { count: csv.unreadable }));
    if (csv.left > 0) caption.push(ctx.t("export-too-large", { left: csv.left }));
    await ctx.replyWithDocument(new InputFile(csv.bytes, `koinly-${span.name}.csv`), {
      caption: caption.join("\n"),
    });
    return;
  }
  const csv = statementCsv(ctx.t, locale, rows, TELEGRAM_FILE_LIMIT);
  const caption = [ctx.t("export-caption", { range: label, count: csv.rows })];
  if (csv.left > 0) caption.push(ctx.t("export-too-large", { left: csv.left }));
  await ctx.replyWithDocument(new InputFile(csv.bytes, `statement-${span.name}.csv`), {
    caption: caption.join("\n"),
  });
}

function timeOf(fields: Record<string, unknown>): number | undefined {
  const value = fields.created_at ?? fields.createdAt ?? fields.date;
  if (typeof value !== "string") return undefined;
  const iso = normalizeTimestamp(value);
  return iso === undefined ? undefined : Date.parse(iso);
}

/** The bot's order matched to this transaction (reconciliation's claim), as the ledger has it. */
async function ledgerOf(
  deps: Pick<BotDeps, "orders">,
  fields: Record<string, unknown>,
  columnsOf: (action: MoneyAction) => LedgerColumns,
): Promise<{ ledger?: LedgerColumns }> {
  const id = fields.id;
  const txId =
    typeof id === "number" ? id : typeof id === "string" && /^\d{1,15}$/.test(id) ? Number(id) : undefined;
  if (txId === undefined) return {};
  const actionId = await deps.orders.ledger.actionOfTransaction(txId);
  const action = actionId === undefined ? undefined : await deps.orders.ledger.get(actionId);
  return action === undefined ? {} : { ledger: columnsOf(action) };
}

function ledgerColumns(t: Translate, locale: string, action: MoneyAction): LedgerColumns {
  // Kinds quote different numbers: a rate where the kind has one.
  const quote = action.quote;
  const rate = "rate" in quote && typeof quote.rate === "string" ? quote.rate : undefined;
  return {
    summary: orderSummary(t, action, locale),
    currency: action.currency,
    ...(rate === undefined ? {} : { rate }),
  };
}
