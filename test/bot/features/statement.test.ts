/**
 * The statement download (/transactions → Export): a long history paged from the sandbox over
 * HTTP, the progress in one edited message, the CSV sent through the Bot API double and read back
 * with csv-parse, compared field by field with what the exchange holds, the bot's own orders
 * joined from the ledger; partner mode too; and the 50 MB limit.
 */
import Big from "big.js";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRecord, itemsOf } from "../../../src/bot/ui/fields.ts";
import { type StatementRow, statementCsv } from "../../../src/bot/ui/statement-csv.ts";
import { spanOf } from "../../../src/bot/ui/statement-ranges.ts";
import { transactionJson } from "../../../src/sandbox/present.ts";
import type { FakeUser, SentMessage } from "../../../src/telegram-double/index.ts";
import { liveCard } from "../../orders/helpers.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

type Row = Record<string, string>;

/** "1 transaction", "1,201 transactions": the English words for a count. */
const counted = (n: number) => (n === 1 ? "1 transaction" : `${n.toLocaleString("en")} transactions`);

/** The CSV a message carries, parsed by a real CSV parser: one object per row, by header. */
function rowsOf(message: SentMessage): { header: string[]; rows: Row[] } {
  const bytes = message.file?.bytes;
  if (bytes === undefined) throw new Error("The message carries no uploaded file.");
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const [header, ...rest] = parse(text) as string[][];
  const rows = rest.map((line) => Object.fromEntries((header ?? []).map((key, i) => [key, line[i] ?? ""])));
  return { header: header ?? [], rows };
}

/** What the exchange sent for a field, as the statement must write it. */
function expected(key: string, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (key.endsWith("_at")) return new Date(`${String(value).replace(" ", "T")}Z`).toISOString();
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** /transactions, then its Export button: the message with the ranges. */
async function openExport(user: FakeUser): Promise<SentMessage> {
  await user.send("/transactions");
  const list = await user.waitForReply((m) => m.buttons.flat().some((b) => /Export|Exportieren/.test(b)));
  await user.tap(/Export/, list);
  return user.waitForReply(/Which period|Welchen Zeitraum/);
}

async function exportVia(user: FakeUser, range: string, choose?: SentMessage): Promise<SentMessage> {
  await user.tap(range, choose ?? (await openExport(user)));
  return user.waitForReply((m) => m.kind === "document");
}

describe("statement download, account mode", () => {
  let h: Harness;
  let ada: FakeUser;
  beforeAll(async () => {
    h = await startHarness({ answerDeadline: { finalMs: 1_000 } });
    h.sandbox.setPrice("btc", "60000");
    ada = await h.loggedInUser();
    // A long history: 1,200 deposits an hour apart, from the start of September.
    const account = h.sandbox.state.accountByEmail(h.sandbox.demo.email);
    if (account === undefined) throw new Error("no demo account");
    const start = Date.UTC(2026, 8, 1);
    for (let i = 0; i < 1200; i++) {
      const record = h.sandbox.state.recordDeposit(account, "fiat_deposit", "eur", new Big(i + 1).div(100), {
        reference_number: `RF18${String(i).padStart(6, "0")}`,
      });
      record.createdAt = start + i * 3_600_000;
      record.updatedAt = record.createdAt + 1_500;
    }
    // One order through the bot, settled: its row carries the ledger's numbers.
    await ada.send("/buy btc 100");
    await ada.tap("✅ Confirm", await ada.waitForReply(liveCard(/Buy BTC: your quote/)));
    await ada.waitForReply(/Order placed/);
    h.clock.advance(6_000);
    await h.deps.orders.reconcileUser(ada.id);
  });
  afterAll(async () => {
    await h.stop();
  });

  const records = () => {
    const account = h.sandbox.state.accountByEmail(h.sandbox.demo.email);
    return account === undefined ? [] : h.sandbox.state.transactionsOf(account);
  };

  it("All: every transaction, every field the exchange gives, field by field; progress in one message", async () => {
    const sent = await exportVia(ada, "All");
    expect(sent.file?.filename).toBe("statement-all.csv");
    const { header, rows } = rowsOf(sent);
    const exchange = records().map((record) => transactionJson(record));
    expect(header.slice(0, 5)).toEqual(["id", "state", "transaction_type", "created_at", "updated_at"]);
    expect(header.slice(-5)).toEqual(["bot_order", "bot_amount", "bot_currency", "bot_rate", "bot_fee"]);
    const keys = new Set(exchange.flatMap((tx) => Object.keys(tx)));
    expect(new Set(header.slice(0, -5))).toEqual(keys);
    // Oldest first, one row per transaction.
    expect(rows).toHaveLength(exchange.length);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const tx of exchange) {
      const row = byId.get(String(tx.id));
      for (const key of keys) expect(row?.[key], `${String(tx.id)} ${key}`).toBe(expected(key, tx[key]));
    }
    expect(rows.map((row) => Date.parse(row.created_at ?? ""))).toEqual(
      rows.map((row) => Date.parse(row.created_at ?? "")).sort((a, b) => a - b),
    );
    // Dates with their zone, decimals with a dot.
    expect(rows[0]?.created_at).toBe("2026-09-01T00:00:00.000Z");
    expect(rows[0]?.amount).toBe("0.01");

    // The bot's order: the ledger's amount, currency, rate and fee.
    const buy = rows.find((row) => row.transaction_type === "buy_crypto" && row.bot_order !== "");
    const action = await h.deps.orders.ledger.latest(ada.id, "buy");
    expect(action?.transactionId).toBe(Number(buy?.id));
    expect(buy).toMatchObject({
      bot_order: "buy",
      bot_amount: "100",
      bot_currency: "btc",
      bot_rate: action?.kind === "buy" ? action.quote.rate : "?",
      bot_fee: action?.kind === "buy" ? action.quote.fee : "?",
    });
    expect(rows.filter((row) => row.bot_order !== "")).toHaveLength(1);

    // The progress: one message, edited to its end.
    const progress = ada.messages().filter((m) => /Collect/.test(m.text));
    expect(progress).toHaveLength(1);
    expect(progress[0]?.text).toBe(`Collected ${counted(rows.length)}.`);
    expect(sent.text).toBe(`📄 Your statement: All, ${counted(rows.length)} (UTF-8 CSV, dates in UTC).`);
    // Paged from the exchange, 100 at a time.
    const pages = h.sandbox.requests.filter(
      (r) => r.path === "/v1/transactions" && r.query?.length === "100",
    );
    expect(pages.length).toBe(Math.ceil(exchange.length / 100) + (exchange.length % 100 === 0 ? 1 : 0));
  });

  it("a slow exchange: pages past the update's deadline, the count shown as it grows in one message", async () => {
    // Each page takes longer than this harness's whole answer deadline (1 s, set below): the
    // export gives every page a deadline of its own.
    const choose = await openExport(ada);
    h.sandbox.faults.addLatency(1_100, { method: "GET", path: "/v1/transactions" });
    const calls = h.telegram.calls.length;
    const started = performance.now();
    try {
      const sent = await exportVia(ada, "This month", choose);
      const seconds = (performance.now() - started) / 1000;
      const span = spanOf("tm", h.clock.now());
      const { rows } = rowsOf(sent);
      expect(rows).toHaveLength(records().filter((r) => r.createdAt >= (span.from ?? 0)).length);
      const edits = h.telegram.calls
        .slice(calls)
        .filter((c) => c.method === "editMessageText" && /Collect/.test(String(c.payload.text)));
      const texts = edits.map((c) => String(c.payload.text));
      expect(new Set(edits.map((c) => c.payload.message_id)).size).toBe(1);
      // The count as it grew, at most once a second, then the end.
      expect(texts.length).toBeGreaterThan(1);
      expect(texts.slice(0, -1).filter((t) => !/^Collecting… [\d,]+ transactions?$/.test(t))).toEqual([]);
      expect(texts.length - 1).toBeLessThanOrEqual(Math.ceil(seconds));
      expect(texts.at(-1)).toBe(`Collected ${counted(rows.length)}.`);
    } finally {
      h.sandbox.faults.reset();
    }
  });

  it("Last month: only that month's transactions, paging stops past it", async () => {
    const before = h.sandbox.requests.length;
    const sent = await exportVia(ada, "Last month");
    const span = spanOf("lm", h.clock.now());
    expect(sent.file?.filename).toBe("statement-2026-10.csv");
    const inRange = records().filter((r) => r.createdAt >= (span.from ?? 0) && r.createdAt < (span.to ?? 0));
    const { rows } = rowsOf(sent);
    expect(rows.map((row) => row.id)).toEqual(inRange.map((r) => String(r.id)).reverse());
    expect(rows.every((row) => row.created_at?.startsWith("2026-10-"))).toBe(true);
    // September's pages were not all fetched: the first page wholly before October ended it.
    const fetched = h.sandbox.requests.slice(before).filter((r) => r.path === "/v1/transactions").length;
    expect(fetched).toBeLessThan(Math.ceil(records().length / 100));
  });

  it("a period without transactions says so and sends no file; German with du", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/transactions");
    const list = await bea.waitForReply((m) => m.buttons.flat().includes("⬇️ Exportieren"));
    await bea.tap("⬇️ Exportieren", list);
    await bea.tap("Letztes Jahr", await bea.waitForReply(/Welchen Zeitraum/));
    await bea.waitForReply(/Keine Transaktionen in diesem Zeitraum \(Letztes Jahr\)/);
    expect(bea.messages().filter((m) => m.kind === "document")).toHaveLength(0);
  });

  it("past the file limit the oldest rows are left out and counted", () => {
    const rows: StatementRow[] = Array.from({ length: 50 }, (_, i) => ({
      fields: { id: 50 - i, created_at: new Date(Date.UTC(2026, 0, 50 - i)).toISOString(), amount: "1.5" },
    }));
    const whole = statementCsv(rows, Number.MAX_SAFE_INTEGER);
    const cut = statementCsv(rows, Math.floor(whole.bytes.length / 2));
    expect(cut.bytes.length).toBeLessThanOrEqual(Math.floor(whole.bytes.length / 2));
    expect(cut.rows + cut.left).toBe(50);
    expect(cut.left).toBeGreaterThan(0);
    const parsed = parse(cut.bytes, { columns: true }) as Row[];
    // The newest rows stay; the file still reads oldest first.
    expect(parsed.at(-1)?.id).toBe("50");
    expect(parsed[0]?.id).toBe(String(cut.left + 1));
    // Text a spreadsheet would run is defused; signed numbers stay numbers.
    const risky = statementCsv([{ fields: { id: 1, note: '=HYPERLINK("x")', amount: "-5.25" } }], 1_000);
    expect(parse(risky.bytes, { columns: true })).toEqual([
      expect.objectContaining({ note: '\'=HYPERLINK("x")', amount: "-5.25" }),
    ]);
    // Numbers the exchange sends as JSON numbers stay plain decimals.
    const big = statementCsv([{ fields: { id: 1e21, fee: 0.000001 } }], 1_000);
    expect(parse(big.bytes, { columns: true })).toEqual([
      expect.objectContaining({ id: "1000000000000000000000", fee: "0.000001" }),
    ]);
  });
});

describe("statement download, partner mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("This month: the partner API's transactions field by field, the partner order's ledger numbers", async () => {
    const cora = await h.partnerUser();
    await cora.send("/buy btc 100");
    await cora.tap("✅ Confirm", await cora.waitForReply(liveCard(/Buy BTC: your quote/)));
    await cora.waitForReply(/Order placed/);
    const sent = await exportVia(cora, "This month");
    const { header, rows } = rowsOf(sent);
    const api = h.deps.partner?.api;
    if (api === undefined) throw new Error("no partner API");
    const exchange = itemsOf(
      await api.userTransactions(cora.partnerUserId, { start: 0, length: 100 }),
    ).filter(isRecord);
    expect(rows).toHaveLength(exchange.length);
    expect(exchange.length).toBeGreaterThan(0);
    for (const tx of exchange) {
      const row = rows.find((r) => r.id === String(tx.id));
      for (const [key, value] of Object.entries(tx)) expect(row?.[key], key).toBe(expected(key, value));
    }
    expect(header).toContain("bot_order");
    const action = await h.deps.orders.ledger.latest(cora.id, "partner-buy");
    const buy = rows.find((row) => row.id === String(action?.transactionId));
    expect(buy).toMatchObject({ bot_order: "partner-buy", bot_amount: "100", bot_currency: "btc" });
    expect(buy?.bot_rate).toBe(action?.kind === "partner-buy" ? action.quote.rate : "?");
  });
});
