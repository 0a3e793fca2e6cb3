/**
 * Security notices and Freeze in account mode, with real parts: the sandbox exchange over HTTP,
 * the Bot API double, a SQLite store, the delivery queue the harness connects as main.ts does,
 * and the harness's ManualClock for the unfreeze delay (no sleeps).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLBACK } from "../../../src/bot/ui/callback-data.ts";
import { DEFAULT_UNFREEZE_DELAY_MS } from "../../../src/safety/freezes.ts";
import { actionIdOf, liveCard } from "../../orders/helpers.ts";
import { answerLoginUpToCode, type Harness, logIn, startHarness } from "../../support/harness.ts";

const FREEZE = "🧊 Freeze";
const buyPosts = (h: Harness) => h.sandbox.countRequests("POST", "/v1/buy");

describe("security notices and Freeze (account mode)", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    // Every order here is a buy of €100 of BTC at this price.
    h.sandbox.setPrice("btc", "60000");
  });
  afterAll(() => h.stop());

  it("a chat login is told at once with the time, the anti-phishing phrase and a Freeze button", async () => {
    const ada = h.user();
    await h.deps.phishing.set(ada.id, "blue tiger 42");
    // Setting the phrase is itself a notice, carrying the new phrase.
    const phrase = await ada.waitForReply(/anti-phishing phrase was changed/);
    expect(phrase.text).toContain("🛡 Your anti-phishing phrase: blue tiger 42");
    const notice = await logIn(ada, h.sandbox);
    expect(notice.text).toContain("New login to your exchange account in this chat on");
    expect(notice.text).toContain("🛡 Your anti-phishing phrase: blue tiger 42");
    expect(notice.text).toContain("Nov 22, 2026");
    expect(notice.text).toContain("Not you? Tap Freeze");
    expect(notice.buttons).toEqual([[FREEZE]]);
    // Never silent: sent with sound, whatever the user's settings.
    const call = h.telegram.callLog.items.find(
      (c) => c.method === "sendMessage" && c.chatId === ada.id && c.payload.text === notice.text,
    );
    expect(call?.payload).not.toHaveProperty("disable_notification");
  });

  it("goes out even with every notification switched off, and in the user's language", async () => {
    const udo = h.user(undefined, { languageCode: "de" });
    await h.deps.profiles.update(udo.id, (p) => ({
      ...p,
      locale: "de",
      notifications: { alerts: "off", orders: "off", expiry: "off", digest: "off" },
    }));
    const notice = await logIn(udo, h.sandbox);
    expect(notice.text).toContain("Neue Anmeldung bei deinem Börsenkonto in diesem Chat");
    expect(notice.buttons).toEqual([["🧊 Einfrieren"]]);
  });

  it("Freeze from a notice stops an order whose card is already on the screen", async () => {
    const ada = h.user();
    await h.deps.profiles.update(ada.id, (p) => ({ ...p, rememberPassword: true }));
    const notice = await logIn(ada, h.sandbox);
    expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(true);
    await ada.send("/buy btc 100");
    const card = await ada.waitForReply(liveCard(/Buy BTC: your quote/));
    const before = buyPosts(h);

    await ada.tap(FREEZE, notice);
    // The card on the screen loses its buttons at once.
    const edit = await ada.waitForCall("editMessageReplyMarkup");
    expect(edit.payload.message_id).toBe(card.messageId);
    expect(ada.messages().find((m) => m.messageId === card.messageId)?.buttons).toEqual([]);
    const frozen = await ada.waitForReply(/You froze the money actions of your account/);
    expect(frozen.text).toContain("quote cards still open are cancelled");
    expect(frozen.text).toContain("To unfreeze: /unfreeze");
    expect(frozen.text).toContain("money actions open 1 hour later");
    expect(frozen.buttons).toEqual([[FREEZE]]);
    // Logged out at the exchange, the remembered password wiped, the card's action cancelled.
    expect((await h.deps.sessions.status(ada.id)).state).toBe("logged-out");
    expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(false);

    // Whoever logs in again (the Telegram account's taker, say) and taps Confirm from a stale
    // render of the card (a client that missed the edit): refused, nothing sent.
    await logIn(ada, h.sandbox);
    await ada.tapData(card.messageId, CALLBACK.order.data("c", actionIdOf(card)));
    expect((await ada.waitForReply(/frozen/)).text).toBe(
      "🧊 The money actions of your account are frozen, so nothing was bought. /unfreeze says how to open them again.",
    );
    expect(buyPosts(h)).toBe(before);
  });

  it("/freeze typed does the same; a new quote is refused before the exchange is asked", async () => {
    const bob = await h.loggedInUser();
    await bob.send("/freeze");
    await bob.waitForReply(/You froze the money actions/);
    await logIn(bob, h.sandbox);
    const rates = h.sandbox.countRequests("GET", "/v1/exchange-rates");
    await bob.send("/buy btc 100");
    expect((await bob.waitForReply(/frozen/)).text).toContain("nothing was bought");
    expect(h.sandbox.countRequests("GET", "/v1/exchange-rates")).toBe(rates);
  });

  it("Freeze pressed twice: the second press is a short answer, not the whole notice again", async () => {
    const cid = h.user();
    const raised: string[] = [];
    h.watchSecurityNotices((userId, event) => {
      if (userId === cid.id) raised.push(event.type);
    });
    const notice = await logIn(cid, h.sandbox);
    await cid.tap(FREEZE, notice);
    const frozen = await cid.waitForReply(/You froze the money actions/);
    const notices = () => cid.messages().filter((m) => /You froze the money actions/.test(m.text)).length;
    expect(notices()).toBe(1);

    const query = await cid.tap(FREEZE, frozen);
    const answer = await cid.waitForCall("answerCallbackQuery", (c) => c.payload.callback_query_id === query);
    expect(answer.payload.text).toBe(
      "🧊 Your money actions are frozen already; nothing changed. /unfreeze says how to open them again.",
    );
    await cid.send("/freeze");
    await cid.waitForReply(/frozen already/);
    expect(raised.filter((type) => type === "frozen")).toHaveLength(1);
    expect(notices()).toBe(1);
    expect(await h.deps.freezes.isFrozen(cid.id)).toBe(true);
  });

  it("unfreezing needs a fresh login, then waits the delay, announced with another Freeze", async () => {
    const cleo = await h.loggedInUser();
    await cleo.send("/freeze");
    await cleo.waitForReply(/You froze/);

    await cleo.send("/unfreeze");
    await cleo.waitForReply(/To unfreeze, log in again first/);
    await answerLoginUpToCode(cleo, h.sandbox);
    await cleo.send(h.sandbox.currentCode());
    await cleo.waitForReply(/Logged in/);
    const announced = await cleo.waitForReply(/Unfreeze asked for/);
    expect(announced.buttons).toEqual([[FREEZE]]);
    const at = h.clock.now() + DEFAULT_UNFREEZE_DELAY_MS;
    expect((await h.deps.freezes.current(cleo.id))?.unfreezeAt).toBe(at);

    // Within the delay: still frozen, and /unfreeze says when it opens.
    h.clock.advance(DEFAULT_UNFREEZE_DELAY_MS - 60_000);
    await cleo.send("/buy btc 100");
    await cleo.waitForReply(/frozen/);
    await cleo.send("/unfreeze");
    expect((await cleo.waitForReply(/already on its way/)).text).toMatch(/open again on /);

    // Past it: orders go again (after a login: the session of an hour ago has ended meanwhile).
    h.clock.advance(60_000);
    expect(await h.deps.freezes.isFrozen(cleo.id)).toBe(false);
    await logIn(cleo, h.sandbox);
    await cleo.send("/buy btc 100");
    await cleo.waitForReply(liveCard(/Buy BTC: your quote/));
  });

  it("an unfreeze without a successful login changes nothing", async () => {
    const dan = await h.loggedInUser();
    await dan.send("/freeze");
    await dan.waitForReply(/You froze/);
    await dan.send("/unfreeze");
    await answerLoginUpToCode(dan, h.sandbox, "wrong-password");
    await dan.send(h.sandbox.currentCode());
    await dan.waitForReply(/stay frozen/);
    expect(await h.deps.freezes.current(dan.id)).toMatchObject({ by: "user" });
    expect((await h.deps.freezes.current(dan.id))?.unfreezeAt).toBeUndefined();
  });

  it("Freeze tapped on the unfreeze's announcement keeps the money frozen past the delay", async () => {
    const eve = await h.loggedInUser();
    await eve.send("/freeze");
    await eve.waitForReply(/You froze/);
    await eve.send("/unfreeze");
    await answerLoginUpToCode(eve, h.sandbox);
    await eve.send(h.sandbox.currentCode());
    const announced = await eve.waitForReply(/Unfreeze asked for/);
    await eve.tap(FREEZE, announced);
    await eve.waitForReply(/You froze/);
    h.clock.advance(DEFAULT_UNFREEZE_DELAY_MS + 60_000);
    expect(await h.deps.freezes.isFrozen(eve.id)).toBe(true);
  });

  it("survives a restart: the freeze is in the store", async () => {
    const fay = await h.loggedInUser();
    await fay.send("/freeze");
    await fay.waitForReply(/You froze/);
    await h.restartBot();
    await logIn(fay, h.sandbox);
    await fay.send("/buy btc 100");
    await fay.waitForReply(/frozen/);
  });

  it("switching remember password is a notice with Freeze", async () => {
    const gus = await h.loggedInUser();
    await gus.send("/settings remember on");
    const notice = await gus.waitForReply(/"Remember password" was turned on/);
    expect(notice.buttons).toEqual([[FREEZE]]);
    await gus.send("/settings remember off");
    await gus.waitForReply(/"Remember password" was turned off/);
  });
});
