/**
 * Recurring buys in account mode: the bot never orders for an account holder on its own. At a
 * run's time the user gets a reminder with the amount and a one-tap quote button (the alert
 * buttons' tap: the usual card through the pipeline, the login first when logged out); nothing
 * is ordered without the card's Confirm; a reminder left alone past its window is recorded
 * "not confirmed" and said. Real sandbox, real SQLite, the Bot API double, the injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../support/harness.ts";
import { makePlan, tick, toNextRun } from "./support.ts";

const HOUR = 3_600_000;

describe("recurring buys in account mode: reminders", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ marketData: true });
  });
  afterAll(() => h.stop());

  /** The session of the morning is long gone by the run: the tap asks for the login first, then the card. */
  async function logInThenCard(user: FakeUser) {
    await user.waitForReply(/Log in first/);
    await user.waitForReply(/password/);
    await user.send(h.sandbox.demo.password);
    await user.waitForReply(/6-digit/);
    await user.send(h.sandbox.currentCode());
    return user.waitForReply(/Confirm/);
  }

  /** Every buy the sandbox carried out through the account API. */
  const accountBuys = () =>
    [...h.sandbox.state.transactions.values()].filter(
      (tx) => tx.type === "buy_crypto" && tx.via === "account",
    );

  it("a reminder with a quote button, no order without Confirm, 'not confirmed' once its window is over", async () => {
    const ada = await h.loggedInUser();
    const plan = await makePlan(h, ada, "btc 50 daily 9");
    expect(ada.lastMessage()?.text).toContain("nothing is bought without your Confirm");
    const before = accountBuys().length;
    await toNextRun(h, plan.id);
    await tick(h);
    const reminder = await ada.waitForReply(/Time for your recurring buy/);
    expect(reminder.text).toContain("Nothing is bought without your Confirm");
    expect(reminder.buttons.flat()).toEqual(["🛒 Buy €50.00 of BTC"]);
    expect(accountBuys()).toHaveLength(before);

    // The tap gives the usual card; left unconfirmed, nothing is ordered.
    await ada.tap(/Buy €50\.00 of BTC/, reminder);
    const card = await logInThenCard(ada);
    expect(card.buttons.flat().some((text) => /Confirm/.test(text))).toBe(true);
    h.clock.advance(3 * HOUR + 60_000);
    await tick(h);
    expect((await ada.waitForReply(/not confirmed/)).text).toMatch(/nothing was bought/);
    expect(accountBuys()).toHaveLength(before);
    const run = await h.deps.plans.getRun(plan.id, plan.next?.date ?? "");
    expect(run?.outcome).toBe("not-confirmed");
    expect((await h.deps.plans.get(plan.id))?.last?.outcome).toBe("not-confirmed");
  });

  it("the reminder's card confirmed once is one order, and the run is recorded confirmed", async () => {
    const bea = await h.loggedInUser();
    const plan = await makePlan(h, bea, "btc 20 daily 9");
    const before = accountBuys().length;
    await toNextRun(h, plan.id);
    await tick(h);
    const reminder = await bea.waitForReply(/Time for your recurring buy/);
    await bea.tap(/Buy/, reminder);
    const card = await logInThenCard(bea);
    const confirm = card.message.reply_markup?.inline_keyboard.flat().find((b) => /Confirm/.test(b.text));
    const data = confirm !== undefined && "callback_data" in confirm ? confirm.callback_data : "";
    await bea.tap(/Confirm/, card);
    await bea.waitForReply(/placed|Order/);
    await bea.tapData(card.messageId, data); // a second tap of the same Confirm
    await h.exchangeIdle();
    expect(accountBuys()).toHaveLength(before + 1);
    h.clock.advance(3 * HOUR + 60_000);
    await tick(h);
    expect((await h.deps.plans.getRun(plan.id, plan.next?.date ?? ""))?.outcome).toBe("confirmed");
    expect(bea.messages().some((m) => /not confirmed/.test(m.text ?? ""))).toBe(false);
  });

  it("logged out: the reminder's tap asks to log in first; a German user's reminder is in German", async () => {
    const cem = h.user(undefined, { languageCode: "de" });
    const plan = await makePlan(h, cem, "btc 25 wöchentlich freitag 8");
    await toNextRun(h, plan.id);
    await tick(h);
    const reminder = await cem.waitForReply(/Zeit für deinen Sparplan/);
    expect(reminder.text).toContain("Ohne dein Bestätigen wird nichts gekauft");
    await cem.tap(/kaufen/, reminder);
    await cem.waitForReply(/Log in first|Melde dich zuerst an|zuerst/);
  });
});
