import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/harness.ts";

describe("the bot over the double and the sandbox", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers /start with a Log in button and logs a user in", async () => {
    const ada = h.user();
    await ada.send("/start");
    const welcome = await ada.waitForReply();
    expect(welcome.text).toContain("Welcome");
    expect(welcome.buttons.flat()).toContain("🔐 Log in");
    const user = await h.loggedInUser();
    await user.send("/balance");
    const balance = await user.waitForReply(/balances/);
    expect(balance.text).toContain("Euro");
  });
});
