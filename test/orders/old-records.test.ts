/**
 * Records written before the kinds were typed (one flat record, the quote a map of strings) still
 * read: each is written into the harness's real SQLite store exactly as the ledger wrote it then,
 * then confirmed, placed and reconciled through today's pipeline against the sandbox (a partner
 * buy: placed with the idempotency key it was recorded with).
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardText, outcomeVars } from "../../src/bot/ui/order-card.ts";
import { orderSummary } from "../../src/bot/ui/quote-card.ts";
import { requestOf } from "../../src/orders/pipeline.ts";
import type { BankAccountRecord } from "../../src/sandbox/state.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const RETENTION_MS = 30 * 24 * 60 * 60_000;
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const t = (key: string, vars?: Record<string, string | number>) =>
  vars === undefined ? key : `${key}(${Object.values(vars).join(",")})`;

let serial = 0;

/**
 * Writes a record as the old ledger's `quote()` did (`order:{id}` and `order-latest:{user}:{kind}`),
 * from `json`, the kind's fields as JSON text: the record's own words, not a typed object.
 */
async function writeOldRecord(h: Harness, userId: number, json: string): Promise<string> {
  const fields = JSON.parse(json) as { kind: string };
  const id = `old-rec-${String(serial++).padStart(4, "0")}`; // 12 characters, as the ids are
  const now = h.clock.now();
  const record = { id, userId, ...fields, createdAt: now, expiresAt: now + 60_000, state: "quoted" };
  await h.deps.store.set(`order:${id}`, record, RETENTION_MS);
  await h.deps.store.set(`order-latest:${userId}:${fields.kind}`, id, RETENTION_MS);
  return id;
}

describe("money actions recorded in the flat shape of before", () => {
  let h: Harness;
  let ada: FakeUser;
  let bank: BankAccountRecord;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.loggedInUser();
    h.sandbox.setPrice("btc", "60000");
    bank = h.sandbox.state.bankAccountsOf(h.sandbox.seeded.demo)[0] as BankAccountRecord;
  });
  afterAll(async () => {
    await h.stop();
  });

  const writeOld = (json: string) => writeOldRecord(h, ada.id, json);

  it("a buy is read as written, confirmed once, placed and matched to its transaction", async () => {
    const quote =
      '{"rate":"60000","fee":"1.5","pay":"101.5","payCurrency":"eur","get":"0.00166666","getCurrency":"btc",' +
      '"minimum":"10","minimumCurrency":"eur","balance":"10000"}';
    const id = await writeOld(`{"kind":"buy","currency":"btc","amount":"100","quote":${quote}}`);
    const read = await h.deps.orders.get(id);
    expect(read).toMatchObject({ kind: "buy", currency: "btc", amount: "100", quote: JSON.parse(quote) });
    expect(read && requestOf(read)).toEqual({ kind: "buy", currency: "btc", amount: "100" });
    expect(read && cardText(t, read, "en")).toContain("trade-card-pay(€101.50)");

    expect((await h.deps.orders.confirm(id, ada.id)).ok).toBe(true);
    expect(await h.deps.orders.confirm(id, ada.id)).toMatchObject({ ok: false, reason: "already" });
    const placed = await h.deps.orders.place(id, ada.id);
    expect(placed).toMatchObject({ kind: "placed", action: { id, state: "placed" } });
    expect(placed.kind === "placed" && placed.action.transactionId).toBeTypeOf("number");
    expect(h.sandbox.countRequests("POST", "/v1/buy")).toBe(1);
  });

  it("a withdrawal is read with its reference, and goes out only with the typed code", async () => {
    const id = await writeOld(
      `{"kind":"withdraw","currency":"eur","amount":"50","referenceNumber":"${bank.reference_number}",` +
        `"quote":{"balance":"10000","bankName":"${bank.name}","bankIban":"DE89 •••• •••• 3000",` +
        '"limitType":"fiat_withdrawal","limitLeft":"5000","limitPeriod":"day"}}',
    );
    const read = await h.deps.orders.get(id);
    expect(read && outcomeVars(t, read, "en")).toEqual({
      amount: "€50.00",
      bank: `${bank.name} · DE89 •••• •••• 3000`,
    });
    const confirmed = await h.deps.orders.confirm(id, ada.id);
    expect(confirmed.ok && h.deps.orders.needsCode(confirmed.action)).toBe(true);
    const placed = await h.deps.orders.place(id, ada.id, h.sandbox.currentCode());
    expect(placed).toMatchObject({ kind: "placed", action: { id, referenceNumber: bank.reference_number } });
    const posted = h.sandbox.requests.filter((r) => r.method === "POST" && r.path === "/v1/fiat-withdrawal");
    expect(posted.map((r) => (r.body as { reference_number?: string }).reference_number)).toEqual([
      bank.reference_number,
    ]);
  });

  it("a send's address is read back for its words", async () => {
    const id = await writeOld(
      `{"kind":"send","currency":"btc","amount":"0.001","address":"${BTC}","quote":{"fee":"0.0001",` +
        '"minerFee":"0.0002","total":"0.0013","balance":"1","minimum":"0.0001","rate":"60000","value":"60"}}',
    );
    const read = await h.deps.orders.get(id);
    expect(read && requestOf(read)).toEqual({ kind: "send", currency: "btc", address: BTC, amount: "0.001" });
    expect(read && orderSummary(t, read, "en")).toBe(`order-summary-send(0.001 BTC,${BTC})`);
    expect((await h.deps.orders.cancel(id, ada.id)).ok).toBe(true);
  });

  it("a sell left `sent` by a crash is reconciled to settled from the exchange's transactions", async () => {
    const quote =
      '{"rate":"60000","fee":"6","pay":"0.01","payCurrency":"btc","get":"594","getCurrency":"eur",' +
      '"minimum":"0.0001","minimumCurrency":"btc","balance":"1"}';
    const id = await writeOld(`{"kind":"sell","currency":"btc","amount":"0.01","quote":${quote}}`);
    const { ledger } = h.deps.orders;
    expect((await ledger.confirm(id, ada.id)).ok).toBe(true);
    expect((await ledger.markSent(id))?.state).toBe("sent");
    // The POST reached the exchange; its answer was lost with the process.
    await h.deps.sessions.use(ada.id, (client) =>
      client.sell({ amount: new Big("0.01"), currencyCode: "btc" }),
    );
    h.clock.advance(6_000);
    const notices = await h.deps.orders.reconcileUser(ada.id);
    // The buy and the withdrawal placed above settle with it: every old record reaches its end.
    expect(Object.fromEntries(notices.map((n) => [n.action.id, n.kind]))).toEqual({
      "old-rec-0000": "settled",
      "old-rec-0001": "settled",
      [id]: "settled",
    });
    expect(await h.deps.orders.get(id)).toMatchObject({ state: "settled", quote: JSON.parse(quote) });
  });
});

describe("partner actions recorded in the flat shape of before", () => {
  let h: Harness | undefined;
  afterAll(() => h?.stop());

  it("a partner buy keeps the key it was recorded with: a lost answer is asked again with it, one order", async () => {
    const partner = await startHarness({ mode: "partner" });
    h = partner;
    const cora = await partner.partnerUser();
    const key = "5f0c6f2e-8a1b-4c3d-9e7f-0a1b2c3d4e5f";
    const id = await writeOldRecord(
      partner,
      cora.id,
      `{"kind":"partner-buy","currency":"btc","amount":"100","idempotencyKey":"${key}","quote":` +
        '{"pair":"btceur","rate":"60000","pay":"100","payCurrency":"eur","get":"0.00166666","getCurrency":"btc"}}',
    );
    const path = `/api/v1/partners/users/${cora.partnerUserId}/buy`;
    const account = partner.sandbox.state.partnerUser(cora.partnerUserId);
    const buysAtExchange = () =>
      account === undefined
        ? 0
        : partner.sandbox.state.transactionsOf(account).filter((tx) => tx.type === "buy_crypto").length;
    const before = buysAtExchange();
    partner.sandbox.faults.dropAnswerNext(1, { method: "POST", path });
    const placed = await partner.deps.orders.place(id, cora.id);
    expect(placed).toMatchObject({ kind: "placed", action: { id, idempotencyKey: key } });
    const posts = partner.sandbox.requests.filter((r) => r.method === "POST" && r.path === path);
    expect(posts.map((r) => (r.body as { idempotency_key?: string }).idempotency_key)).toEqual([key, key]);
    expect(buysAtExchange()).toBe(before + 1);
  });
});
