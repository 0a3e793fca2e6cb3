/**
 * A page of a list the exchange sends in an unspecified shape (partner transactions, every user's
 * transactions): a few items per page, each shown by the field renderer, with Prev/Next buttons
 * that edit the same message. The page always fits one message: an item that would not is cut at
 * a line.
 *
 * Tolerant reading: the list is asked for with `start` and `length` (one more than a page, to
 * know whether a next page exists); an exchange that ignores them and sends the whole list is
 * paged here instead.
 *
 * @example
 * const { items } = await api.userTransactions(id, pageQuery(page));
 * const { text, keyboard } = pagedFields(ctx.t, items, locale, { page, pageData: CALLBACK.partnerTxPage.data, title });
 */
import { InlineKeyboard } from "grammy";
import type { Translate } from "../../domain/translate.ts";
import { MESSAGE_LIMIT } from "./chunks.ts";
import { fieldLines } from "./fields.ts";

export const FIELDS_PAGE_SIZE = 5;
/** Past this, a page number in callback data is noise. */
export const MAX_FIELDS_PAGE = 10_000;
/** Room for the title, the page line and the separators. */
const HEADER_ROOM = 400;
const ITEM_BUDGET = Math.floor((MESSAGE_LIMIT - HEADER_ROOM) / FIELDS_PAGE_SIZE);

export function pageQuery(page: number): { start: number; length: number } {
  return { start: page * FIELDS_PAGE_SIZE, length: FIELDS_PAGE_SIZE + 1 };
}

/** As many whole lines as fit `budget` characters; a cut is marked with "…". */
function fitLines(lines: readonly string[], budget: number): string {
  let text = "";
  for (const line of lines) {
    const next = text === "" ? line : `${text}\n${line}`;
    if (next.length > budget) return text === "" ? "…" : `${text}\n…`;
    text = next;
  }
  return text;
}

export function pagedFields<T>(
  t: Translate,
  list: readonly T[],
  locale: string,
  view: {
    page: number;
    /** The data of the button to page `page` (callback-data.ts). */
    pageData: (page: number) => string;
    title: string;
    empty: string;
    /** An item's lines (HTML); by default every field (fieldLines). */
    lines?: (item: T) => string[];
  },
): { text: string; keyboard: InlineKeyboard } {
  let items = list;
  // More than asked for: the exchange sent the whole list, so the page is cut out here.
  if (items.length > FIELDS_PAGE_SIZE + 1) {
    const start = view.page * FIELDS_PAGE_SIZE;
    items = items.slice(start, start + FIELDS_PAGE_SIZE + 1);
  }
  const hasNext = items.length > FIELDS_PAGE_SIZE;
  const shown = items.slice(0, FIELDS_PAGE_SIZE);
  const body =
    shown.length === 0
      ? view.page === 0
        ? view.empty
        : t("fields-no-more")
      : shown
          .map((item) =>
            fitLines(view.lines?.(item) ?? fieldLines(t, item, locale, { maxLines: 20 }), ITEM_BUDGET),
          )
          .join("\n\n");
  const text = `${view.title}\n${t("fields-page", { page: view.page + 1 })}\n\n${body}`;
  const keyboard = new InlineKeyboard();
  if (view.page > 0) keyboard.text(t("fields-button-prev"), view.pageData(view.page - 1));
  if (hasNext) keyboard.text(t("fields-button-next"), view.pageData(view.page + 1));
  return { text, keyboard };
}
