/**
 * Partner users whose verification is `pending`, who get a message when it changes. Whoever sees
 * a user's status (the gate, /verify, /start) tells this; the background jobs re-check the pending
 * ones at the exchange and report who changed, once: the mark is taken away (atomically, so two
 * instances never announce one change twice) before the user is told.
 *
 * @example
 * await watch.saw(telegramId, user.kyc_status);       // "pending" marks, anything else clears
 * for (const change of await watch.recheck()) notify(change.telegramId, change.user);
 */
import type { PartnerApi } from "../exchange/partner.ts";
import type { PartnerUser } from "../exchange/schemas.ts";
import { indexExistingKeys } from "../store/indexed.ts";
import type { Store } from "../store/store.ts";
import type { PartnerUsers } from "./users.ts";

const PREFIX = "partner-kyc-pending:";
const pendingKey = (telegramId: number) => `${PREFIX}${telegramId}`;
/** The store index of watched users (the tick reads it, never a key listing). */
const INDEX = "partner:kyc-pending";

export interface KycChange {
  telegramId: number;
  user: PartnerUser;
}

export class KycWatch {
  readonly #store: Store;
  readonly #users: PartnerUsers;
  readonly #api: Pick<PartnerApi, "getUser">;

  constructor(store: Store, users: PartnerUsers, api: Pick<PartnerApi, "getUser">) {
    this.#store = store;
    this.#users = users;
    this.#api = api;
  }

  /** Records the status just seen: pending users are watched, the others no longer. */
  async saw(telegramId: number, kycStatus: string): Promise<void> {
    const member = String(telegramId);
    if (kycStatus === "pending") {
      await this.#store.setIndexed(pendingKey(telegramId), true, undefined, [{ index: INDEX, member }]);
    } else {
      await this.#store.delete(pendingKey(telegramId));
      await this.#store.unindex(INDEX, member, pendingKey(telegramId));
    }
  }

  /** Adds marks written before the index existed to it (one key listing, when taking the jobs lead). */
  indexExisting(): Promise<number> {
    return indexExistingKeys(this.#store, PREFIX, (key) => [
      { index: INDEX, member: key.slice(PREFIX.length) },
    ]);
  }

  /** Asks the exchange about every pending user; those no longer pending, each returned once. */
  async recheck(onError: (error: unknown) => void = () => {}): Promise<KycChange[]> {
    const changes: KycChange[] = [];
    for (const member of await this.#store.indexMembers(INDEX)) {
      const telegramId = Number(member);
      const key = pendingKey(telegramId);
      // A mark cleared by a writer that stopped before it unindexed: off the list, nobody asked.
      if (!Number.isSafeInteger(telegramId) || (await this.#store.get(key)) === undefined) {
        await this.#store.unindex(INDEX, member, key);
        continue;
      }
      const partnerUserId = await this.#users.partnerIdOf(telegramId);
      if (partnerUserId === undefined) {
        await this.#store.delete(key);
        await this.#store.unindex(INDEX, member, key);
        continue;
      }
      let user: PartnerUser;
      try {
        user = await this.#api.getUser(partnerUserId);
      } catch (error) {
        // The mark stays: the next tick asks again.
        onError(error);
        continue;
      }
      if (user.kyc_status === "pending") continue;
      // Only the instance that removes the mark tells the user.
      if (await this.#store.deleteIfEquals(key, true)) {
        await this.#store.unindex(INDEX, member, key);
        changes.push({ telegramId, user });
      }
    }
    return changes;
  }
}
