/**
 * The partner customer commands and the operator desk against the sandbox's partner API, through
 * the Bot API double. Each customer is a new partner user created through the sandbox, KYC passed
 * and linked to a Telegram user (harness `partner` option).
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositGiroCode } from "../../../src/bot/features/partner/deposit.ts";
import { readDeposit } from "../../../src/exchange/partner-read.ts";
import { startBackgroundJobs } from "../../../src/process/jobs.ts";
import { type Harness, startHarness } from "../../support/harness.ts";
import { readAsClient } from "../../support/partner-answers.ts";

async function emailOf(h: Harness, partnerUserId: number): Promise<string> {
  const user = await h.deps.partner?.api.getUser(partnerUserId);
  if (user === undefined) throw new Error("partner mode expected");
  return user.email ?? "";
}

/** A KYC-passed partner user with nothing at the exchange yet: no euros, no bank account. */
async function customer(h: Harness) {
  const user = await h.partnerUser(undefined, { eur: "0", bankAccount: false });
  return { user, partnerUserId: user.partnerUserId };
}

const OPERATOR = 777_001;

describe("partner mode: customer commands", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner", partner: { operatorIds: [OPERATOR] } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("/balance shows the balances as account mode does: euros, total, nothing raw", async () => {
    const { user, partnerUserId } = await customer(h);
    h.sandbox.deposit({ amount: new Big("1234.5"), accountId: partnerUserId });
    await user.send("/balance");
    const reply = await user.waitForReply(/Your balances/);
    expect(reply.text).toBe(
      "💼 Your balances\n\n💶 Euro: €1,234.50\n📊 Total value: €1,234.50\nYou hold no crypto yet. /buy gets you some.",
    );
    expect(reply.parseMode).toBe("HTML");
  });

  it("/balance survives another shape of the unspecified payload (until the sandbox has its switch)", async () => {
    const partner = h.deps.partner;
    if (partner === undefined) throw new Error("partner mode expected");
    const real = partner.api;
    const shapes: unknown[] = [
      { status: true, data: { eur: "10.5", btc: { available: 0.1, locked: "0", note: "<b>&</b>" } } },
      { status: "ok", result: 42 },
      { status: true, data: [] },
      "just text",
    ];
    const { user } = await customer(h);
    try {
      for (const shape of shapes) {
        // Only the balance changes shape; everything else (the KYC gate's getUser) stays real.
        partner.api = new Proxy(real, {
          get: (target, key) => {
            if (key === "userBalance") return async (...args: unknown[]) => readAsClient(key, args, shape);
            const value: unknown = Reflect.get(target, key);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
        await user.send("/balance");
        const reply = await user.waitForReply(/Your balances/);
        if (shape === shapes[0]) {
          // Keyed by currency: read as balances; what nobody recognised follows, named.
          expect(reply.text).toContain("💶 Euro: €10.50");
          expect(reply.text).toContain("• 0.1 BTC");
          expect(reply.text).toContain("BTC › Reserved: 0");
          expect(reply.text).toContain("BTC › Note: <b>&</b>");
          expect(reply.source).toContain("&lt;b&gt;&amp;&lt;/b&gt;");
        }
        if (shape === shapes[1]) expect(reply.text).toContain("Result: 42");
        if (shape === shapes[2]) expect(reply.text).toContain("no balance for you yet");
        if (shape === shapes[3]) expect(reply.text).toContain("just text");
      }
    } finally {
      partner.api = real;
    }
  });

  it("/me shows the profile; /profile changes the phone at the exchange", async () => {
    const { user, partnerUserId } = await customer(h);
    await user.send("/me");
    const me = await user.waitForReply(/Your profile/);
    expect(me.text).toContain(await emailOf(h, partnerUserId));
    expect(me.text).toContain("Identity check: passed");
    await user.send("/profile");
    await user.waitForReply(/What would you like to change/);
    await user.tap("Phone");
    await user.waitForReply(/new phone number/);
    await user.send("12");
    await user.waitForReply(/not a phone number/);
    await user.send("+49 151 2345 6789");
    const saved = await user.waitForReply(/Saved/);
    expect(saved.text).toContain("Phone: +4915123456789");
    expect(h.sandbox.state.partnerUser(partnerUserId)?.partner?.phone).toBe("+4915123456789");
  });

  it("/profile address asks country, street, number, postal code (checked for the country) and city, then saves them", async () => {
    const { user, partnerUserId } = await customer(h);
    await user.send("/profile address");
    await user.waitForReply(/three-letter code/);
    await user.send("Germany");
    await user.waitForReply(/three-letter country code/);
    await user.send("deu");
    await user.waitForReply(/street/);
    await user.send("Unter den Linden");
    await user.waitForReply(/building number/);
    await user.send("77");
    await user.waitForReply(/postal code/);
    // A city is not a postal code, nor is a code of another country's shape.
    await user.send("Berlin");
    expect((await user.waitForReply(/not a postal code/)).text).toBe(
      "That is not a postal code for DEU. Please send it again, written like 10115.",
    );
    await user.send("1010");
    await user.waitForReply(/not a postal code for DEU/);
    await user.send("10117");
    await user.waitForReply(/city/);
    await user.send("Berlin");
    const saved = await user.waitForReply(/Saved/);
    expect(saved.text).toContain("Postal code: 10117");
    const info = h.sandbox.state.partnerUser(partnerUserId)?.info;
    expect(info).toMatchObject({
      address: "Unter den Linden",
      building_number: "77",
      city: "Berlin",
      country: "DEU",
    });
  });

  it("/prices shows rates and pairs; /price btc one currency; an unknown code is said", async () => {
    const { user } = await customer(h);
    await user.send("/prices");
    const prices = await user.waitForReply(/Prices in euros/);
    expect(prices.text).toMatch(/^Bitcoin \(BTC\/EUR\): €[\d,]+\.\d\d$/m);
    expect(prices.text).toMatch(/^Rates of .+ UTC$/m);
    expect(prices.text).not.toMatch(/btceur|Timestamp|Date/);
    await user.send("/price BTC");
    const one = await user.waitForReply(/📈 Bitcoin/);
    expect(one.text).toMatch(/^Bitcoin \(BTC\/EUR\): €/m);
    expect(one.text).not.toContain("ETH");
    await user.send("/price zzz");
    expect((await user.waitForReply()).text).toContain("no rate for ZZZ");
  });

  it("/deposit shows the instructions copyable, and a GiroCode of the transfer", async () => {
    const { user, partnerUserId } = await customer(h);
    await user.send("/deposit");
    const text = await user.waitForReply(/How to deposit/);
    expect(text.text).toContain("IBAN: DE02120300000000202051");
    expect(text.source).toContain("<code>DE02120300000000202051</code>");
    // The exchange's English note about the reference is said in the user's language instead.
    expect(text.text).toContain("Put the reference in your transfer's remittance field");
    expect(text.text).not.toMatch(/Note:|Currency: eur/);
    const photo = await user.waitForReply((m) => m.kind === "photo");
    expect(photo.text).toContain("banking app");
    const instructions = await h.deps.partner?.api.depositInstructions(partnerUserId);
    if (instructions === undefined) throw new Error("partner mode expected");
    const reference = h.sandbox.state.partnerUser(partnerUserId)?.depositReference ?? "";
    expect(depositGiroCode(instructions, new Big(250))?.split("\n")).toEqual(
      expect.arrayContaining([
        "BCD",
        "BYLADEM1001",
        "Sandbox Exchange GmbH",
        "DE02120300000000202051",
        "EUR250.00",
      ]),
    );
    expect(depositGiroCode(instructions)).toContain(reference.replace(/\s+/g, ""));
    // A shape without a beneficiary makes no code.
    expect(depositGiroCode(readDeposit({ iban: "DE02120300000000202051" }))).toBeUndefined();
    expect(
      depositGiroCode(
        readDeposit({ iban: "DE02120300000000202051", beneficiary: "X", currency_code: "usd" }),
      ),
    ).toBeUndefined();
    await user.send("/deposit lots");
    expect((await user.waitForReply()).text).toMatch(/number/i);
  });

  it("/banks lists, views, adds through the deprecated endpoint, removes, and never the last one", async () => {
    const { user, partnerUserId } = await customer(h);
    const banksAtExchange = () =>
      [...h.sandbox.state.bankAccounts.values()].filter((b) => b.accountId === partnerUserId);
    await user.send("/banks");
    await user.waitForReply(/no bank account/);
    await user.tap("➕ Add");
    // Written for the user: what to do if adding fails, not that the endpoint is deprecated.
    const intro = await user.waitForReply(/Let's add your bank account/);
    expect(intro.text).toContain("contact @sandbox_support");
    expect(intro.text).not.toContain("deprecated");
    await user.waitForReply(/name of the bank/);
    await user.send("Sparkasse Berlin");
    await user.waitForReply(/IBAN/);
    await user.send("DE89 3704 0044 0532 0130 01");
    await user.waitForReply(/check digits/);
    await user.send("DE89 3704 0044 0532 0130 00");
    await user.waitForReply(/BIC/);
    await user.send("cobadeffxxx");
    // A confirm card first, as in account mode: nothing is added before its Confirm.
    const card = await user.waitForReply(/Add this bank account\?/);
    expect(card.text).toContain("IBAN: DE89 3704 0044 0532 0130 00");
    expect(card.text).toContain("BIC: COBADEFFXXX");
    expect(card.buttons.flat()).toEqual(["✅ Add this account", "Cancel"]);
    expect(banksAtExchange()).toHaveLength(0);
    await user.tap("✅ Add this account", card);
    const added = await user.waitForReply(/Added/);
    expect(added.text).toContain("DE89 3704 0044 0532 0130 00");
    expect(added.text).toContain("Reference number: RF");
    // A finished summary in words, not the exchange's answer dumped field by field.
    expect(added.text).toContain("State: ✅ verified");
    expect(added.text).not.toMatch(/The exchange says|Number:|: verified\b/);
    expect(banksAtExchange()).toHaveLength(1);

    await user.send("/banks");
    const list = await user.waitForReply(/Your bank accounts/);
    await user.tap("🗑 Remove", list);
    expect((await user.waitForCall("answerCallbackQuery")).payload.text).toMatch(/only bank account/);

    await h.deps.partner?.api.addBankAccount(partnerUserId, {
      name: "Second Bank",
      iban: "AT611904300234573201",
      swift_bic: "BKAUATWW",
    });
    await user.send("/banks");
    const two = await user.waitForReply(/Your bank accounts \(2\)/);
    await user.tap(/^👁 Second Bank/, two);
    const view = await user.waitForReply(/Bank account/);
    expect(view.source).toContain("<code>AT611904300234573201</code>");
    await user.tap("🗑 Remove", two);
    const confirm = await user.waitForReply(/Remove/i);
    await user.tap("🗑 Yes, remove it", confirm);
    await user.waitForReply(/Removed: Sparkasse Berlin/);
    expect(banksAtExchange()).toHaveLength(1);
  });

  it("/banks add: Cancel on the confirm card adds nothing", async () => {
    const { user, partnerUserId } = await customer(h);
    await user.send("/banks add");
    await user.waitForReply(/name of the bank/);
    await user.send("Sparkasse Berlin");
    await user.waitForReply(/IBAN/);
    await user.send("DE89 3704 0044 0532 0130 00");
    await user.waitForReply(/BIC/);
    await user.send("COBADEFFXXX");
    const card = await user.waitForReply(/Add this bank account\?/);
    await user.tap("Cancel", card);
    await user.waitForReply(/Cancelled\. Nothing was changed/);
    const banks = [...h.sandbox.state.bankAccounts.values()].filter((b) => b.accountId === partnerUserId);
    expect(banks).toHaveLength(0);
  });

  it("/transactions pages the user's transactions; /tx shows one; another user's is not found", async () => {
    const { user, partnerUserId } = await customer(h);
    await user.send("/transactions");
    const none = await user.waitForReply(/Your transactions/);
    expect(none.text).toContain("no transactions yet");
    // No transaction, so no example to try.
    expect(none.text).not.toContain("/tx");
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(h.sandbox.deposit({ amount: new Big(10 + i), accountId: partnerUserId }).transaction.id);
    }
    await user.send("/transactions");
    const first = await user.waitForReply(/Your transactions/);
    expect(first.text).toContain("Page 1");
    expect(first.buttons.flat()).toEqual(["Older ›", "⬇️ Export"]);
    // The example is the user's newest transaction, not a made-up number.
    expect(first.text).toContain(`e.g. /tx ${ids[6]} for your newest one`);
    await user.tap("Older ›", first);
    const second = await user.waitForReply((m) => m.edited && /Page 2/.test(m.text));
    expect(second.buttons.flat()).toEqual(["‹ Newer", "⬇️ Export"]);
    await user.send(`/tx ${ids[0]}`);
    const one = await user.waitForReply(/Transaction #\d+/);
    expect(one.text).toContain("Type: Euro deposit");
    expect(one.text).toContain("Amount: €10.00");
    // Internal ids only here, on /tx.
    expect(one.text).toContain(`Customer number: ${partnerUserId}`);
    expect(first.text).not.toMatch(/Customer number|User id/);
    expect(first.text).toMatch(/✅ done · #\d+ Euro deposit · €16\.00/);
    const other = await customer(h);
    await other.user.send(`/tx ${ids[0]}`);
    expect((await other.user.waitForReply()).text).toContain("knows no transaction");
    await user.send("/tx abc");
    expect((await user.waitForReply()).text).toContain("Which transaction?");
  });

  it("/limits shows the fiat deposit and withdrawal limits", async () => {
    const { user } = await customer(h);
    await user.send("/limits");
    const reply = await user.waitForReply(/Your limits/);
    expect(reply.text).toContain("💶 Euro deposits\nToday: €0.00 of €15,000.00\n░░░░░░░░░░ 0%");
    expect(reply.text).toContain("🏦 Euro withdrawals\nToday: €0.00 of €5,000.00");
    expect(reply.text).toContain("This month: €0.00 of €20,000.00");
    expect(reply.text).not.toMatch(/fiat_|Type:|Daily/);
  });

  it("a Telegram user without a partner link is told to sign up", async () => {
    const stranger = h.user();
    await stranger.send("/balance");
    expect((await stranger.waitForReply()).text).toContain("/start");
  });
});

describe("partner mode: the operator desk", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner", partner: { operatorIds: [OPERATOR] } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("does not exist for anyone else: the ordinary unknown-command answer, buttons inactive", async () => {
    const { user } = await customer(h);
    for (const command of ["/master", "/master alert eur 1", "/user 1", "/alltx", "/pairs", "/currencies"]) {
      await user.send(command);
      const reply = await user.waitForReply();
      expect(reply.text, command).toMatch(/^I do not know (that command|\/\w+)/);
      expect(reply.text, command).not.toMatch(/master|operator|alltx/i);
    }
    const stranger = h.user();
    await stranger.send("/master");
    expect((await stranger.waitForReply()).text).toBe("I do not know that command. Send /help for the list.");
    const message = await user.send("hello");
    await user.waitForReply();
    await user.tapData(message.message_id, "atx:0");
    expect((await user.waitForCall("answerCallbackQuery")).payload.text).toMatch(/no longer active/);
    expect(h.sandbox.countRequests("GET", "/api/v1/partners/users-transactions")).toBe(0);
    expect(h.sandbox.countRequests("GET", "/api/v1/partners/balances")).toBe(0);
  });

  it("/master shows every currency's master balance; /master eur one", async () => {
    const operator = h.user(OPERATOR);
    await operator.send("/master");
    const all = await operator.waitForReply(/Master balances/);
    expect(all.text).toContain("€250,000.00");
    expect(all.text).toContain("5 BTC");
    await operator.send("/master eth");
    const one = await operator.waitForReply(/Master balances/);
    expect(one.text).toContain("50 ETH");
    expect(one.text).not.toContain("BTC");
  });

  it("/user finds a partner user by id and by e-mail, with the KYC status and the Telegram link", async () => {
    const { user, partnerUserId } = await customer(h);
    const operator = h.user(OPERATOR);
    await operator.send(`/user ${partnerUserId}`);
    const byId = await operator.waitForReply(/Partner user/);
    expect(byId.text).toContain(`Telegram: ${user.id}`);
    expect(byId.text).toContain("Identity check: passed");
    await operator.send(`/user ${await emailOf(h, partnerUserId)}`);
    expect((await operator.waitForReply(/Partner user/)).text).toContain(`Partner user ${partnerUserId}`);
    await operator.send("/user nobody@partner.test");
    expect((await operator.waitForReply()).text).toContain("No partner user");
    await operator.send("/user");
    expect((await operator.waitForReply()).text).toContain("/user 42");
  });

  it("/alltx pages every user's transactions; /pairs and /currencies list", async () => {
    const a = await customer(h);
    const b = await customer(h);
    h.sandbox.deposit({ amount: new Big(11), accountId: a.partnerUserId });
    h.sandbox.deposit({ amount: new Big(22), accountId: b.partnerUserId });
    const operator = h.user(OPERATOR);
    await operator.send("/alltx");
    const page = await operator.waitForReply(/Every user's transactions/);
    expect(page.text).toContain(`Customer number: ${a.partnerUserId}`);
    expect(page.text).toContain(`Customer number: ${b.partnerUserId}`);
    // The operator is no customer: the desk's paging button still works (the KYC gate lets it by).
    const before = operator.messages().length;
    await operator.tapData(page.message.message_id, "atx:0");
    await h.telegram.waitUntilIdle({ quietMs: 200 });
    const after = operator.messages().slice(before);
    expect(after.filter((m) => /\/start|sign up/i.test(m.text))).toEqual([]);
    await operator.send("/pairs");
    expect((await operator.waitForReply(/Pairs/)).text).toContain("Currency: BTC");
    await operator.send("/currencies");
    expect((await operator.waitForReply(/Currencies/)).text).toContain("Name: Bitcoin");
  });

  it("/master alert: fires once through the delivery queue below the threshold, and re-arms", async () => {
    const operator = h.user(OPERATOR);
    const jobs = startBackgroundJobs({
      deps: h.deps,
      api: h.bot.api,
      intervalMs: 3_600_000,
      autoStart: false,
    });
    const tick = async () => {
      await jobs.tick();
      await jobs.notifier.queue.idle();
    };
    const notices = () => operator.messages().filter((m) => m.text.includes("below the alert threshold"));
    try {
      await operator.send("/master alert eur 1000");
      expect((await operator.waitForReply(/Set/)).text).toContain("It is €250,000.00 now");
      await tick();
      expect(notices()).toHaveLength(0);

      h.sandbox.state.masterBalances.set("eur", new Big("999.99"));
      await tick();
      await tick();
      expect(notices()).toHaveLength(1);
      expect(notices()[0]?.text).toContain("€999.99, below the alert threshold of €1,000.00");
      await operator.send("/master alert");
      expect((await operator.waitForReply(/Low-balance alerts/)).text).toContain("fired");

      h.sandbox.state.masterBalances.set("eur", new Big("5000"));
      await tick();
      h.sandbox.state.masterBalances.set("eur", new Big("10"));
      await tick();
      await tick();
      expect(notices()).toHaveLength(2);

      await operator.send("/master alert eur off");
      expect((await operator.waitForReply()).text).toContain("removed");
      h.sandbox.state.masterBalances.set("eur", new Big("5000"));
      await tick();
      h.sandbox.state.masterBalances.set("eur", new Big("1"));
      await tick();
      expect(notices()).toHaveLength(2);

      await operator.send("/master alert eur lots");
      expect((await operator.waitForReply()).text).toMatch(/number/i);
      await operator.send("/master alert zzz 5");
      expect((await operator.waitForReply()).text).toContain("no master balance in ZZZ");
    } finally {
      await jobs.stop();
    }
  });
});
