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
import type { Store } from "../store/store.ts";
import type { PartnerUsers } from "./users.ts";

const PREFIX = "partner-kyc-pending:";
const pendingKey = (telegramId: number) => `${PREFIX}${telegramId}`;

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
    if (kycStatus === "pending") await this.#store.set(pendingKey(telegramId), true);
    else await this.#store.delete(pendingKey(telegramId));
  }

  /** Asks the exchange about every pending user; those no longer pending, each returned once. */
  async recheck(onError: (error: unknown) => void = () => {}): Promise<KycChange[]> {
    const changes: KycChange[] = [];
    for (const key of await this.#store.keys(PREFIX)) {
      const telegramId = Number(key.slice(PREFIX.length));
      const partnerUserId = await this.#users.partnerIdOf(telegramId);
      if (partnerUserId === undefined) {
        await this.#store.delete(key);
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
      if (await this.#store.deleteIfEquals(key, true)) changes.push({ telegramId, user });
    }
    return changes;
  }
}
