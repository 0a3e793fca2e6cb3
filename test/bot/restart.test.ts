import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, logInUpToCode, startHarness } from "../support/harness.ts";

describe("conversations survive a restart", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("finishes a login begun before the bot was stopped, on a new bot over the same SQLite file", async () => {
    const ada = h.user();
    await logInUpToCode(ada, h.sandbox);

    await h.stopBot();
    await h.startBot();

    await ada.send(h.sandbox.currentCode());
    const done = await ada.waitForReply(/Logged in/);
    expect(done.text).toContain(h.sandbox.demo.email);
    await ada.send("/balance");
    await ada.waitForReply(/Your balances/);
  });

  it("keeps a session across a restart", async () => {
    const bob = await h.loggedInUser();
    await h.restartBot();
    await bob.send("/balance");
    await bob.waitForReply(/Your balances/);
  });
});
