/**
 * The rows of a newest-first list read page by page (`start`/`length`) while the list may change
 * underneath: a transaction arriving during an export pushes every row one place down, so the
 * next page would repeat the last row read, and a row leaving the list pulls them up, so one
 * would be skipped. Each page after the first therefore starts at the last row read (the anchor)
 * and the rows are taken from after wherever the anchor is found now: a shift of up to a page is
 * seen in the page itself, a longer one by reading on (or back) until the anchor is found again.
 * Rows are also kept once by id, so whatever the exchange does, no row is written twice. The
 * result is the list as it stood when the first page was read: rows arriving at its top meanwhile
 * are never reached (the next statement has them).
 *
 * @example
 * for await (const rows of newestFirst(page, 100)) collect(rows);
 */

/** One page of a newest-first list, as the exchange sent it. */
export type PageSource = (start: number, length: number) => Promise<Record<string, unknown>[]>;

/** How many pages past (or one before) the expected place are read to find the anchor again. */
const RELOCATE_PAGES = 5;

/** A row's identity: its id, or (without one) the row itself. */
export function rowKey(row: Record<string, unknown>): string {
  const id = row.id ?? row.transaction_id;
  return typeof id === "number" || typeof id === "string" ? `id:${id}` : `row:${JSON.stringify(row)}`;
}

export interface PageRows {
  /** Rows not seen before, newest first, continuing the list. */
  rows: Record<string, unknown>[];
}

/**
 * The list's pages, each with the rows it adds; ends after the last page (a short one) or when
 * the caller stops iterating.
 */
export async function* newestFirst(page: PageSource, length: number): AsyncGenerator<PageRows> {
  const seen = new Set<string>();
  const fresh = (rows: readonly Record<string, unknown>[]) =>
    rows.filter((row) => {
      const key = rowKey(row);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });

  const first = await page(0, length);
  yield { rows: fresh(first) };
  let last = first.at(-1);
  /** Where the anchor (the last row read) stood when it was read. */
  let position = first.length - 1;
  let short = first.length < length;
  /** Pages in a row that brought nothing new: an exchange that ignores `start` would repeat forever. */
  let stale = 0;
  while (!short && last !== undefined && stale <= RELOCATE_PAGES) {
    const anchor = rowKey(last);
    const found = await locate(page, length, anchor, position);
    if (found === undefined) {
      // The anchor left the list: the row after it now stands in its place. Reading on from there
      // the ids keep rows single, whatever else moved.
      const items = await page(position, length);
      const rows = fresh(items);
      stale = rows.length === 0 ? stale + 1 : 0;
      yield { rows };
      short = items.length < length;
      last = items.at(-1);
      position += items.length - 1;
      continue;
    }
    const { items, index, start } = found;
    const after = items.slice(index + 1);
    const rows = fresh(after);
    stale = rows.length === 0 ? stale + 1 : 0;
    yield { rows };
    short = items.length < length;
    // A page that ends at the anchor has nothing after it yet: the anchor stays.
    if (after.length > 0) {
      last = after.at(-1);
      position = start + items.length - 1;
    } else {
      position = start + index;
    }
  }
}

interface Located {
  /** The page the anchor was found in, its place there and the page's start. */
  items: Record<string, unknown>[];
  index: number;
  start: number;
}

/** The anchor's page: at its old place, further down (rows arrived), or above (rows left). */
async function locate(
  page: PageSource,
  length: number,
  anchor: string,
  position: number,
): Promise<Located | undefined> {
  // Pages overlap by one row, so a row between two of them cannot slip through.
  for (let step = 0; step <= RELOCATE_PAGES; step++) {
    const start = position + step * (length - 1);
    const items = await page(start, length);
    const index = items.findIndex((row) => rowKey(row) === anchor);
    if (index >= 0) return { items, index, start };
    if (items.length < length) break;
  }
  const start = Math.max(position - (length - 1), 0);
  const items = await page(start, length);
  const index = items.findIndex((row) => rowKey(row) === anchor);
  return index >= 0 ? { items, index, start } : undefined;
}
