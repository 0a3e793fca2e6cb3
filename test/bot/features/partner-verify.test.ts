/**
 * /verify and the pending re-check: the share token's message is deleted, the KYC import goes to
 * the exchange, the new status is shown; when the exchange decides, the background jobs tell the
 * user through the delivery queue, once (injected clock, one tick).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackgroundJobs } from "../../../src/process/jobs.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("partner /verify and the KYC re-check", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  async function tick(): Promise<void> {
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
  }

  it("imports the token, deletes its message, says pending, and announces passed once", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "not_started" });
    await user.send("/buy");
    expect((await user.waitForReply()).text).toContain("not verified yet");

    await user.send("/verify");
    await user.waitForReply(/Paste the share token/);
    const token = await user.send("sumsub-share-token-0123456789");
    const said = (await user.waitForReply(/handed over/)).text;
    expect(said).toContain("being checked");
    expect(user.deletedMessageIds()).toContain(token.message_id);
    const request = h.sandbox.requests.find((r) => r.path === `/v1/users/${user.partnerUserId}/kyc-import`);
    expect(request?.body).toEqual({ token: "sumsub-share-token-0123456789" });

    // Still pending: the tick says nothing.
    await tick();
    expect(user.messages().filter((m) => /has an update/.test(m.text))).toHaveLength(0);

    // The exchange decides a minute later; the next tick tells the user, and only once.
    h.clock.advance(61_000);
    await tick();
    const notice = await user.waitForReply(/has an update/);
    expect(notice.text).toContain("Your identity is verified");
    await tick();
    expect(user.messages().filter((m) => /has an update/.test(m.text))).toHaveLength(1);
  });

  it("tells a pending user seen by the gate when the exchange declines", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "pending" });
    await user.send("/balance");
    await user.waitForReply(/being checked/);
    h.sandbox.faults.setPartnerUserStatus(user.partnerUserId, { kyc_status: "declined" });
    await tick();
    const notice = await user.waitForReply(/has an update/);
    expect(notice.text).toContain("@sandbox_support");
  });

  it("takes /verify TOKEN in one message, deleting it first", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "not_started" });
    const message = await user.send("/verify share-token-in-one-message");
    expect((await user.waitForReply()).text).toMatch(/handed over.*being checked/s);
    expect(user.deletedMessageIds()).toContain(message.message_id);
  });

  it("says in a sentence when the exchange refuses the token, and nothing changes", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "not_started" });
    await user.send("/verify");
    await user.waitForReply(/Paste the share token/);
    const token = await user.send("invalid-token-0123456789");
    const said = (await user.waitForReply()).text;
    expect(said).toContain("did not accept the token: it did not accept the details given.");
    expect(said).not.toContain("invalid or has expired");
    expect(said).toContain("@sandbox_support");
    expect(user.deletedMessageIds()).toContain(token.message_id);
    expect(h.sandbox.state.partnerUser(user.partnerUserId)?.partner?.kyc_status).toBe("not_started");

    await user.send("/verify");
    await user.waitForReply(/Paste the share token/);
    await user.send("short");
    expect((await user.waitForReply()).text).toContain("does not look like a share token");
  });

  /** The bot's messages in a group, as the Bot API double answered them. */
  function groupReplies(groupId: number): { text: string; replyTo: unknown; markup: unknown }[] {
    return h.telegram.callLog.items
      .filter((c) => c.method === "sendMessage" && c.chatId === groupId && c.ok)
      .map((c) => ({
        text: String(c.payload.text),
        replyTo: c.payload.reply_parameters,
        markup: c.payload.reply_markup,
      }));
  }

  function kycImports(partnerUserId: number): number {
    return h.sandbox.requests.filter((r) => r.path === `/v1/users/${partnerUserId}/kyc-import`).length;
  }

  it("deletes a token typed with /verify in a group at once, and never imports it", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "not_started" });
    const groupId = -100_500_001;
    const typed = await user.sendInGroup("/verify group-share-token-0123456789", groupId);
    const deleted = await h.telegram.waitForCall(
      "deleteMessage",
      (c) => c.chatId === groupId && c.payload.message_id === typed.message_id,
    );
    expect(deleted.ok).toBe(true);
    await h.telegram.waitUntilIdle();
    // Deleted first: the bot's first call in that group.
    expect(h.telegram.callLog.items.find((c) => c.chatId === groupId)?.method).toBe("deleteMessage");
    const [said] = groupReplies(groupId);
    expect(said?.text).toContain("I deleted your message");
    expect(said?.text).toContain("get a new one");
    expect(JSON.stringify(said?.markup)).toContain("t.me/");
    expect(kycImports(user.partnerUserId)).toBe(0);
    expect(h.sandbox.state.partnerUser(user.partnerUserId)?.partner?.kyc_status).toBe("not_started");
    // /verify alone in a group is no secret: the usual redirect, nothing deleted.
    const alone = await user.sendInGroup("/verify", groupId);
    await h.telegram.waitUntilIdle();
    expect(groupReplies(groupId).at(-1)?.text).toContain("only talk about accounts in a private chat");
    expect(
      h.telegram.callLog.items.some(
        (c) =>
          c.method === "deleteMessage" && c.payload.message_id === alone.message_id && c.chatId === groupId,
      ),
    ).toBe(false);
  });

  it("where it may not delete in a group, says to treat the token as seen, and never imports it", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "not_started" });
    const groupId = -100_500_002;
    h.telegram.denyDeletes(groupId);
    const typed = await user.sendInGroup(
      "/verify@sandbox_exchange_bot leaked-share-token-0123456789",
      groupId,
    );
    const refused = await h.telegram.waitForCall(
      "deleteMessage",
      (c) => c.chatId === groupId && c.payload.message_id === typed.message_id,
    );
    expect(refused.ok).toBe(false);
    await h.telegram.waitUntilIdle();
    const [said] = groupReplies(groupId);
    expect(said?.text).toContain("Treat it as seen: get a new token");
    // An answer to the very message that holds the token, so its author sees it.
    expect(said?.replyTo).toMatchObject({ message_id: typed.message_id });
    expect(kycImports(user.partnerUserId)).toBe(0);
    // The user then sends a new token privately, and that one is imported.
    await user.send("/verify fresh-private-token-0123456789");
    expect((await user.waitForReply()).text).toMatch(/handed over/);
    expect(
      h.sandbox.requests
        .filter((r) => r.path === `/v1/users/${user.partnerUserId}/kyc-import`)
        .map((r) => r.body),
    ).toEqual([{ token: "fresh-private-token-0123456789" }]);
  });

  it("tells a verified user so, and a stranger to sign up", async () => {
    const user = await h.partnerUser();
    await user.send("/verify");
    expect((await user.waitForReply()).text).toContain("Your identity is verified");
    const stranger = h.user();
    await stranger.send("/verify");
    expect((await stranger.waitForReply()).text).toContain("Send /start to sign up");
  });
});
