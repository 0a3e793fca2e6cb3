/**
 * The statement download (/transactions → Export): a long history paged from the sandbox over
 * HTTP, the progress in one edited message, the CSV sent through the Bot API double and read back
 * with csv-parse: columns named for people in the user's language, the screens' words for type
 * and state, every amount with its currency, the bot's own orders joined from the ledger; no row
 * doubled or lost when a transaction arrives between two pages; the second file in Koinly's
 * universal import format, its header exactly the documented columns and every field valid;
 * partner mode too; and the 50 MB limit.
 */
import Big from "big.js";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type StatementRow, statementCsv } from "../../../src/bot/ui/statement-csv.ts";
import { spanOf } from "../../../src/bot/ui/statement-ranges.ts";
import { readTransaction } from "../../../src/exchange/partner-read.ts";
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

const EN_HEADER = [
  "Date (UTC)",
  "Number",
  "Type",
  "Status",
  "Amount",
  "Fee",
  "Address or reference",
  "Your order in this bot",
  "Rate",
];
const DE_HEADER = [
  "Datum (UTC)",
  "Nummer",
  "Art",
  "Status",
  "Betrag",
  "Gebühr",
  "Adresse oder Referenz",
  "Dein Auftrag in diesem Bot",
  "Kurs",
];

/**
 * Koinly's universal import template, as its help centre documents it ("How to create a custom
 * CSV file with your data", Universal template); written out here, not imported from the code.
 */
const KOINLY_HEADER = [
  "Koinly Date",
  "Sent Amount",
  "Sent Currency",
  "Received Amount",
  "Received Currency",
  "Fee Amount",
  "Fee Currency",
  "Net Worth Amount",
  "Net Worth Currency",
  "Label",
  "Description",
  "TxHash",
];
const KOINLY_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/;
const PLAIN_DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
const TICKER = /^[A-Z0-9]{2,10}$/;

/** Every field of a Koinly row valid: its date, each amount with its currency, the fee likewise. */
function expectValidKoinlyRow(row: Row): void {
  expect(row["Koinly Date"], JSON.stringify(row)).toMatch(KOINLY_DATE);
  for (const side of ["Sent", "Received", "Fee"]) {
    const amount = row[`${side} Amount`] ?? "";
    const currency = row[`${side} Currency`] ?? "";
    expect(amount === "", `${side} of ${JSON.stringify(row)}`).toBe(currency === "");
    if (amount !== "") {
      expect(amount).toMatch(PLAIN_DECIMAL);
      expect(Number(amount)).toBeGreaterThan(0);
      expect(currency).toMatch(TICKER);
    }
  }
  expect((row["Sent Amount"] ?? "") !== "" || (row["Received Amount"] ?? "") !== "").toBe(true);
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

/** The Koinly file of a range, from the statement's ranges through its own button. */
async function koinlyVia(user: FakeUser, range: string): Promise<SentMessage> {
  await user.tap(/Koinly/, await openExport(user));
  await user.tap(range, await user.waitForReply(/file for Koinly|Datei für Koinly/));
  return user.waitForReply((m) => m.kind === "document" && /koinly/.test(m.file?.filename ?? ""));
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

  it("All: one row per transaction, columns for people, the screens' words, amounts with their currency; progress in one message", async () => {
    const sent = await exportVia(ada, "All");
    expect(sent.file?.filename).toBe("statement-all.csv");
    const { header, rows } = rowsOf(sent);
    expect(header).toEqual(EN_HEADER);
    const exchange = records();
    expect(rows).toHaveLength(exchange.length);
    expect(new Set(rows.map((row) => row.Number))).toEqual(new Set(exchange.map((r) => String(r.id))));
    // Oldest first, dates in UTC as a spreadsheet sorts them.
    expect(rows[0]).toMatchObject({
      "Date (UTC)": "2026-09-01 00:00:00",
      Type: "Euro deposit",
      Status: "✅ done",
      Amount: "€0.01",
      Fee: "€0.00",
      "Address or reference": "RF18000000",
      "Your order in this bot": "",
    });
    const dates = rows.map((row) => row["Date (UTC)"] ?? "");
    expect(dates.every((d) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(d))).toBe(true);
    expect(dates).toEqual([...dates].sort());
    // No raw code of the API anywhere in the file.
    expect(JSON.stringify(rows)).not.toMatch(/fiat_deposit|buy_crypto|"success"|btceur/);

    // The bot's order: what the bot quoted, in words, and its rate.
    const action = await h.deps.orders.ledger.latest(ada.id, "buy");
    const buy = rows.find((row) => row.Number === String(action?.transactionId));
    expect(buy).toMatchObject({
      Type: "Buy",
      Status: "✅ done",
      "Your order in this bot": "buy BTC for €100.00",
      Rate: "€60,000.00 per BTC",
    });
    expect(buy?.Amount).toMatch(/^€100\.00 → 0\.\d+ BTC$/);
    expect(rows.filter((row) => row["Your order in this bot"] !== "")).toHaveLength(1);

    // The progress: one message, edited to its end.
    const progress = ada.messages().filter((m) => /Collect/.test(m.text));
    expect(progress).toHaveLength(1);
    expect(progress[0]?.text).toBe(`Collected ${counted(rows.length)}.`);
    expect(sent.text).toBe(`📄 Your statement: All, ${counted(rows.length)} (UTF-8 CSV, dates in UTC).`);
    // Paged from the exchange, 100 at a time; each page after the first starts at the last row read.
    const pages = h.sandbox.requests.filter(
      (r) => r.path === "/v1/transactions" && r.query?.length === "100",
    );
    expect(pages.length).toBe(1 + Math.ceil((exchange.length - 99) / 99));
  });

  it("a transaction arriving between two pages: no row doubled, none lost", async () => {
    const account = h.sandbox.state.accountByEmail(h.sandbox.demo.email);
    if (account === undefined) throw new Error("no demo account");
    const before = records().map((r) => String(r.id));
    const choose = await openExport(ada);
    // The export's second request for a page finds a new transaction at the top of the list.
    const sessions = h.deps.sessions;
    const use = sessions.use.bind(sessions);
    let calls = 0;
    let arrived: { id: number } | undefined;
    const spy = vi.spyOn(sessions, "use").mockImplementation((userId, run) => {
      if (++calls === 2) arrived = h.sandbox.state.recordDeposit(account, "fiat_deposit", "eur", new Big(7));
      return use(userId, run);
    });
    try {
      await ada.tap("All", choose);
      const { rows } = rowsOf(await ada.waitForReply((m) => m.kind === "document"));
      const numbers = rows.map((row) => row.Number ?? "");
      expect(arrived).toBeDefined();
      expect(new Set(numbers).size).toBe(numbers.length);
      expect(numbers.filter((n) => n !== String(arrived?.id)).sort()).toEqual([...before].sort());
    } finally {
      spy.mockRestore();
    }
  });

  it("Koinly's file: the documented header exactly, every row valid, completed transactions only", async () => {
    const sent = await koinlyVia(ada, "All");
    expect(sent.file?.filename).toBe("koinly-all.csv");
    const { header, rows } = rowsOf(sent);
    expect(header).toEqual(KOINLY_HEADER);
    for (const row of rows) expectValidKoinlyRow(row);
    const done = records().filter((r) => r.state === "success");
    expect(rows).toHaveLength(done.length);
    expect(sent.text).toContain(
      `🧾 For Koinly: All, ${done.length.toLocaleString("en")} completed transactions.`,
    );
    // A euro deposit: received; the bot's buy: euros sent, bitcoin received, the exchange's fee.
    expect(rows[0]).toMatchObject({
      "Koinly Date": "2026-09-01 00:00 UTC",
      "Sent Amount": "",
      "Received Amount": "0.01",
      "Received Currency": "EUR",
      Description: `Euro deposit #${done.at(-1)?.id}`,
    });
    const action = await h.deps.orders.ledger.latest(ada.id, "buy");
    const buy = rows.find((row) => row.Description === `Buy #${action?.transactionId}`);
    const record = done.find((r) => r.id === action?.transactionId);
    expect(buy).toMatchObject({
      "Sent Amount": "100",
      "Sent Currency": "EUR",
      "Received Amount": record?.cryptoAmount?.toFixed(),
      "Received Currency": "BTC",
      "Fee Amount": record?.fee.toFixed(),
      "Fee Currency": record?.feeCurrency.toUpperCase(),
    });
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
    expect(rows.map((row) => row.Number)).toEqual(inRange.map((r) => String(r.id)).reverse());
    expect(rows.every((row) => row["Date (UTC)"]?.startsWith("2026-10-"))).toBe(true);
    // September's pages were not all fetched: the first page wholly before October ended it.
    const fetched = h.sandbox.requests.slice(before).filter((r) => r.path === "/v1/transactions").length;
    expect(fetched).toBeLessThan(Math.ceil(records().length / 100));
  });

  it("a period without transactions says so and sends no file; German with du, columns and words in German", async () => {
    const bea = await h.loggedInUser(undefined, { languageCode: "de" });
    await bea.send("/transactions");
    const list = await bea.waitForReply((m) => m.buttons.flat().includes("⬇️ Exportieren"));
    await bea.tap("⬇️ Exportieren", list);
    await bea.tap("Letztes Jahr", await bea.waitForReply(/Welchen Zeitraum/));
    await bea.waitForReply(/Keine Transaktionen in diesem Zeitraum \(Letztes Jahr\)/);
    expect(bea.messages().filter((m) => m.kind === "document")).toHaveLength(0);

    const { header, rows } = rowsOf(await exportVia(bea, "Alles"));
    expect(header).toEqual(DE_HEADER);
    expect(rows[0]).toMatchObject({ Art: "Euro-Einzahlung", Status: "✅ erledigt", Betrag: "0,01\u00a0€" });
    const koinly = await koinlyVia(bea, "Alles");
    expect(rowsOf(koinly).header).toEqual(KOINLY_HEADER);
    expect(koinly.text).toMatch(/^🧾 Für Koinly: Alles, /);
  });

  it("past the file limit the oldest rows are left out and counted; formulas defused", () => {
    const t = (key: string) => key;
    const rows: StatementRow[] = Array.from({ length: 50 }, (_, i) => ({
      tx: readTransaction({
        id: 50 - i,
        state: "success",
        transaction_type: "fiat_deposit",
        created_at: new Date(Date.UTC(2026, 0, 50 - i)).toISOString(),
        currency_code: "eur",
        amount: "1.5",
      }).tx,
    }));
    const whole = statementCsv(t, "en", rows, Number.MAX_SAFE_INTEGER);
    const cut = statementCsv(t, "en", rows, Math.floor(whole.bytes.length / 2));
    expect(cut.bytes.length).toBeLessThanOrEqual(Math.floor(whole.bytes.length / 2));
    expect(cut.rows + cut.left).toBe(50);
    expect(cut.left).toBeGreaterThan(0);
    const parsed = parse(cut.bytes, { columns: true }) as Row[];
    // The newest rows stay; the file still reads oldest first.
    expect(parsed.at(-1)?.["statement-column-number"]).toBe("50");
    expect(parsed[0]?.["statement-column-number"]).toBe(String(cut.left + 1));
    // Text a spreadsheet would run is defused.
    const risky = statementCsv(
      t,
      "en",
      [
        {
          tx: readTransaction({
            id: 1,
            state: "success",
            transaction_type: "crypto_withdraw",
            address: '=HYPERLINK("x")',
          }).tx,
        },
      ],
      1_000,
    );
    expect(parse(risky.bytes, { columns: true })).toEqual([
      expect.objectContaining({ "statement-column-details": '\'=HYPERLINK("x")' }),
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

  it("This month: the partner API's transactions (in either shape) for people and for Koinly, the partner order's ledger numbers", async () => {
    const cora = await h.partnerUser();
    await cora.send("/buy btc 100");
    await cora.tap("✅ Confirm", await cora.waitForReply(liveCard(/Buy BTC: your quote/)));
    await cora.waitForReply(/Order placed/);
    // Settled: Koinly's file holds completed transactions only.
    h.clock.advance(6_000);
    await h.deps.orders.reconcileUser(cora.id);
    const account = h.sandbox.state.partnerUser(cora.partnerUserId);
    const exchange = account === undefined ? [] : h.sandbox.state.transactionsOf(account);
    expect(exchange.length).toBeGreaterThan(0);
    const action = await h.deps.orders.ledger.latest(cora.id, "partner-buy");
    for (const alternate of [false, true]) {
      h.sandbox.faults.alternateShapes(alternate);
      const { header, rows } = rowsOf(await exportVia(cora, "This month"));
      expect(header).toEqual(EN_HEADER);
      expect(rows.map((row) => row.Number).sort()).toEqual(exchange.map((r) => String(r.id)).sort());
      const buy = rows.find((row) => row.Number === String(action?.transactionId));
      expect(buy).toMatchObject({ Type: "Buy", "Your order in this bot": "buy BTC for €100.00" });
      expect(buy?.Amount).toMatch(/^€100\.00 → 0\.\d+ BTC$/);
      expect(buy?.Rate).toMatch(/^€[\d,.]+ per BTC$/);

      const koinly = rowsOf(await koinlyVia(cora, "This month"));
      expect(koinly.header).toEqual(KOINLY_HEADER);
      for (const row of koinly.rows) expectValidKoinlyRow(row);
      expect(koinly.rows.find((row) => row.Description === `Buy #${action?.transactionId}`)).toMatchObject({
        "Sent Amount": "100",
        "Sent Currency": "EUR",
        "Received Currency": "BTC",
      });
    }
    h.sandbox.faults.alternateShapes(false);
  });
});
