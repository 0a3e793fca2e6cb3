/**
 * The setup most bot tests share: one harness for the describe block, a user logged in with the
 * sandbox's demo account, and BTC pinned at €60,000 so quotes are predictable.
 *
 * @example
 * let h: Harness;
 * let ada: FakeUser;
 * withLoggedInUser((harness, user) => {
 *   h = harness;
 *   ada = user;
 * });
 */
import { afterAll, beforeAll } from "vitest";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { type Harness, type HarnessOptions, startHarness } from "./harness.ts";

export function withLoggedInUser(
  use: (h: Harness, user: FakeUser) => void,
  options: HarnessOptions = {},
): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
    const user = await harness.loggedInUser();
    harness.sandbox.setPrice("btc", "60000");
    use(harness, user);
  });
  afterAll(async () => {
    await harness?.stop();
  });
}
