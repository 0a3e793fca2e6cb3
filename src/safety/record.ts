/**
 * One user's safety record changed atomically across instances: read, change, compare-and-set
 * (`Store.replaceIfEquals`, or `setIfAbsent` for the first write), again when another instance
 * wrote meanwhile. Saved addresses, cooling-offs and caps are small per-user records, so two
 * taps on two instances never lose one another's change.
 *
 * @example
 * await changeRecord<string[]>(store, "safety-x:42", (list = []) => [...list, "new"]);
 */
import type { Store } from "../store/store.ts";

/** `change` returns the next value, or undefined to leave the record as it is. */
export async function changeRecord<T>(
  store: Store,
  key: string,
  change: (current: T | undefined) => T | undefined,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const current = await store.get<T>(key);
    const next = change(current);
    if (next === undefined) return current;
    const written =
      current === undefined
        ? await store.setIfAbsent(key, next)
        : await store.replaceIfEquals(key, current, next);
    if (written) return next;
  }
  throw new Error(`The record ${key} kept changing under this write.`);
}
