/**
 * Account mode's money cards past the happy path: a send's and a withdrawal's code step (asked
 * twice, wrong three times, too late, refused, lost, the session gone), old taps on replaced,
 * expired, sent and someone else's cards, the exchange's day and month limits, the user's own
 * rules (an address or bank account still cooling off, a cap), and orders whose outcome is found
 * out later (placed, never placed, unknown).
 */
import Big from "big.js";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import type { Driver } from "../support/driver.ts";
import { loggedIn, proveItIsMe, relogin, tapAs } from "./account-steps.ts";
import { BTC_ADDRESS, type Scenario } from "./common.ts";

type Kind = "send" | "withdraw";

/** Opens a card of `kind` for `amount` (a saved BTC address, or the demo's verified bank account). */
async function openCard(
  d: Driver,
  user: FakeUser,
  kind: Kind,
  amount: string,
  title: string,
  /** Keep the open card (no /cancel first): the new one replaces it. */
  keep = false,
): Promise<void> {
  if (keep) await d.send(user, `/${kind}`, `/${kind} (${title})`);
  else await d.fresh(user, `/${kind}`, `/${kind} (${title})`);
  if (kind === "send") {
    await d.tapIf(user, /cur:btc$/, `/send → BTC (${title})`);
    await d.tapIf(user, /:a:/, `/send → saved address (${title})`);
  } else await d.tapIf(user, /^wd:.*:b:\d+$/, `/withdraw → bank account (${title})`);
  await d.answer(user, `/${kind} amount (${title})`, amount);
}

const POST_PATH: Record<Kind, string> = { send: "/v1/send", withdraw: "/v1/fiat-withdrawal" };

/** Every way the code step of a confirmed card can go besides the right code in time. */
async function codeStepPaths(
  d: Driver,
  h: Harness,
  user: FakeUser,
  kind: Kind,
  amount: string,
): Promise<void> {
  const faults = h.sandbox.faults;
  await openCard(d, user, kind, amount, "wrong codes");
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm`);
  await d.tapData(user, /^ord:c:/, `/${kind} card → Confirm again while the code is asked`);
  await d.answer(user, `/${kind} code`, "111111", "222222", "333333");
  await openCard(d, user, kind, amount, "code too late");
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm`);
  h.clock.advance(6 * 60_000);
  await d.answer(user, `/${kind} code, six minutes later`, h.sandbox.currentCode());
  await openCard(d, user, kind, amount, "the exchange refuses");
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm`);
  faults.failNext(1, 422, { method: "POST", path: POST_PATH[kind] });
  await d.answer(user, `/${kind} code (refused)`, h.sandbox.currentCode());
  faults.reset();
  await openCard(d, user, kind, amount, "the answer is lost");
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm`);
  faults.dropAnswerNext(1, { method: "POST", path: POST_PATH[kind] });
  await d.answer(user, `/${kind} code (the answer is lost)`, h.sandbox.currentCode());
  faults.reset();
  await d.tick(`the lost ${kind} found at the exchange`);
  await d.tick(`the lost ${kind} settled`, 10_000);
  await openCard(d, user, kind, amount, "the session ends");
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm`);
  faults.expireAllTokens();
  await d.answer(user, `/${kind} code (the session ended at the exchange)`, h.sandbox.currentCode());
  await relogin(d, h, user);
  await openCard(d, user, kind, amount, "sent");
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm`);
  await d.answer(user, `/${kind} code`, h.sandbox.currentCode());
  await d.tapData(user, /^ord:x:/, `/${kind} card → Cancel after it was sent`);
  await d.tick(`${kind} settled`, 10_000);
  // A card replaced by a newer one, then a card past its time.
  await openCard(d, user, kind, amount, "first card");
  await openCard(d, user, kind, amount, "a newer card", true);
  await d.tapData(user, /^ord:c:/, `/${kind}: the replaced card → Confirm`, -2);
  await d.tapIf(user, /^ord:x:/, `/${kind} card → Cancel`);
  await openCard(d, user, kind, amount, "expires");
  h.clock.advance(3 * 60_000);
  await d.tapIf(user, /^ord:c:/, `/${kind} card → Confirm after it expired`);
  await d.tapData(user, /^ord:c:/, `/${kind}: the expired card → Confirm again`, -2);
  await d.tapIf(user, /^ord:x:/, `/${kind} card → Cancel`);
}

/** The exchange's ceilings of `type`, lowered for a while: day and month refusals, a month's room. */
async function limitPaths(
  d: Driver,
  h: Harness,
  user: FakeUser,
  kind: Kind,
  type: "crypto_withdrawal" | "fiat_withdrawal",
  amount: string,
): Promise<void> {
  const ceiling = h.sandbox.state.ceilings[type];
  const saved = { ...ceiling };
  try {
    ceiling.daily = new Big(5000);
    ceiling.monthly = new Big(1000);
    await openCard(d, user, kind, amount, "the month's room is smaller than the day's");
    await d.tapIf(user, /^ord:x:/, `/${kind} card → Cancel`);
    ceiling.monthly = new Big(1);
    await openCard(d, user, kind, amount, "over the month's limit");
    await d.send(user, "/cancel", `/${kind}: /cancel`);
    ceiling.monthly = saved.monthly;
    ceiling.daily = new Big(1);
    await openCard(d, user, kind, amount, "over the day's limit");
    await d.send(user, "/cancel", `/${kind}: /cancel`);
  } finally {
    ceiling.daily = saved.daily;
    ceiling.monthly = saved.monthly;
  }
}

export const ACCOUNT_MONEY_SCENARIOS: Scenario[] = [
  {
    name: "send and withdraw: the code step's every path, old taps, limits, own rules",
    async run(d, h) {
      const user = await loggedIn(d, h);
      // An address saved now is still cooling off: a send to it is refused.
      await d.fresh(user, "/addresses");
      await d.tapIf(user, /^adr:add$/, "/addresses → Add");
      await d.tapIf(user, /cur:btc$/, "/addresses add → BTC");
      await d.answer(user, "/addresses add", BTC_ADDRESS, "Cold wallet");
      await proveItIsMe(d, h, user, "/addresses add (is it you?)");
      await openCard(d, user, "send", "0.0006", "the address cools off");
      await d.send(user, "/cancel", "/send: /cancel");
      await d.fresh(user, "/send");
      await d.tapIf(user, /cur:btc$/, "/send → BTC");
      await d.answer(user, "/send address", "", "x".repeat(200));
      await d.send(user, "/cancel", "/send: /cancel");
      await d.fresh(user, "/safety cap withdraw 10");
      await openCard(d, user, "withdraw", "20", "over the user's own cap");
      await d.send(user, "/cancel", "/withdraw: /cancel");
      await d.fresh(user, "/safety cap withdraw off");
      await proveItIsMe(d, h, user, "/safety cap withdraw off (is it you?)");
      await d.tick("the address's cooling-off over", 25 * 3_600_000);
      await relogin(d, h, user);
      await codeStepPaths(d, h, user, "send", "0.0006");
      await codeStepPaths(d, h, user, "withdraw", "20");
      await limitPaths(d, h, user, "send", "crypto_withdrawal", "0.0006");
      await limitPaths(d, h, user, "withdraw", "fiat_withdrawal", "20");
      // A withdrawal over half the user's own cap: the security notice about a large outflow.
      await d.tick("a day later", 25 * 3_600_000);
      await relogin(d, h, user);
      await d.fresh(user, "/safety cap withdraw 30");
      await openCard(d, user, "withdraw", "20", "over half the user's own cap");
      await d.tapIf(user, /^ord:c:/, "/withdraw card → Confirm");
      await d.answer(user, "/withdraw code", h.sandbox.currentCode());
      await d.tick("withdrawal settled", 10_000);
    },
  },
  {
    name: "buy and sell: old and foreign taps, a session gone, orders found out later",
    async run(d, h) {
      const user = await loggedIn(d, h);
      const faults = h.sandbox.faults;
      await d.fresh(user, "/sell btc 0.002");
      await d.tapIf(user, /^ord:c:/, "/sell card → Confirm");
      await d.fresh(user, "/home", "/home with an order still open");
      await d.tick("sell settled", 10_000);
      await d.fresh(user, "/sell btc 0.00000001", "/sell of less than the fee");
      await d.fresh(user, "/buy btc 20");
      const other = await loggedIn(d, h);
      await tapAs(d, other, d.button(user, /^ord:c:/)?.data, "someone else's card → Confirm");
      await tapAs(d, other, "ord:c:AAAAAAAAAAAA", "a card nobody has → Confirm");
      h.clock.advance(3 * 60_000);
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm after it expired");
      await d.tapData(user, /^ord:c:/, "/buy: the expired card → Confirm again", -2);
      await d.tapIf(user, /^ord:x:/, "/buy card → Cancel");
      await d.fresh(user, "/buy btc 20", "/buy (the session ends at the exchange)");
      faults.expireAllTokens();
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (the session ended at the exchange)");
      await relogin(d, h, user);
      // The answer lost: the order is found at the exchange before it settles.
      await d.fresh(user, "/buy btc 15", "/buy (the answer is lost)");
      faults.dropAnswerNext(1, { method: "POST", path: "/v1/buy" });
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (the answer is lost)");
      faults.reset();
      await d.tick("the lost order found at the exchange");
      await d.tick("the lost order settled", 10_000);
      // The order never reached the exchange, and the transactions cannot be read at first.
      await d.fresh(user, "/buy btc 16", "/buy (the order never arrives)");
      faults.dropNext(1, { method: "POST", path: "/v1/buy" });
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm (the order never arrives)");
      faults.reset();
      await d.tick("the order never reached the exchange", 11 * 60_000);
      // An order not settled yet, then one detail of each kind and state the account now has.
      await d.fresh(user, "/buy btc 12");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm");
      h.sandbox.deposit({ amount: new Big("0.01"), currency: "btc", email: h.sandbox.demo.email });
      const kinds = new Map<string, number>();
      for (const [id, tx] of h.sandbox.state.transactions)
        kinds.set(`${String(tx.type)}:${String(tx.state)}`, id);
      for (const id of kinds.values()) await d.send(user, `/tx ${id}`);
      await d.fresh(user, "/transactions");
      await d.tapIf(user, /^tx:p:1:/, "/transactions → next page");
      await d.tapIf(user, /^tx:p:0:/, "/transactions → previous page");
      await tapAs(d, user, "tx:p:99:*", "/transactions → a page past the last");
      await d.fresh(user, "/transactions");
      await d.tapIf(user, /^tx:x:menu$/, "/transactions → Export");
      await d.tapIf(user, /^tx:k:menu$/, "/transactions → Export → for a tax tool");
      await d.tapIf(user, /^tx:k:all$/, "/transactions → Export → for a tax tool → everything");
      // An order placed just before midnight settles the next day: its detail says when it changed.
      const day = 86_400_000;
      h.clock.advance(day - (h.clock.now() % day) - 2_000);
      await relogin(d, h, user);
      await d.fresh(user, "/buy btc 13", "/buy just before midnight");
      await d.tapIf(user, /^ord:c:/, "/buy card → Confirm");
      await d.tick("settled after midnight", 10_000);
      const latest = Math.max(...h.sandbox.state.transactions.keys());
      await d.send(user, `/tx ${latest}`, "/tx of an order settled the next day");
    },
  },
  {
    name: "a fired alert: held by quiet hours, its Sell button, a double tap, a tap when logged out",
    async run(d, h) {
      const user = await loggedIn(d, h);
      h.sandbox.setPrice("btc", "60000");
      await d.fresh(user, "/sell btc 0.002");
      await d.tapIf(user, /^ord:c:/, "/sell card → Confirm");
      await d.tick("sell settled", 10_000);
      await d.fresh(user, "/alert btc above 61000");
      await d.fresh(user, "/alert eth above 3500");
      await d.fresh(user, "/notifications zone UTC");
      const hour = new Date(h.clock.now()).getUTCHours();
      await d.fresh(user, `/notifications quiet ${hour} ${(hour + 2) % 24}`, "/notifications quiet (now)");
      await d.tick("alerts checked");
      h.sandbox.setPrice("eth", "3000");
      await d.tick("alerts checked");
      h.sandbox.setPrice("btc", "62000");
      h.sandbox.setPrice("eth", "3600");
      await d.tick("alerts fired in quiet hours", 60_000);
      h.sandbox.setPrice("btc", "62500");
      await d.tick("quiet hours over: the held alerts", 3 * 3_600_000);
      await d.fresh(user, "/notifications quiet off");
      await d.fresh(user, "/alert btc above 63000");
      await d.tick("alerts checked");
      h.sandbox.setPrice("btc", "63500");
      await d.tick("alert fired", 60_000);
      await d.tapIf(user, /^aq:buy:/, "alert → Buy");
      await d.send(user, "/cancel", "alert → Buy: /cancel");
      await d.tapData(user, /^aq:buy:/, "alert → Buy again (a double tap)");
      await d.fresh(user, "/logout");
      await d.tapData(user, /^aq:buy:/, "alert → Buy when logged out");
      await proveItIsMe(d, h, user, "alert → Buy (log in first)");
      await d.send(user, "/cancel", "alert → Buy: /cancel");
    },
  },
];
