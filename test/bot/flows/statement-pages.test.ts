/**
 * A newest-first list paged by `start`/`length` while it changes: transactions arriving at its
 * top (one, or more than a page) between two page reads, and one leaving it. Every row present
 * when the export began comes out exactly once (arrivals are the next statement's).
 */
import { describe, expect, it } from "vitest";
import { newestFirst, type PageSource } from "../../../src/bot/flows/statement-pages.ts";

/** A list newest first (ids `n`…1) and a source that changes it before the `n`-th read. */
function changing(count: number, changes: Record<number, (list: { id: number }[]) => void>) {
  const list = Array.from({ length: count }, (_, i) => ({ id: count - i }));
  let reads = 0;
  const page: PageSource = async (start, length) => {
    changes[reads]?.(list);
    reads++;
    return list.slice(start, start + length).map((row) => ({ ...row }));
  };
  return { list, page };
}

async function collect(page: PageSource, length: number) {
  const rows: number[] = [];
  for await (const read of newestFirst(page, length)) rows.push(...read.rows.map((row) => Number(row.id)));
  return rows;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => to - i);

describe("newestFirst: pages of a list that changes while it is read", () => {
  it("an unchanged list: every row once, in order", async () => {
    const { page } = changing(250, {});
    expect(await collect(page, 100)).toEqual(range(1, 250));
  });

  it("one transaction arriving between two pages: no row doubled or lost", async () => {
    const { page } = changing(250, { 1: (list) => list.unshift({ id: 1000 }) });
    expect(await collect(page, 100)).toEqual(range(1, 250));
  });

  it("more than a page arriving at once: the old rows found again further down", async () => {
    const { page } = changing(250, {
      1: (list) => list.unshift(...Array.from({ length: 150 }, (_, i) => ({ id: 2150 - i }))),
    });
    expect(await collect(page, 100)).toEqual(range(1, 250));
  });

  it("a row above the last one read leaving the list: the next row is not skipped", async () => {
    const { page } = changing(250, { 1: (list) => list.splice(10, 1) });
    expect(await collect(page, 100)).toEqual(range(1, 250));
  });

  it("the last row read leaving the list: nothing doubled, nothing after it lost", async () => {
    const { page } = changing(250, { 1: (list) => list.splice(99, 1) });
    const rows = await collect(page, 100);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows).toEqual(range(1, 250));
  });
});

describe("newestFirst: an exchange that ignores `start`", () => {
  it("stops after a few pages that bring nothing new", async () => {
    let reads = 0;
    const page: PageSource = async (_start, length) => {
      reads++;
      return Array.from({ length }, (_, i) => ({ id: length - i }));
    };
    expect(await collect(page, 100)).toEqual(range(1, 100));
    expect(reads).toBeLessThan(20);
  });
});
