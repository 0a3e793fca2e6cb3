/**
 * Partner mode's safety net: the operator desk's /freeze, /unfreeze and /pinreset, a user's own
 * Freeze, and /pin, against the sandbox's partner API, the Bot API double and a SQLite store; the
 * notices go out through the delivery queue the harness connects as main.ts does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CALLBACK } from "../../../src/bot/ui/callback-data.ts";
import type { SentMessage } from "../../../src/telegram-double/index.ts";
import { actionIdOf } from "../../orders/helpers.ts";
import { type Harness, type PartnerFakeUser, startHarness } from "../../support/harness.ts";

const OPERATOR = 777_001;
const CARD = (m: SentMessage) => /your quote|Withdraw euros/.test(m.text) && m.buttons.length > 0;
const BANK = "🏦 Sandbox Partnerba… · •• 3000";

describe("partner mode: freeze, unfreeze, PIN care", () => {
  let h: Harness;
  let desk: ReturnType<Harness["user"]>;
  const withdrawals = (user: PartnerFakeUser) =>
    h.sandbox.requests.filter(
      (r) => r.method === "POST" && r.path === `/api/v1/partners/users/${user.partnerUserId}/withdraw`,
    );

  beforeAll(async () => {
    h = await startHarness({ mode: "partner", partner: { operatorIds: [OPERATOR] } });
    h.sandbox.setPrice("btc", "60000");
    desk = h.user(OPERATOR);
  });
  afterAll(async () => {
    await h.stop();
  });
  beforeEach(() => {
    h.sandbox.faults.reset();
  });

  async function toPinStep(user: PartnerFakeUser, amount: string): Promise<SentMessage> {
    await user.send("/withdraw");
    await user.waitForReply(/To which bank account/);
    await user.tap(BANK);
    await user.waitForReply(/How many euros/);
    await user.send(amount);
    const card = await user.waitForReply(CARD);
    await user.tap("✅ Confirm", card);
    await user.waitForReply(/6-digit PIN/);
    return card;
  }

  it("an operator freeze blocks a withdrawal already at the PIN step; /unfreeze opens it at once", async () => {
    const cora = await h.partnerUser();
    await toPinStep(cora, "25");

    await desk.send(`/freeze ${cora.partnerUserId}`);
    expect((await desk.waitForReply(/Frozen: partner user/)).text).toContain(
      `until /unfreeze ${cora.partnerUserId}`,
    );
    const notice = await cora.waitForReply(/Support froze the money actions of your account/);
    expect(notice.text).toContain(`To unfreeze, contact support: @sandbox_support.`);
    expect(notice.buttons).toEqual([["🧊 Freeze"]]);

    // The PIN typed now: deleted, refused with the freeze's sentence, nothing sent, no PIN try used.
    const typed = await cora.send(cora.pin);
    expect((await cora.waitForReply(/frozen/)).text).toContain("nothing was withdrawn");
    expect(cora.deletedMessageIds()).toContain(typed.message_id);
    expect(withdrawals(cora)).toEqual([]);
    expect(await h.deps.partner?.pins.lockedUntil(cora.id)).toBeUndefined();

    // A new order is refused at the quote too, and a user's /unfreeze says whom to ask.
    await cora.send("/buy btc 50");
    expect((await cora.waitForReply(/frozen/)).text).toBe(
      "🧊 The money actions of your account are frozen, so nothing was bought. Only support can open them again: /unfreeze says how to reach them.",
    );
    await cora.send("/unfreeze");
    expect((await cora.waitForReply(/contact support/)).text).toBe(
      "To unfreeze, contact support: @sandbox_support.",
    );

    await desk.send(`/unfreeze ${cora.partnerUserId}`);
    await desk.waitForReply(/Unfrozen: partner user/);
    expect((await cora.waitForReply(/Unfreeze asked for/)).buttons).toEqual([["🧊 Freeze"]]);
    await toPinStep(cora, "25");
    await cora.send(cora.pin);
    await cora.waitForReply(/accepted your withdrawal of €25.00/);
    expect(withdrawals(cora)).toHaveLength(1);

    await desk.send(`/unfreeze ${cora.partnerUserId}`);
    await desk.waitForReply(/is not frozen/);
  });

  it("an operator freeze takes the buttons off a card on the user's screen, and its Confirm is refused", async () => {
    const hal = await h.partnerUser();
    await hal.send("/buy btc 50");
    const card = await hal.waitForReply(CARD);
    await desk.send(`/freeze ${hal.partnerUserId}`);
    await desk.waitForReply(/Frozen: partner user/);
    await hal.waitForReply(/Support froze/);
    expect(hal.messages().find((m) => m.messageId === card.messageId)?.buttons).toEqual([]);
    await hal.tapData(card.messageId, CALLBACK.order.data("c", actionIdOf(card)));
    expect((await hal.waitForReply(/frozen/)).text).toContain("nothing was bought");
  });

  it("a partner user's own Freeze during the PIN step ends it; the withdrawal never goes", async () => {
    const dora = await h.partnerUser();
    await toPinStep(dora, "30");
    await dora.send("/freeze");
    await dora.waitForReply(/You froze the money actions of your account/);
    // The PIN step is over: the PIN typed after it is a stray secret, deleted, and nothing is sent.
    const typed = await dora.send(dora.pin);
    await dora.waitForReply(/looked like a code or PIN, so I deleted it/);
    expect(dora.deletedMessageIds()).toContain(typed.message_id);
    expect(withdrawals(dora)).toEqual([]);
    expect(await h.deps.freezes.isFrozen(dora.id)).toBe(true);
  });

  it("the desk's usage and unknown users", async () => {
    await desk.send("/freeze someone");
    expect((await desk.waitForReply()).text).toMatch(/^Send \/freeze, \/unfreeze or \/pinreset/);
    await desk.send("/pinreset 987654321");
    await desk.waitForReply(/No partner user 987654321 found|has no chat with this bot/);
    // Not an operator: /pinreset does not exist, and /freeze with words freezes the sender only.
    const eve = await h.partnerUser();
    const other = await h.partnerUser();
    await eve.send(`/pinreset ${other.partnerUserId}`);
    expect((await eve.waitForReply()).text).toMatch(/^I do not know/);
    expect(await h.deps.partner?.pins.has(other.id)).toBe(true);
    await eve.send(`/freeze ${other.partnerUserId}`);
    await eve.waitForReply(/You froze the money actions/);
    expect(await h.deps.freezes.isFrozen(eve.id)).toBe(true);
    expect(await h.deps.freezes.isFrozen(other.id)).toBe(false);
  });

  it("/pin changes the PIN: old PIN, new PIN twice, each message deleted, weak PINs refused", async () => {
    const finn = await h.partnerUser();
    await h.deps.phishing.set(finn.id, "green owl");
    await finn.waitForReply(/anti-phishing phrase was changed/);
    await finn.send("/pin");
    const askOld = await finn.waitForReply(/current 6-digit PIN/);
    expect(askOld.text).toContain("🛡 Your anti-phishing phrase: green owl");
    const typed: number[] = [];
    typed.push((await finn.send(finn.pin)).message_id);
    await finn.waitForReply(/choose a new 6-digit PIN/);
    typed.push((await finn.send("123456")).message_id);
    expect((await finn.waitForReply(/too easy to guess/)).text).toContain("green owl");
    typed.push((await finn.send("739164")).message_id);
    await finn.waitForReply(/same PIN again/);
    typed.push((await finn.send("739164")).message_id);
    await finn.waitForReply(/Your PIN is changed/);
    const notice = await finn.waitForReply(/Your PIN was changed/);
    expect(notice.buttons).toEqual([["🧊 Freeze"]]);
    for (const id of typed) expect(finn.deletedMessageIds()).toContain(id);
    expect(await h.deps.partner?.pins.verify(finn.id, "739164")).toEqual({ ok: true });

    // A wrong old PIN changes nothing and counts like a wrong withdrawal PIN.
    await finn.send("/pin");
    await finn.waitForReply(/current 6-digit PIN/);
    await finn.send("111333");
    expect((await finn.waitForReply(/PIN is wrong/)).text).toContain(": 4.");
    expect(await h.deps.partner?.pins.verify(finn.id, "739164")).toEqual({ ok: true });
  });

  it("a forgotten PIN: only the desk resets it, the user is told with Freeze and sets one with /pin", async () => {
    const gia = await h.partnerUser();
    await desk.send(`/pinreset ${gia.partnerUserId}`);
    await desk.waitForReply(/PIN reset for partner user/);
    const notice = await gia.waitForReply(/Support reset your PIN/);
    expect(notice.buttons).toEqual([["🧊 Freeze"]]);
    expect(await h.deps.partner?.pins.has(gia.id)).toBe(false);

    // A withdrawal before a new PIN: refused at the PIN step, nothing sent.
    await toPinStep(gia, "20");
    await gia.send("482913");
    expect((await gia.waitForReply(/no PIN yet/)).text).toContain("Set one with /pin");
    expect(withdrawals(gia)).toEqual([]);

    await gia.send("/pin");
    await gia.waitForReply(/You have no PIN yet \(support reset it\)/);
    await gia.send("264815");
    await gia.waitForReply(/same PIN again/);
    await gia.send("264815");
    await gia.waitForReply(/Your PIN is changed/);
    await toPinStep(gia, "20");
    await gia.send("264815");
    await gia.waitForReply(/accepted your withdrawal of €20.00/);
    expect(withdrawals(gia)).toHaveLength(1);
  });
});
