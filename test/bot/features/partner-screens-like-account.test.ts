/**
 * Partner screens that read like the account ones: each crypto line of /balance with its EUR
 * value at the partner's EUR rate (also when the balance answer carries none), /transactions and
 * /tx without the API's pair codes, and the settled order's notice with the fee the exchange
 * reports having taken (and without a fee line when it reports none). Real sandbox, the Bot API
 * double, the harness's clock; a payload the API reference leaves open swapped in where the
 * sandbox's own shape would not show the case.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderNoticeText } from "../../../src/bot/ui/quote-card.ts";
import { feeTaken, type OrderNotice } from "../../../src/orders/reconcile.ts";
import { startBackgroundJobs } from "../../../src/process/jobs.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";
import { readAsClient } from "../../support/partner-answers.ts";

/** The reply's text, with the no-break spaces Intl puts before "€" made plain. */
async function reply(user: FakeUser, text: string, match: RegExp) {
  await user.send(text);
  const message = await user.waitForReply(match);
  return message.text.replace(/[\u00a0\u202f]/g, " ");
}

describe("partner screens like account screens", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
    h.sandbox.setPrice("btc", "60000");
    h.sandbox.setPrice("eth", "2000");
  });
  afterAll(() => h.stop());

  /** Runs `body` with one partner API method answering `answer`. */
  async function swapped(method: string, answer: unknown, body: () => Promise<void>): Promise<void> {
    const partner = h.deps.partner;
    if (partner === undefined) throw new Error("partner mode expected");
    const real = partner.api;
    partner.api = new Proxy(real, {
      get: (target, key) => {
        if (key === method) return async (...args: unknown[]) => readAsClient(method, args, answer);
        const value: unknown = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    try {
      await body();
    } finally {
      partner.api = real;
    }
  }

  it("/balance values each crypto at the partner's EUR rate, also when the balances carry no value", async () => {
    const ada = await h.partnerUser();
    const balances = [
      { currency_code: "eur", balance: "100.00" },
      { currency_code: "btc", balance: "0.5" },
      { currency_code: "eth", balance: "2" },
      { currency_code: "ltc", balance: "0" },
    ];
    await swapped("userBalance", { status: true, data: balances }, async () => {
      const text = await reply(ada, "/balance", /💼/);
      expect(text).toContain("• 0.5 BTC ≈ €30,000.00");
      expect(text).toContain("• 2 ETH ≈ €4,000.00");
      expect(text).toContain("📊 Total value: €34,100.00");
    });
    // German, the sandbox's own answer.
    const jan = await h.partnerUser(undefined, { languageCode: "de" });
    const account = h.sandbox.state.partnerUser(jan.partnerUserId);
    if (account === undefined) throw new Error("no partner user");
    h.sandbox.state.credit(account, "btc", new (await import("big.js")).default("0.01"));
    expect(await reply(jan, "/balance", /💼/)).toMatch(/^• 0,01 BTC ≈ 600,00 €$/m);
  });

  it("/transactions and /tx word a pair instead of showing the API's code", async () => {
    const ada = await h.partnerUser();
    const row = {
      id: 91,
      state: "success",
      transaction_type: "buy_crypto",
      currency_code: "btc",
      pair: "btceur",
      amount: "100",
      created_at: "2026-11-22T09:12:00Z",
      market: "ethusdc",
    };
    await swapped("userTransactions", { status: true, data: [row] }, async () => {
      const text = await reply(ada, "/transactions", /📜/);
      expect(text).not.toMatch(/btceur|ethusdc/i);
      expect(text).toContain("#91 Buy · €100.00 → BTC");
      expect(text).toContain("ETH/USDC");
    });
    await swapped("userTransaction", { status: true, data: row }, async () => {
      const text = await reply(ada, "/tx 91", /#91/);
      expect(text).not.toMatch(/btceur|ethusdc/i);
      expect(text).toContain("ETH/USDC");
    });
  });

  it("the settled order's notice tells the fee the exchange took", async () => {
    const ada = await h.partnerUser();
    await ada.send("/buy btc 100");
    await ada.waitForReply(/your quote/);
    await ada.tap("✅ Confirm");
    await ada.waitForReply(/Order placed: buy BTC for €100\.00/);
    const order = [...h.sandbox.state.transactions.values()].at(-1);
    h.clock.advance(6_000); // the sandbox settles orders after 5 s
    const jobs = startBackgroundJobs({
      deps: h.deps,
      api: h.bot.api,
      intervalMs: 3_600_000,
      autoStart: false,
    });
    try {
      await jobs.tick();
      await jobs.notifier.queue.idle();
    } finally {
      await jobs.stop();
    }
    const notice = await ada.waitForReply(/completed/);
    expect(order?.fee.toFixed(2)).toBe("1.50");
    expect(notice.text).toBe(
      "🎉 Your order (buy BTC for €100.00) completed. The exchange took a fee of €1.50.",
    );
  });

  it("reads a fee tolerantly, and says nothing of one it cannot read", () => {
    expect(feeTaken({ fee: "1.5", fee_currency: "EUR" })).toEqual({ amount: "1.5", currency: "eur" });
    expect(feeTaken({ fee_amount: 2, fee_currency_code: "eur" })).toEqual({ amount: "2", currency: "eur" });
    expect(feeTaken({ fee: { amount: "0.0001", currency: "btc" } })).toEqual({
      amount: "0.0001",
      currency: "btc",
    });
    expect(feeTaken({ fee: "1.5" })).toBeUndefined();
    expect(feeTaken({ amount: "100" })).toBeUndefined();

    const action = {
      kind: "partner-buy",
      currency: "btc",
      amount: "100",
    } as unknown as OrderNotice["action"];
    const t = (key: string, args?: Record<string, unknown>) => `${key} ${JSON.stringify(args ?? {})}`;
    const without = orderNoticeText(t, { kind: "settled", userId: 1, action, locale: "en" }, "en", undefined);
    expect(without).toMatch(/^order-notice-settled /);
    const withFee = orderNoticeText(
      t,
      {
        kind: "settled",
        userId: 1,
        action: { ...action, feeTaken: "1.5", feeTakenCurrency: "eur" },
        locale: "en",
      },
      "en",
      undefined,
    );
    expect(withFee).toMatch(/^order-notice-settled-fee .*"fee":"€1\.50"/);
    // A withdrawal the exchange charged nothing for: no "fee of €0.00".
    const free = orderNoticeText(
      t,
      {
        kind: "settled",
        userId: 1,
        action: { ...action, feeTaken: "0", feeTakenCurrency: "eur" },
        locale: "en",
      },
      "en",
      undefined,
    );
    expect(free).toMatch(/^order-notice-settled /);
  });
});
