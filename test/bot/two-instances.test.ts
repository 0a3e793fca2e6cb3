import { beforeAll, describe, expect, it } from "vitest";
import { type Harness, messageUpdate } from "../support/harness.ts";
import { redisAvailable, redisUnavailableReason } from "../support/redis.ts";
import { type SecondInstance, twoInstancesOnRedis } from "../support/two-instances.ts";

if (!redisAvailable()) console.warn(redisUnavailableReason);

describe.skipIf(!redisAvailable())("two instances on one Redis store", () => {
  const pair = twoInstancesOnRedis();
  let h: Harness;
  let second: SecondInstance;
  beforeAll(() => {
    ({ h, second } = pair);
  });

  it("two messages of one login handled by two instances at once: neither is lost", async () => {
    // A stray command and the e-mail reach two instances together. Whichever goes first, the
    // command gets a hint and the e-mail moves the login on; without the lock both instances
    // replay the same stored state and the later write can drop the e-mail.
    for (let round = 0; round < 4; round++) {
      const ada = h.user();
      await ada.send("/login");
      await ada.waitForReply(/e-mail/);
      const stray = messageUpdate(h, ada, "/balance", 800_000_000 + round * 2);
      const email = messageUpdate(h, ada, h.sandbox.demo.email, 800_000_001 + round * 2);
      await Promise.all([h.bot.handleUpdate(stray), second.bot.handleUpdate(email)]);
      await ada.waitForReply(/password/);
      await ada.send(h.sandbox.demo.password);
      await ada.waitForReply(/6-digit/);
      await ada.send(h.sandbox.currentCode());
      await ada.waitForReply(/Logged in/);
      expect((await h.deps.sessions.status(ada.id)).state).toBe("active");
    }
  });
});
