/**
 * Account mode (users log in to their own exchange account): every command, its flows' steps,
 * cards, refusals and the notices the background jobs send.
 */
import Big from "big.js";
import { registerCommands } from "../../../src/bot/commands.ts";
import type { Driver } from "../support/driver.ts";
import { BTC_ADDRESS, explore, type Scenario, switchLanguage } from "./common.ts";

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
      await d.answer(user, "/login", "not an e-mail", h.sandbox.demo.email, "not-the-password");
      await d.send(user, "/login", "/login again");
      await d.answer(user, "/login", h.sandbox.demo.email, h.sandbox.demo.password, "000000");
      await d.answer(user, "/login", h.sandbox.currentCode());
      await d.send(user, "/login", "/login when logged in");
      await d.tick("session about to end", 56 * 60_000);
      await d.tick("session ended", 10 * 60_000);
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
      await d.send(user, "/logout");
    },
  },
  {
    name: "buy and sell: steps, card, refusals, confirm, settlement",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.fresh(user, "/buy");
      await d.tap(user, /^trade:p:buy:btc$/, "/buy → currency");
      await d.answer(user, "/buy BTC", "abc", "5", "20000", "100");
      await d.tap(user, /^ord:c:/, "/buy card → Confirm");
      await d.tick("order settled", 10_000);
      await d.fresh(user, "/buy btc 50");
      await d.tapIf(user, /^ord:e:/, "/buy card → Change amount");
      await d.answer(user, "/buy change", "30");
      await d.tapIf(user, /^ord:x:/, "/buy card → Cancel");
      await d.fresh(user, "/buy dogecoin 100");
      await d.fresh(user, "/sell");
      await d.tap(user, /^trade:p:sell:eth$/, "/sell → currency");
      await d.answer(user, "/sell ETH", "0,5");
      await d.tapIf(user, /^ord:x:/, "/sell card → Cancel");
      await d.fresh(user, "/sell btc 0.000000001");
      h.sandbox.faults.settleOrdersAs("error");
      await d.fresh(user, "/buy eth 50");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (fails)");
      await d.tick("order failed", 10_000);
      h.sandbox.faults.settleOrdersAs("success");
      h.sandbox.faults.closeAsset("buy", "ltc");
      await d.fresh(user, "/buy ltc 50", "/buy of a closed asset");
      h.sandbox.faults.openAsset("buy", "ltc");
    },
  },
  {
    name: "send and withdraw: steps, addresses, banks, codes",
    async run(d, h) {
      const user = await loggedIn(d, h);
      await d.fresh(user, "/send");
      await d.tap(user, /cur:btc$/, "/send → currency");
      await d.answer(user, "/send BTC", "not an address", BTC_ADDRESS, "0.0006");
      await d.tapIf(user, /^ord:c:/, "/send card → Confirm");
      await d.answer(user, "/send code", "000000", h.sandbox.currentCode());
      await d.tick("send settled", 10_000);
      await d.fresh(user, "/addresses add btc");
      await d.answer(user, "/addresses add", BTC_ADDRESS, "Cold wallet");
      await d.answer(user, "/addresses add (code?)", h.sandbox.demo.password, h.sandbox.currentCode());
      await d.fresh(user, "/withdraw");
      await d.answer(user, "/withdraw", "20");
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm");
      await d.answer(user, "/withdraw code", h.sandbox.currentCode());
      await d.fresh(user, "/banks add");
      await d.answer(user, "/banks add", "DE89 3704 0044 0532 0130 01", "cobadeffxxx", "Sparkasse Berlin");
      await d.tapIf(user, /confirm|add|yes/i, "/banks add → confirm");
      await d.fresh(user, "/banks remove");
    },
  },
  {
    name: "alerts, recurring plans and their notices",
    async run(d, h) {
      const user = await loggedIn(d, h);
      h.sandbox.setPrice("btc", "60000");
      await d.fresh(user, "/alert");
      await d.fresh(user, "/alert btc above 65000");
      await d.fresh(user, "/alert eth below 1000");
      await d.fresh(user, "/alert btc sideways 5");
      await d.fresh(user, "/alert btc above -5");
      await d.fresh(user, "/alert doge above 1");
      await d.tick("alerts checked");
      h.sandbox.setPrice("btc", "66000");
      await d.tick("alert fired", 60_000);
      await d.tapIf(user, /buy/i, "alert notice → Buy");
      await d.fresh(user, "/recurring btc 25 daily 9");
      await d.tapIf(user, /confirm|ok|yes/i, "/recurring card → Confirm");
      await d.fresh(user, "/recurring");
      await d.tick("recurring plan due", 24 * 3_600_000);
      await d.tick("daily digest", 24 * 3_600_000);
    },
  },
  {
    name: "settings, safety, freeze and its security notices",
    async run(d, h) {
      const user = await loggedIn(d, h);
      for (const text of [
        "/settings remember on",
        "/settings remember off",
        "/settings phrase ab",
        "/settings phrase blue tiger 42",
        "/settings phrase off",
        "/settings logout 15",
        "/settings alerts silent",
        "/settings orders off",
        "/settings farbe blau",
        "/safety cap buy 500",
        "/safety allowlist off",
        "/safety allowlist on",
      ])
        await d.send(user, text);
      await switchLanguage(d, user, "/settings language");
      await switchLanguage(d, user, "/language");
      await d.fresh(user, "/freeze");
      await d.tapIf(user, /^frz$/, "/freeze → confirm");
      await d.fresh(user, "/buy btc 20", "/buy while frozen");
      await d.fresh(user, "/unfreeze");
      await d.tick("unfreeze delay over", 25 * 3_600_000);
    },
  },
];

async function loggedIn(d: Driver, h: Parameters<Scenario["run"]>[1]) {
  d.title("login (helper)");
  const user = await h.loggedInUser(undefined, { languageCode: d.locale });
  await d.settle();
  return user;
}
