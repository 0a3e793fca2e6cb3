/**
 * Account mode (users log in to their own exchange account): every command, its flows' steps,
 * cards, refusals and the notices the background jobs send.
 */
import Big from "big.js";
import { registerCommands } from "../../../src/bot/commands.ts";
import { ACCOUNT_OTHER_SCENARIOS } from "./account-accounts.ts";
import { ACCOUNT_EDGE_SCENARIOS, ACCOUNT_FIRST_SCENARIOS } from "./account-edges.ts";
import { ACCOUNT_GUIDED_SCENARIOS } from "./account-guided.ts";
import { ACCOUNT_MONEY_SCENARIOS } from "./account-money.ts";
import { loggedIn, proveItIsMe, relogin } from "./account-steps.ts";
import { BTC_ADDRESS, explore, runPlansOnTime, type Scenario, switchLanguage } from "./common.ts";

/** Commands whose screen and buttons are toured once logged in. */
const TOURED = [
  "/home",
  "/me",
  "/balance",
  "/prices",
  "/price btc",
  "/price",
  "/deposit",
  "/banks",
  "/addresses",
  "/transactions",
  "/limits",
  "/fees",
  "/alerts",
  "/recurring",
  "/settings",
  "/safety",
  "/notifications",
  "/language",
  "/buy",
  "/sell",
  "/send",
  "/withdraw",
];

export const ACCOUNT_SCENARIOS: Scenario[] = [
  ...ACCOUNT_FIRST_SCENARIOS,
  {
    name: "a stranger: start, help, menu, refusals",
    async run(d, h) {
      const user = h.user(undefined, { languageCode: d.locale });
      d.title("the command menu");
      await registerCommands(h.bot.api, h.deps);
      await d.settle();
      for (const text of ["/start", "/help", "/home", "/balance", "/buy btc 100", "/freeze", "/unfreeze"])
        await d.send(user, text, `not logged in: ${text}`);
      await d.send(user, "hello", "not logged in: text");
      await d.send(user, "/balanse", "a typo of a command");
      await d.send(user, "/nonsense", "an unknown command");
      d.title("a sticker");
      await user.sendSticker();
      await d.settle();
      d.title("a photo");
      await user.sendPhoto("look");
      await d.settle();
      await d.sendInGroup(user, "/help");
      await d.sendInGroup(user, "/price btc");
      await d.sendInGroup(user, "/balance");
      d.title("inline: btc");
      await user.inlineQuery("btc");
      await d.settle();
      d.title("inline: empty");
      await user.inlineQuery("");
      await d.settle();
      d.title("inline: unknown");
      await user.inlineQuery("zzz");
      await d.settle();
    },
  },
  {
    name: "login, with its mistakes, and logout",
    async run(d, h) {
      const user = h.user(undefined, { languageCode: d.locale });
      await d.send(user, "/login");
      await d.answer(
        user,
        "/login",
        "not an e-mail",
        h.sandbox.demo.email,
        "not-the-password",
        "12",
        "000000",
      );
      await d.fresh(user, "/login", "/login again");
      await d.answer(user, "/login", h.sandbox.demo.email, h.sandbox.demo.password, "000000");
      await d.answer(user, "/login", h.sandbox.currentCode());
      await d.fresh(user, "/login", "/login when logged in");
      await d.tick("session about to end", 56 * 60_000);
      await d.tapData(user, /^login$/, "expiry warning → Stay logged in");
      await proveItIsMe(d, h, user, "stay logged in");
      await d.fresh(user, "/settings remember on");
      await d.tick("session about to end (password remembered)", 56 * 60_000);
      await d.answer(user, "stay logged in with the code alone", h.sandbox.currentCode());
      await d.fresh(user, "/settings logout 15");
      await d.tick("logged out after 15 minutes without activity", 20 * 60_000);
      await d.tick("session ended", 70 * 60_000);
      await d.fresh(user, "/balance", "/balance after the session ended");
      await d.send(user, "/logout", "/logout when logged out");
    },
  },
  {
    name: "tour of every command, logged in",
    async run(d, h) {
      d.title("login (helper)");
      const user = await h.loggedInUser(undefined, { languageCode: d.locale });
      await d.settle();
      h.sandbox.deposit({ amount: new Big(500), email: h.sandbox.demo.email });
      for (const command of TOURED) await explore(d, user, command);
      await d.send(user, "/tx 1", "/tx 1");
      await d.send(user, "/tx abc", "/tx abc");
      await d.send(user, "/tx 99999", "/tx 99999");
      await d.fresh(user, "/transactions btc");
      await d.fresh(user, "/transactions doge");
      await d.send(user, "/price doge");
      await d.send(user, "/fees buy 100");
      await d.send(user, "/fees sell 0.01 btc");
      await d.send(user, "/fees send 0.01 btc");
      await d.send(user, "/fees send eur");
      await d.send(user, "/fees sell 1 doge");
      await d.send(user, "/deposit new xrp");
      await d.send(user, "/deposit lots");
      await d.send(user, "/cancel", "/cancel with nothing to stop");
      await d.send(user, "/balanse", "logged in: a typo of a command");
      await d.send(user, "/nonsense", "logged in: an unknown command");
      await d.send(user, "hello", "logged in: text");
      await d.send(user, "/login", "/login when logged in");
      await d.fresh(user, "/deposit new");
      await d.tapIf(user, /^dep:cur:/, "/deposit new → currency");
      await d.fresh(user, "/deposit new doge");
      for (let i = 0; i < 12; i++)
        await d.send(user, `/alert btc above ${70_000 + i * 1000}`, "/alert (up to the limit)");
      await d.send(user, "/logout");
    },
  },
  {
    name: "buy and sell: steps, card, refusals, confirm, settlement",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.fresh(user, "/buy");
      await d.tap(user, /^trade:p:buy:btc$/, "/buy → currency");
      await d.answer(
        user,
        "/buy BTC",
        "",
        "abc",
        "0",
        "1e3",
        "1,00.5",
        "2000000000000",
        "12345678901234567890",
        "5",
        "20000",
        "6000",
        "100",
      );
      await d.tap(user, /^ord:c:/, "/buy card → Confirm");
      await d.tapData(user, /^ord:c:/, "/buy card → Confirm again (an old tap)");
      await d.tick("order settled", 10_000);
      await d.fresh(user, "/buy btc 50");
      await d.tapIf(user, /^ord:e:/, "/buy card → Change amount");
      await d.answer(user, "/buy change", "30");
      await d.tapIf(user, /^ord:x:/, "/buy card → Cancel");
      await d.tapData(user, /^ord:x:/, "/buy card → Cancel again (an old tap)");
      await d.fresh(user, "/buy btc 40");
      await d.send(user, "/buy btc 45", "/buy again while a card is open");
      await d.tapData(user, /^ord:c:/, "the replaced card → Confirm", -2);
      await d.send(user, "confirm", "a typed Confirm");
      await d.tick("typed order settled", 10_000);
      await d.send(user, "confirm", "a typed Confirm with no card");
      await d.fresh(user, "/buy btc 60");
      h.clock.advance(10 * 60_000);
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm after it expired");
      await d.fresh(user, "/buy dogecoin 100");
      await d.fresh(user, "/sell");
      await d.tap(user, /^trade:p:sell:btc$/, "/sell → currency");
      await d.answer(user, "/sell BTC", "0,0001");
      await d.tapIf(user, /^ord:c:/, "/sell card → Confirm");
      await d.tick("sell settled", 10_000);
      await d.fresh(user, "/sell btc 0.000000001");
      await d.fresh(user, "/sell btc 1000");
      h.sandbox.faults.settleOrdersAs("error");
      await d.fresh(user, "/buy eth 50");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (fails)");
      await d.tick("order failed", 10_000);
      h.sandbox.faults.settleOrdersAs("success");
      h.sandbox.faults.closeAsset("buy", "ltc");
      h.sandbox.faults.closeAsset("sell", "ltc");
      h.sandbox.faults.closeAsset("send", "ltc");
      await d.fresh(user, "/buy ltc 50", "/buy of a closed asset");
      await d.fresh(user, "/sell ltc 1", "/sell of a closed asset");
      await d.fresh(user, "/send ltc", "/send of a closed asset");
      h.sandbox.faults.openAsset("buy", "ltc");
      h.sandbox.faults.openAsset("sell", "ltc");
      h.sandbox.faults.openAsset("send", "ltc");
      h.sandbox.faults.dropAnswerNext(1, { method: "POST", path: "/v1/buy" });
      await d.fresh(user, "/buy btc 15");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (the answer is lost)");
      await d.tick("the lost order reconciled", 10_000);
      await d.fresh(user, "/transactions");
      await d.tapIf(user, /^tx:p:/, "/transactions → next page");
      await d.tapIf(user, /^tx:p:/, "/transactions → previous page");
      await d.tapIf(user, /^tx:f:/, "/transactions → filter");
      await d.tapIf(user, /^tx:s:btc/, "/transactions → filter BTC");
      await d.fresh(user, "/transactions");
      await d.tapIf(user, /^tx:x:/, "/transactions → Export");
      await d.tapIf(user, /^tx:x:/, "/transactions → Export → a range");
      await d.fresh(user, "/transactions");
      await d.tapIf(user, /^tx:x:/, "/transactions → Export");
      await d.tapIf(user, /^tx:x:.*l[my]$/, "/transactions → Export → last month or year");
      // One of each kind the demo account holds: buy, sell, deposit, withdrawal, send.
      const kinds = new Map<string, number>();
      for (const [id, tx] of h.sandbox.state.transactions)
        kinds.set(`${String(tx.type)}:${String(tx.state)}`, id);
      for (const id of kinds.values()) await d.send(user, `/tx ${id}`);
      await d.fresh(user, "/transactions xrp");
    },
  },
  {
    name: "send: a saved address, its cooling-off, the card and its code",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.fresh(user, "/addresses");
      await d.tapIf(user, /^adr:add$/, "/addresses → Add");
      await d.tapIf(user, /cur:btc$/, "/addresses add → BTC");
      await d.answer(user, "/addresses add", "not an address", BTC_ADDRESS, "", "Cold wallet");
      await proveItIsMe(d, h, user, "/addresses add (is it you?)");
      await d.fresh(user, "/addresses");
      await d.fresh(user, "/send");
      await d.tap(user, /cur:btc$/, "/send → currency");
      await d.answer(user, "/send BTC", "bc1q", "0x52908400098527886E0F7030069857D2E4169EE7");
      await d.answer(user, "/send BTC", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh");
      await d.tapIf(user, /:save$/, "/send → Save this address");
      await d.answer(user, "/send save", "Other wallet");
      await proveItIsMe(d, h, user, "/send save (is it you?)");
      await d.tick("address cooling-off over", 25 * 3_600_000);
      await relogin(d, h, user);
      await d.fresh(user, "/send");
      await d.tap(user, /cur:btc$/, "/send → currency");
      await d.tapIf(user, /:a:/, "/send → saved address");
      await d.answer(user, "/send amount", "abc", "0.00000001", "1000", "0.0006");
      await d.tapIf(user, /^ord:c:/, "/send card → Confirm");
      await d.answer(user, "/send code", "12", "000000", h.sandbox.currentCode());
      await d.tick("send settled", 10_000);
      await d.fresh(user, "/send");
      await d.tap(user, /cur:btc$/, "/send → currency");
      await d.tapIf(user, /:a:/, "/send → saved address");
      await d.answer(user, "/send amount", "0.0006");
      await d.tapIf(user, /^ord:x:/, "/send card → Cancel");
      await d.tapData(user, /^ord:c:/, "/send card → Confirm on the cancelled card");
      await d.fresh(user, "/send eur", "/send eur");
      await d.fresh(user, "/send doge", "/send doge");
      await d.fresh(user, "/addresses");
      await d.tapIf(user, /^adr:rm:/, "/addresses → remove");
      await d.tapData(user, /^adr:rm:/, "/addresses → remove again (gone)");
    },
  },
  {
    name: "withdraw and bank accounts",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.fresh(user, "/withdraw");
      await d.tapIf(user, /^wd:/, "/withdraw → bank account");
      await d.answer(user, "/withdraw amount", "abc", "100000", "20");
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm");
      await d.answer(user, "/withdraw code", "12", "000000", h.sandbox.currentCode());
      await d.tick("withdrawal settled", 10_000);
      await d.fresh(user, "/withdraw");
      await d.tapIf(user, /^wd:/, "/withdraw → bank account");
      await d.answer(user, "/withdraw amount", "15");
      await d.tapIf(user, /^ord:x:/, "/withdraw card → Cancel");
      await d.tapData(user, /^ord:c:/, "/withdraw card → Confirm on the cancelled card");
      await d.fresh(user, "/banks");
      await d.tapIf(user, /^banks:add$/, "/banks → Add");
      await d.answer(user, "/banks add", "B", "West Bank", "", "DE12", "DE89 3704 0044 0532 0130 00");
      await d.answer(user, "/banks add", "GB82 WEST 1234 5698 7654 33", "GB82 WEST 1234 5698 7654 32");
      await d.answer(user, "/banks add", "NWBK", "NWBKGB2L", "abc", "1,23");
      await d.tapIf(user, /:add$/, "/banks add → Add this account");
      await d.tapData(user, /:add$/, "/banks add → Add this account again (an old tap)");
      await d.fresh(user, "/banks");
      await d.fresh(user, "/withdraw", "/withdraw while the new bank account cools off");
      await d.answer(user, "/withdraw (pending bank)", "2");
      await d.fresh(user, "/banks remove");
      await d.answer(user, "/banks remove", "7", "2");
      await d.tapIf(user, /:no$/, "/banks remove → Keep it");
      await d.fresh(user, "/banks remove");
      await d.answer(user, "/banks remove", "2");
      await d.tapIf(user, /:rmok:/, "/banks remove → Yes, remove it");
      await d.fresh(user, "/banks");
      await d.tapIf(user, /^banks:remove$/, "/banks → Remove");
    },
  },
  {
    name: "alerts, recurring plans and their notices",
    async run(d, h) {
      const user = await loggedIn(d, h);
      h.sandbox.setPrice("btc", "60000");
      for (const text of [
        "/alert",
        "/alert btc above 65000",
        "/alert btc above 65000",
        "/alert eth below 1000",
        "/alert btc change 5",
        "/alert btc change 500",
        "/alert btc sideways 5",
        "/alert btc above -5",
        "/alert doge above 1",
        "/alerts",
      ])
        await d.fresh(user, text);
      await d.tick("alerts checked");
      h.sandbox.setPrice("btc", "66000");
      h.sandbox.setPrice("eth", "900");
      await d.tick("alert fired", 60_000);
      await d.tapIf(user, /^an:/, "alert notice → Set another");
      await d.fresh(user, "/alerts");
      await d.tapIf(user, /^alert:rm:/, "/alerts → remove");
      await d.tapData(user, /^alert:r[mx]:/, "/alerts → remove again (gone)");
      await d.fresh(user, "/settings alerts off");
      await d.fresh(user, "/alert btc below 10");
      await d.fresh(user, "/settings alerts on");
      await d.fresh(user, "/recurring btc 25 daily 9");
      await d.answer(user, "/recurring time zone", "Atlantis", "Berlin");
      await d.tapIf(user, /^pl:c:/, "/recurring card → Confirm");
      await d.tapData(user, /^pl:c:/, "/recurring card → Confirm again (an old tap)");
      for (const text of [
        "/recurring",
        "/recurring btc 5 daily 9",
        "/recurring btc 25 hourly",
        "/recurring btc 25 weekly someday 9",
        "/recurring btc 25 monthly 40 9",
        "/recurring btc 25 daily 25",
        "/recurring btc 25 daily 9 until 2020-01-01",
        "/recurring doge 25 daily 9",
        "/recurring btc lots daily 9",
        "/recurring eth 25 weekly monday 18",
        "/recurring btc 100 monthly last 9 runs 3",
        "/recurring btc 30 monthly 15 9",
        "/recurring btc 25 daily 9 until someday",
        "/recurring ltc 20 daily 10",
        "/recurring xrp 20 daily 11",
        "/recurring usdc 20 daily 12",
      ])
        await d.fresh(user, text);
      await d.tapIf(user, /^pl:x:/, "/recurring card → Cancel");
      await d.fresh(user, "/recurring");
      await d.tapIf(user, /^pl:s:/, "/recurring → skip next");
      await d.tapIf(user, /^pl:s:/, "/recurring → undo skip");
      await d.tapIf(user, /^pl:p:/, "/recurring → pause");
      await d.tapIf(user, /^pl:p:/, "/recurring → resume");
      await runPlansOnTime(d, h, user.id, "recurring plan due on time (reminder)");
      await relogin(d, h, user);
      await d.tapData(user, /^aq:buy:/, "reminder → its button");
      await d.fresh(user, "/recurring");
      await d.tapIf(user, /^pl:k:/, "/recurring → stop");
      await d.tapData(user, /^pl:p:/, "/recurring → resume a stopped plan (an old tap)");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:n:digest:1$/, "notifications → daily digest on");
      await d.tick("daily digest", 24 * 3_600_000);
      await d.tick("daily digest, the next day", 24 * 3_600_000);
    },
  },
  {
    name: "settings, notifications, safety, freeze and its security notices",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await explore(d, user, "/settings", { depth: 2 });
      await explore(d, user, "/notifications", { depth: 2 });
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:tz$/, "notifications → time zone");
      await d.answer(user, "notifications time zone", "Atlantis", "Nowhere", "Lisbon");
      await d.fresh(user, "/notifications");
      await d.tapIf(user, /^set:qh:\d/, "notifications → quiet hours");
      await d.tapIf(user, /^set:dh:/, "notifications → digest hour");
      for (const text of [
        "/settings remember on",
        "/settings remember off",
        "/settings phrase ab",
        "/settings phrase blue tiger 42",
        "/settings phrase off",
        "/settings logout 15",
        "/settings logout 7",
        "/settings alerts silent",
        "/settings orders off",
        "/settings orders on",
        "/settings farbe blau",
        "/safety",
        "/safety cap buy 500",
        "/safety cap buy off",
        "/safety cap send btc 0.1",
        "/safety cap withdraw 100",
        "/safety cap withdraw 1000",
        "/safety cooling 12",
        "/safety cooling 48",
        "/safety cooling 500",
        "/safety allowlist off",
        "/safety allowlist off",
        "/safety allowlist on",
        "/safety nonsense",
      ]) {
        await d.fresh(user, text);
        // A looser setting asks to prove it is the user first.
        await proveItIsMe(d, h, user, `${text} (is it you?)`);
      }
      await d.tick("a looser safety setting takes effect", 25 * 3_600_000);
      await relogin(d, h, user);
      await d.fresh(user, "/safety");
      await switchLanguage(d, user, "/settings language");
      await switchLanguage(d, user, "/language");
      await d.fresh(user, "/unfreeze", "/unfreeze when not frozen");
      await d.fresh(user, "/freeze");
      await d.tapIf(user, /^frz$/, "/freeze → confirm");
      await d.fresh(user, "/freeze", "/freeze again");
      await d.tapIf(user, /^frz$/, "/freeze → confirm again");
      await d.fresh(user, "/buy btc 20", "/buy while frozen");
      await d.fresh(user, "/unfreeze");
      await proveItIsMe(d, h, user, "/unfreeze (is it you?)");
      await d.fresh(user, "/unfreeze", "/unfreeze again");
      await d.tick("unfreeze delay over", 25 * 3_600_000);
    },
  },
  {
    name: "the exchange failing: every error screen",
    async run(d, h) {
      const user = await loggedIn(d, h);
      const faults = h.sandbox.faults;
      for (const status of [500, 502, 400, 403, 404, 422, 429]) {
        faults.failNext(20, status, { method: "GET", path: "/v1/balance*" });
        await d.fresh(user, "/balance", `/balance while the exchange answers ${status}`);
        faults.reset();
      }
      faults.rateLimitNext(20, 1, { method: "GET", path: "/v1/balance*" });
      await d.fresh(user, "/balance", "/balance while the exchange rate-limits");
      faults.reset();
      faults.dropNext(20, { method: "GET", path: "/v1/balance*" });
      await d.fresh(user, "/balance", "/balance while the exchange drops the connection");
      faults.reset();
      faults.alternateShapes(true);
      for (const text of ["/balance", "/me", "/limits", "/transactions", "/deposit", "/prices"])
        await d.fresh(user, text, `${text} (the other shape)`);
      faults.alternateShapes(false);
      faults.failNext(100, 503, { method: "GET", path: "/v1/prices*" });
      await d.fresh(user, "/prices", "/prices while prices are down");
      await d.fresh(user, "/price eth", "/price while prices are down");
      d.title("inline: btc while prices are down");
      await user.inlineQuery("btc");
      await d.settle();
      faults.reset();
      faults.expireAllTokens();
      await d.fresh(user, "/balance", "/balance after the exchange ended the session");
      await d.fresh(user, "/buy btc 20", "/buy after the exchange ended the session");
    },
  },
  ...ACCOUNT_GUIDED_SCENARIOS,
  ...ACCOUNT_OTHER_SCENARIOS,
  ...ACCOUNT_MONEY_SCENARIOS,
  ...ACCOUNT_EDGE_SCENARIOS,
];
