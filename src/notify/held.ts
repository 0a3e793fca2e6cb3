/**
 * Notices held during a user's quiet hours, kept in the store so that a restart loses none and
 * several instances deliver each once.
 *
 * - hold: each notice is its own record (`held:<user>:<id>`, listed in the user's index), then the
 *   user is listed among those with held notices (a marker key in `held:users`). In that order, so
 *   a release running in between never unlists a user whose notice it did not see.
 * - sealed: a notice's text may name the user's money (a digest's portfolio), so it is kept as a
 *   Vault token like conversation state (SECURITY.md, "What is sealed at rest"); one no key opens
 *   counts as gone.
 * - take: the marker is deleted first, then every listed notice is claimed by deleting it: only the
 *   caller whose delete removed a record delivers it (the store's delete says so atomically), so two
 *   instances releasing at once split the notices, never repeat one. The user leaves `held:users`
 *   only when no marker was written since.
 *
 * @example
 * await held.hold(userId, { text, kind: "alerts", at: clock.now(), silent: false });
 * for (const userId of await held.users()) release(userId, await held.take(userId));
 */
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";
import type { SendOther } from "./queue.ts";

export interface HeldNotice {
  text: string;
  other?: SendOther;
  /** The notice's kind (for logs). */
  kind: string;
  /** When it would have gone out (ms): the merged message is in this order and shows the time. */
  at: number;
  /** It would have gone out silently (the kind's mode). */
  silent: boolean;
  /** The language it was worded in. */
  locale?: string;
  /** The price the text names (a fired alert's), so the delivery can add the price by then. */
  price?: HeldPrice;
}

/** A price a held notice names: of which currency, and what it was when the notice was worded. */
export interface HeldPrice {
  currency: string;
  /** Decimal text. */
  crossed: string;
}

/** Longer than any quiet hours: a record left by a bug or a user who never comes back goes by itself. */
const HELD_TTL_MS = 3 * 24 * 60 * 60_000;
const USERS_INDEX = "held:users";
const userIndex = (userId: number) => `held:${userId}`;
const noticeKey = (userId: number, id: string) => `held:${userId}:${id}`;
const markerKey = (userId: number) => `held-marker:${userId}`;
let heldCount = 0;

export class HeldNotices {
  readonly #store: Store;
  /** Seals each notice (SECURITY.md, "What is sealed at rest"). */
  readonly #vault: Vault;

  constructor(parts: { store: Store; vault: Vault }) {
    ({ store: this.#store, vault: this.#vault } = parts);
  }

  async hold(userId: number, notice: HeldNotice): Promise<void> {
    // Sorted by their ids: the instant, then this process's count (notices of one instant keep
    // the order they were held in), zero-padded, then a random part against other instances.
    heldCount = (heldCount + 1) % 1e9;
    const id = `${String(notice.at).padStart(15, "0")}-${String(heldCount).padStart(9, "0")}-${randomBytes(4).toString("hex")}`;
    await this.#store.setIndexed(noticeKey(userId, id), this.#vault.encryptJson(notice), HELD_TTL_MS, [
      { index: userIndex(userId), member: id },
    ]);
    await this.#store.setIndexed(markerKey(userId), notice.at, HELD_TTL_MS, [
      { index: USERS_INDEX, member: String(userId) },
    ]);
  }

  /** Users who may have held notices. */
  async users(): Promise<number[]> {
    const members = await this.#store.indexMembers(USERS_INDEX);
    return members.map(Number).filter((id) => Number.isSafeInteger(id));
  }

  /** Claims the user's held notices, oldest first; each is returned to exactly one caller. */
  async take(userId: number): Promise<HeldNotice[]> {
    await this.#store.delete(markerKey(userId));
    const ids = await this.#store.indexMembers(userIndex(userId));
    const values = await this.#store.getMany<string>(ids.map((id) => noticeKey(userId, id)));
    const taken: { id: string; notice: HeldNotice }[] = [];
    for (const [i, id] of ids.entries()) {
      const sealed = values[i];
      const opened = sealed === undefined ? undefined : this.#vault.open(sealed);
      if (opened !== undefined && (await this.#store.delete(noticeKey(userId, id)))) {
        taken.push({ id, notice: JSON.parse(opened) as HeldNotice });
      }
      await this.#store.unindex(userIndex(userId), id, noticeKey(userId, id));
    }
    await this.#store.unindex(USERS_INDEX, String(userId), markerKey(userId));
    return taken.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((held) => held.notice);
  }
}
