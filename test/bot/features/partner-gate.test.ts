import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger } from "../../../src/orders/ledger.ts";
import type { SentMessage } from "../../../src/telegram-double/index.ts";
import { type Harness, type PartnerFakeUser, startHarness } from "../../support/harness.ts";

const CARD = (m: SentMessage) => /your quote|Withdraw euros/.test(m.text) && m.buttons.length > 0;

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

  describe("the order cards and the PIN step", () => {
    const posts = (user: PartnerFakeUser, side: string) =>
      h.sandbox.requests.filter(
        (r) => r.method === "POST" && r.path === `/api/v1/partners/users/${user.partnerUserId}/${side}`,
      );
    const latest = (user: PartnerFakeUser, kind: "partner-buy" | "partner-withdraw") =>
      new Ledger(h.deps.store, h.deps.clock).latest(user.id, kind);

    /** A buy card shown while KYC passed, then the user's KYC status changed at the exchange. */
    async function buyCardThen(kycStatus: "failed" | "pending") {
      const user = await h.partnerUser();
      await user.send("/buy btc 100");
      const card = await user.waitForReply(CARD);
      h.sandbox.faults.setPartnerUserStatus(user.partnerUserId, { kyc_status: kycStatus });
      return { user, card };
    }

    it("refuses a buy card's Confirm once KYC is no longer passed, and keeps the quote unused", async () => {
      const { user, card } = await buyCardThen("failed");
      await user.tap("✅ Confirm", card);
      await user.waitForCall("answerCallbackQuery");
      expect((await user.waitForReply()).text).toMatch(/not successful.*@sandbox_support/s);
      expect(posts(user, "buy")).toEqual([]);
      expect(await latest(user, "partner-buy")).toMatchObject({ state: "quoted" });
    });

    it("refuses a typed Confirm the same way (typed text passes no gate, so the decision asks)", async () => {
      const { user } = await buyCardThen("failed");
      await user.send("confirm");
      expect((await user.waitForReply()).text).toMatch(/not successful.*@sandbox_support/s);
      expect(posts(user, "buy")).toEqual([]);
      expect(await latest(user, "partner-buy")).toMatchObject({ state: "quoted" });
    });

    it("a typed Confirm of a passed user places the order once", async () => {
      const user = await h.partnerUser();
      await user.send("/buy btc 100");
      await user.waitForReply(CARD);
      await user.send("confirm");
      await user.waitForReply(/Order placed: buy BTC for €100.00/);
      expect(posts(user, "buy")).toHaveLength(1);
    });

    it("refuses a buy card's Cancel the same way (nothing of the account is touched)", async () => {
      const { user, card } = await buyCardThen("pending");
      await user.tap("✖️ Cancel", card);
      expect((await user.waitForReply()).text).toMatch(/being checked/);
      expect(await latest(user, "partner-buy")).toMatchObject({ state: "quoted" });
    });

    it("sends no withdrawal when KYC changed between Confirm and the PIN: said, cancelled", async () => {
      const user = await h.partnerUser();
      await user.send("/withdraw");
      await user.waitForReply(/To which bank account/);
      await user.tap("🏦 Sandbox Partnerba… · •• 3000");
      await user.waitForReply(/How many euros/);
      await user.send("20");
      const card = await user.waitForReply(CARD);
      await user.tap("✅ Confirm", card);
      await user.waitForReply(/6-digit PIN/);
      h.sandbox.faults.setPartnerUserStatus(user.partnerUserId, { kyc_status: "pending" });
      const typed = await user.send(user.pin);
      expect((await user.waitForReply()).text).toMatch(/being checked/);
      expect(user.deletedMessageIds()).toContain(typed.message_id);
      expect(posts(user, "withdraw")).toEqual([]);
      expect(await latest(user, "partner-withdraw")).toMatchObject({ state: "cancelled" });
    });
  });
});
