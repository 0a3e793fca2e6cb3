/**
 * "It is usable now": each saved address and each bank account added through the bot is
 * announced once when its cooling-off ends. The jobs' tick (one instance, the lease holder) reads
 * the users listed in the cooling index (cooling.ts), never the keyspace; each announcement is
 * claimed in the store (`setIfAbsent`), so a lease handed over mid-tick never tells twice. A
 * user leaves the index a week after their last destination became usable.
 *
 * @example
 * for (const due of await claimUsableNow(store, safety, clock.now())) notify(due);
 */
import type { Store } from "../store/store.ts";
import { COOLING_INDEX, coolingKey, HOUR_MS } from "./cooling.ts";
import type { SafetyNet } from "./safety-net.ts";

const TOLD_KEPT_MS = 8 * 24 * HOUR_MS;
/** Destinations that became usable longer ago than this are not announced any more (a long outage). */
const TOO_LATE_MS = 7 * 24 * HOUR_MS;

export type UsableNow =
  | { userId: number; type: "address"; label: string; currency: string }
  | { userId: number; type: "bank"; iban: string };

export async function claimUsableNow(store: Store, safety: SafetyNet, now: number): Promise<UsableNow[]> {
  const due: UsableNow[] = [];
  for (const member of await store.indexMembers(COOLING_INDEX)) {
    const userId = Number(member);
    if (!Number.isSafeInteger(userId)) continue;
    const fresh = (usableAt: number) => usableAt <= now && usableAt > now - TOO_LATE_MS;
    const claim = (id: string) => store.setIfAbsent(`safety-told:${userId}:${id}`, 1, TOLD_KEPT_MS);
    for (const entry of await safety.addresses.list(userId)) {
      if (fresh(entry.usableAt) && (await claim(`a:${entry.id}`))) {
        due.push({ userId, type: "address", label: entry.label, currency: entry.currency });
      }
    }
    for (const bank of await safety.banks.list(userId)) {
      if (fresh(bank.usableAt) && (await claim(`b:${bank.reference}`))) {
        due.push({ userId, type: "bank", iban: bank.iban });
      }
    }
    await store.unindex(COOLING_INDEX, member, coolingKey(userId));
  }
  return due;
}
