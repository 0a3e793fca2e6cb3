/**
 * Account mode at its edges: the market feed down before it ever answered and later stale, the
 * error screens (exchange, store, the unexpected), a flood of messages, /fees asked step by step,
 * bank accounts' every refusal, saved addresses' refusals, the allowlist off, and /unfreeze when
 * logged out.
 */
import Big from "big.js";
import { vi } from "vitest";
import { ExchangeError } from "../../../src/exchange/errors.ts";
import { StoreUnavailableError } from "../../../src/store/errors.ts";
import { loggedIn, proveItIsMe, relogin, tapAs } from "./account-steps.ts";
import { BTC_ADDRESS, type Scenario } from "./common.ts";

/** A second address of the send tests, for a send to an address that is not saved. */
const OTHER_BTC_ADDRESS = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";

/** Runs first: the market feed has never answered when the exchange's prices fail. */
export const ACCOUNT_FIRST_SCENARIOS: Scenario[] = [
  {
    name: "the exchange's prices down before the bot ever read them",
    async run(d, h) {
      h.sandbox.faults.failNext(1000, 503, { method: "GET", path: "/v1/prices*" });
      const alerting = await loggedIn(d, h);
      await d.send(alerting, "/home", "/home before any price was read");
      await d.send(alerting, "/alert", "/alert before any price was read");
      const user = h.user(undefined, { languageCode: d.locale });
      await d.send(user, "/prices", "/prices before any price was read");
      await d.send(user, "/price btc", "/price btc before any price was read");
      d.title("inline: btc before any price was read");
      await user.inlineQuery("btc");
      await d.settle();
      await d.sendInGroup(user, "/price");
      h.sandbox.faults.reset();
      // Past the feed's wait after a failed read.
      h.clock.advance(60_000);
      await d.send(user, "/prices", "/prices once the exchange answers");
      await tapAs(d, user, "chart:btc:30d", "a 30-day chart with one price known");
      await tapAs(d, user, "chart:zzz:24h", "a chart of a currency no longer listed");
      h.sandbox.faults.failNext(1000, 503, { method: "GET", path: "/v1/prices*" });
      h.clock.advance(5 * 60_000);
      await d.send(alerting, "/prices", "/prices while the exchange's prices are down (stale)");
      d.title("inline: btc while prices are stale");
      await alerting.inlineQuery("btc");
      await d.settle();
      h.sandbox.faults.reset();
    },
  },
];

export const ACCOUNT_EDGE_SCENARIOS: Scenario[] = [
  {
    name: "error screens: the exchange's timeout and bad answer, the store down, the unexpected",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.sendInGroup(user, "/price");
      const faults = h.sandbox.faults;
      faults.failNext(20, 503, { method: "GET", path: "/v1/total-balance*" });
      faults.failNext(20, 503, { method: "GET", path: "/v1/transactions*" });
      await d.fresh(user, "/home", "/home while balances and transactions cannot be read");
      faults.reset();
      const failure = (kind: "timeout" | "bad-response") =>
        new ExchangeError(`GET /v1/balance: ${kind}`, { kind, method: "GET", path: "/v1/balance" });
      for (const kind of ["timeout", "bad-response"] as const) {
        const use = vi.spyOn(h.deps.sessions, "use").mockRejectedValueOnce(failure(kind));
        await d.fresh(user, "/balance", `/balance when the exchange's answer is a ${kind}`);
        use.mockRestore();
      }
      const stranger = h.user(undefined, { languageCode: d.locale });
      const down = new StoreUnavailableError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
      for (const [title, error] of [
        ["the store is down", down],
        ["something unexpected fails", new Error("unexpected")],
      ] as const) {
        const read = vi.spyOn(h.deps.phishing, "get").mockRejectedValueOnce(error);
        await d.send(stranger, "/login", `/login when ${title}`);
        read.mockRestore();
        await d.send(stranger, "/cancel", "/login: /cancel");
      }
      await d.fresh(user, "/fees");
      await d.answer(user, "/fees step by step", "hmm", "sell", "btc", "0.01");
      await d.fresh(user, "/fees send 0.0001 btc");
      await d.fresh(user, `/buy btc ${"1".repeat(40)}`, "/buy with a very long amount");
      // The flood limit counts real time (its window is 400 ms in the catalogue).
      const windowOver = () => new Promise((resolve) => setTimeout(resolve, 450));
      await d.send(user, "/cancel", "/cancel (before a flood)");
      const tapped = user.messages().at(-1);
      await windowOver();
      d.title("a flood of messages");
      await Promise.all(Array.from({ length: 300 }, () => user.send("flood")));
      await d.settle();
      await windowOver();
      d.title("a flood of taps");
      if (tapped !== undefined)
        await Promise.all(Array.from({ length: 300 }, () => user.tapData(tapped.messageId, "gone")));
      await d.settle();
      await windowOver();
      await d.tapData(user, /^frz$/, "a security notice → Freeze");
      await d.fresh(user, "/freeze");
      await d.tapIf(user, /^frz$/, "/freeze → confirm");
      await d.fresh(user, "/logout");
      await d.fresh(user, "/unfreeze", "/unfreeze when logged out");
      const newcomer = h.user(undefined, { languageCode: d.locale });
      await d.send(newcomer, "/unfreeze", "/unfreeze, never frozen");
      await d.answer(user, "/unfreeze: log in", h.sandbox.demo.email, "not-the-password", "123456");
    },
  },
  {
    name: "bank accounts: every refusal of the add and remove steps",
    async run(d, h) {
      const user = await loggedIn(d, h);
      const faults = h.sandbox.faults;
      await d.fresh(user, "/banks add");
      await d.answer(user, "/banks add: name", "<b>Bank</b>", "B".repeat(80), "Finn Bank");
      await d.answer(
        user,
        "/banks add: IBAN",
        "DE89-3704!",
        "XX89370400440532013000",
        "DE8937040044053201300A",
      );
      await d.answer(user, "/banks add: IBAN", "DE02120300000000202051");
      await d.answer(user, "/banks add: BIC", "NWBKXX2L", "BYLADEM1001", "2");
      await d.answer(user, "/banks add: confirm", "hmm");
      faults.failNext(1, 422, { method: "POST", path: "/v1/bank-accounts*" });
      await d.tapIf(user, /:add$/, "/banks add → Add this account (refused)");
      faults.reset();
      await d.fresh(user, "/banks add", "/banks add (too many tries)");
      for (let i = 0; i < 20; i++) await d.send(user, "<>", '/banks add: name ← "<>"');
      // Added through the bot: once the exchange verified it, it still cools off.
      await d.fresh(user, "/banks add", "/banks add (accepted)");
      await d.answer(user, "/banks add", "Finn Bank", "DE02120300000000202051", "BYLADEM1001", "2");
      await d.tapIf(user, /:add$/, "/banks add → Add this account");
      h.clock.advance(11 * 60_000);
      await d.fresh(user, "/withdraw", "/withdraw to the account verified, cooling off");
      await d.tapData(user, /^wd:.*:b:\d+$/, "/withdraw → the new bank account");
      await d.answer(user, "/withdraw amount", "20");
      await d.send(user, "/cancel", "/withdraw: /cancel");
      const demo = [...h.sandbox.state.accounts.values()].find((a) => a.email === h.sandbox.demo.email);
      if (demo === undefined) throw new Error("no demo account in the sandbox");
      // A card to an account removed at the exchange before the Confirm.
      const leaving = h.sandbox.state.addBankAccount(demo, {
        name: "Leaving Bank",
        iban: "GB29NWBK60161331926819",
        swift_bic: "NWBKGB2LXXX",
        verificationAmount: new Big("1.00"),
        verified: true,
      });
      await d.fresh(user, "/withdraw", "/withdraw to an account about to be removed");
      await d.tapIf(user, new RegExp(`^wd:.*:b:${leaving.id}$`), "/withdraw → that account");
      await d.answer(user, "/withdraw amount", "20");
      h.sandbox.state.bankAccounts.delete(leaving.id);
      h.clock.advance(3 * 60_000);
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm (expired, the account is gone)");
      // Another account to remove: added at the exchange, then removed in its own app mid-flow.
      const bank = h.sandbox.state.addBankAccount(demo, {
        name: "Gone Bank",
        iban: "FR1420041010050500013M02606",
        swift_bic: "PSSTFRPPXXX",
        verificationAmount: new Big("1.00"),
        verified: true,
      });
      await d.fresh(user, "/banks remove");
      await d.tapIf(user, new RegExp(`:rm:${bank.id}$`), "/banks remove → the other account");
      await d.answer(user, "/banks remove: confirm", "hmm");
      faults.failNext(1, 422, { method: "DELETE", path: "/v1/bank-accounts*" });
      await d.tapIf(user, /:rmok:/, "/banks remove → Yes (refused)");
      faults.reset();
      await d.fresh(user, "/banks remove");
      await d.tapIf(user, new RegExp(`:rm:${bank.id}$`), "/banks remove → the other account");
      h.sandbox.state.bankAccounts.delete(bank.id);
      await d.tapIf(user, /:rmok:/, "/banks remove → Yes (removed meanwhile elsewhere)");
    },
  },
  {
    name: "saved addresses' refusals, the allowlist off, a send to an address not saved",
    async run(d, h) {
      const user = await loggedIn(d, h);
      const add = async (address: string, label: string, title: string) => {
        await d.fresh(user, "/addresses");
        await d.tapIf(user, /^adr:add$/, `/addresses → Add (${title})`);
        await d.tapIf(user, /cur:btc$/, `/addresses add → BTC (${title})`);
        await d.answer(user, `/addresses add (${title})`, address, label);
      };
      await add(BTC_ADDRESS, "Cold wallet", "the code wrong three times");
      await d.answer(
        user,
        "/addresses add: is it you?",
        h.sandbox.demo.password,
        "111111",
        "222222",
        "333333",
      );
      await d.tapData(user, /^adf:/, "/addresses add → a button of the ended flow");
      await add(BTC_ADDRESS, "Cold wallet", "saved");
      await proveItIsMe(d, h, user, "/addresses add (is it you?)");
      await add(BTC_ADDRESS, "Vault", "the same address, another name");
      await proveItIsMe(d, h, user, "/addresses add (is it you?)");
      await d.fresh(user, "/addresses");
      const remove = d.button(user, /^adr:rm:/)?.data;
      await d.tapIf(user, /^adr:rm:/, "/addresses → remove");
      await tapAs(d, user, remove, "/addresses → remove the removed one again");
      await d.fresh(user, "/safety cooling 48");
      await d.fresh(user, "/safety cooling 24");
      await proveItIsMe(d, h, user, "/safety cooling 24 (is it you?)");
      await d.fresh(user, "/safety", "/safety with a shorter cooling-off pending");
      await d.fresh(user, "/safety allowlist off");
      await proveItIsMe(d, h, user, "/safety allowlist off (is it you?)");
      await d.tick("the allowlist off takes effect", 49 * 3_600_000);
      await relogin(d, h, user);
      await d.fresh(user, "/addresses", "/addresses with the allowlist off");
      await d.fresh(user, "/safety", "/safety with the allowlist off");
      await d.fresh(user, "/safety allowlist off", "/safety allowlist off when it is off");
      await d.fresh(user, "/send");
      await d.tapIf(user, /cur:btc$/, "/send → BTC");
      await d.answer(user, "/send address (not saved)", OTHER_BTC_ADDRESS);
      await d.tapIf(user, /:once$/, "/send → Send once");
      await d.answer(user, "/send amount", "0.0006");
      // Turned on again meanwhile (as from another chat of the user's): the card's Confirm is refused.
      await h.deps.safety.setAllowlist(user.id, true);
      await d.tapIf(user, /^ord:c:/, "/send card → Confirm (the allowlist is on again)");
      // The list full (filled in the store directly: thirty saves through the chat add nothing).
      for (let i = 0; i < 30; i++)
        await h.deps.safety.addresses.save(
          user.id,
          { currency: "eth", label: `Wallet ${i + 1}`, address: `0x${String(i).padStart(40, "0")}` },
          h.clock.now(),
        );
      await add(OTHER_BTC_ADDRESS, "One more", "the list is full");
      await proveItIsMe(d, h, user, "/addresses add (is it you?)");
    },
  },
];
