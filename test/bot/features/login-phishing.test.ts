/** The anti-phishing phrase on every login message that asks for a secret. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phishingLine, withPhishingLine } from "../../../src/bot/ui/phishing.ts";
import { type Harness, runJobsNearSessionEnd, startHarness } from "../../support/harness.ts";

describe("the anti-phishing phrase in the login flow", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("stands on the password and code questions once set, and nowhere before", async () => {
    const ada = h.user();
    await ada.send("/login");
    await ada.waitForReply(/e-mail/);
    await ada.send(h.sandbox.demo.email);
    expect((await ada.waitForReply(/password/)).text).not.toContain("anti-phishing");
    await ada.send("/cancel");
    await ada.waitForReply(/Cancelled/);

    await ada.send("/settings phrase blue tiger 42");
    await ada.waitForReply(/Settings/);
    await ada.send("/login");
    await ada.waitForReply(/e-mail/);
    await ada.send(h.sandbox.demo.email);
    const password = await ada.waitForReply(/password/);
    expect(password.text.startsWith("🛡 Your anti-phishing phrase: blue tiger 42\n\n")).toBe(true);
    await ada.send(h.sandbox.demo.password);
    expect((await ada.waitForReply(/6-digit/)).text).toContain("blue tiger 42");
    await ada.send("000000");
    expect((await ada.waitForReply(/not accepted/)).text).toContain("blue tiger 42");
    await ada.send(h.sandbox.currentCode());
    expect((await ada.waitForReply(/Logged in/)).text).not.toContain("blue tiger");
  });

  it("stands on the stay-logged-in offer, which asks for a code", async () => {
    const ada = await h.loggedInUser();
    await h.deps.phishing.set(ada.id, "green owl");
    await runJobsNearSessionEnd(h);
    expect((await ada.waitForReply(/session ends/)).text).toContain("🛡 Your anti-phishing phrase: green owl");
  });

  it("formats nothing without a phrase, and escapes it for HTML messages", () => {
    const t = (key: string, variables?: Record<string, string | number>) =>
      `${key}:${variables?.phrase ?? ""}`;
    expect(phishingLine(t, undefined)).toBe("");
    expect(withPhishingLine(t, undefined, "text")).toBe("text");
    expect(withPhishingLine(t, "<b>", "text", { html: true })).toBe("phishing-line:&lt;b&gt;\n\ntext");
  });
});
