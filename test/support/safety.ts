/**
 * The safety net's records written through its own classes on the harness's store: an address
 * saved a day ago (past its cooling-off), so tests of /send that are not about the allowlist
 * send as before, with the allowlist on as every new user has it.
 */
import { HOUR_MS } from "../../src/safety/cooling.ts";
import type { Harness } from "./harness.ts";

/** `address` saved for `userId` 25 hours ago under `label`: usable now. */
export async function savedLongAgo(
  h: Pick<Harness, "deps" | "clock">,
  userId: number,
  currency: string,
  address: string,
  label = "Saved long ago",
): Promise<void> {
  const outcome = await h.deps.safety.addresses.save(
    userId,
    { currency, label, address },
    h.clock.now() - HOUR_MS,
  );
  if (!outcome.ok) throw new Error("could not save the address");
}
