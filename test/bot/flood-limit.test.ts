import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/harness.ts";

describe("flood limit", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ floodLimit: { max: 3, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers a user's first messages, says 'slow down' once, then drops the rest", async () => {
    const flooder = h.user();
    for (let i = 0; i < 6; i++) await flooder.send("/help");
    await flooder.waitForReply(/very fast/);
    await h.telegram.waitUntilIdle();
    const texts = flooder.messages().map((m) => m.text);
    expect(texts.filter((t) => t.startsWith("What I can do"))).toHaveLength(3);
    expect(texts.filter((t) => t.includes("very fast"))).toHaveLength(1);
    expect(texts).toHaveLength(4);
    // Other users are not slowed down by one user's flood.
    const calm = h.user();
    await calm.send("/help");
    await calm.waitForReply(/What I can do/);
  });
});
