import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("partner mode: the KYC gate", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("sends a Telegram user the bot does not know to /start", async () => {
    const stranger = h.user();
    await stranger.send("/balance");
    expect((await stranger.waitForReply()).text).toContain("Send /start to sign up");
  });

  it("lets a passed user through to the partner features", async () => {
    const pat = await h.partnerUser();
    await pat.send("/nonsense");
    expect((await pat.waitForReply()).text).toMatch(/help/);
  });

  it.each([
    ["pending", /being checked/],
    ["not_started", /\/verify/],
    ["failed", /@sandbox_support/],
    ["declined", /@sandbox_support/],
  ] as const)("stops a %s user with what to do", async (kycStatus, said) => {
    const user = await h.partnerUser(undefined, { kycStatus });
    await user.send("/balance");
    expect((await user.waitForReply()).text).toMatch(said);
  });

  it("explains enhanced due diligence and stops a passed user who owes it", async () => {
    const user = await h.partnerUser();
    h.sandbox.faults.setPartnerUserStatus(user.partnerUserId, { edd_status: "required" });
    await user.send("/balance");
    expect((await user.waitForReply()).text).toMatch(/enhanced due diligence.*@sandbox_support/s);
  });

  it("answers a gated tap so the button stops spinning", async () => {
    const user = await h.partnerUser(undefined, { kycStatus: "pending" });
    await user.send("/balance");
    const reply = await user.waitForReply(/being checked/);
    await user.tapData(reply.messageId, "anything");
    await user.waitForCall("answerCallbackQuery");
    expect((await user.waitForReply()).text).toMatch(/being checked/);
  });
});
