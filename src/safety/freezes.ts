/**
 * A user's money actions frozen (issue: safety net, Freeze): one tap in any security notice, or
 * `/freeze`, or the operator desk in partner mode. While frozen, every money action is refused by
 * {@link freezeGuard} at the quote, the Confirm and just before the send (the pipeline asks it),
 * on every instance: the record is in the store (Redis with several instances), has no TTL, and
 * survives restarts.
 *
 * Unfreezing is never at once for the user: after a fresh login the bot asks for it, and money
 * actions open again only `delayMs` later (UNFREEZE_DELAY_MINUTES), announced with a Freeze
 * button: someone who took over the Telegram account and logged in cannot use the money before
 * the real user sees the notice and taps Freeze again (which drops the scheduled unfreeze). The
 * operator desk (partner mode) unfreezes at once: the operator checked who they spoke to.
 *
 * @example
 * const freezes = new Freezes(store, clock, { unfreezeDelayMs: 3_600_000 });
 * await freezes.freeze(userId, "user");
 * await freezes.isFrozen(userId); // true
 * const at = await freezes.scheduleUnfreeze(userId); // open again an hour from now
 */

import type { GuardedAction, GuardedRequest, OrderGuard } from "../orders/guards.ts";
import type { MoneyAction } from "../orders/ledger.ts";
import type { OrderPipeline } from "../orders/pipeline.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import type { SecurityNotices } from "./security-events.ts";

export interface FreezeRecord {
  by: "user" | "operator";
  /** When it was frozen. */
  at: number;
  /** When an unfreeze takes effect, once one was asked for after a fresh login. */
  unfreezeAt?: number;
}

const freezeKey = (userId: number) => `freeze:${userId}`;
/** Users with an unfreeze on its way, so the jobs announce its end without reading the keyspace. */
const UNFREEZE_INDEX = "freeze:unfreezing";
const unfreezingKey = (userId: number) => `freeze-unfreezing:${userId}`;
/** Kept past any delay: a record left behind (a user who froze again) goes by itself. */
const UNFREEZING_TTL_MS = 8 * 24 * 60 * 60_000;

/** UNFREEZE_DELAY_MINUTES' default: an hour. */
export const DEFAULT_UNFREEZE_DELAY_MS = 60 * 60_000;

export class Freezes {
  /** How long after a user's unfreeze (after a fresh login) money actions open again. */
  readonly unfreezeDelayMs: number;
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(store: Store, clock: Clock, options: { unfreezeDelayMs?: number | undefined } = {}) {
    this.#store = store;
    this.#clock = clock;
    this.unfreezeDelayMs = options.unfreezeDelayMs ?? DEFAULT_UNFREEZE_DELAY_MS;
  }

  /** The freeze in force now, or undefined (never frozen, or its unfreeze time has come). */
  async current(userId: number): Promise<FreezeRecord | undefined> {
    const record = await this.#store.get<FreezeRecord>(freezeKey(userId));
    if (record === undefined) return undefined;
    if (record.unfreezeAt !== undefined && this.#clock.now() >= record.unfreezeAt) {
      // Past its time: gone, only if nobody froze again meanwhile (compare-and-delete).
      await this.#store.deleteIfEquals(freezeKey(userId), record);
      return undefined;
    }
    return record;
  }

  async isFrozen(userId: number): Promise<boolean> {
    return (await this.current(userId)) !== undefined;
  }

  /** Freezes now; a scheduled unfreeze is dropped. */
  async freeze(userId: number, by: FreezeRecord["by"]): Promise<FreezeRecord> {
    const record: FreezeRecord = { by, at: this.#clock.now() };
    await this.#store.set(freezeKey(userId), record);
    return record;
  }

  /**
   * Money actions open again {@link unfreezeDelayMs} from now (an unfreeze already scheduled keeps
   * its earlier time). Undefined when the user is not frozen.
   */
  async scheduleUnfreeze(userId: number): Promise<number | undefined> {
    const record = await this.current(userId);
    if (record === undefined) return undefined;
    if (record.unfreezeAt !== undefined) return record.unfreezeAt;
    const unfreezeAt = this.#clock.now() + this.unfreezeDelayMs;
    // Compare-and-set: a Freeze tapped meanwhile on another instance wins.
    const set = await this.#store.replaceIfEquals(freezeKey(userId), record, { ...record, unfreezeAt });
    if (!set) return undefined;
    // The freeze's notice promised the opening is announced: the jobs find it through this index.
    await this.#store.setIndexed(unfreezingKey(userId), unfreezeAt, UNFREEZING_TTL_MS, [
      { index: UNFREEZE_INDEX, member: String(userId) },
    ]);
    return unfreezeAt;
  }

  /**
   * The users whose scheduled unfreeze took effect by `now`, each returned once (claimed in the
   * store, so two instances or a lease handed over mid-tick never tell twice). A user frozen again
   * meanwhile is not returned: that unfreeze never happened.
   */
  async claimUnfrozen(): Promise<number[]> {
    const now = this.#clock.now();
    const opened: number[] = [];
    for (const member of await this.#store.indexMembers(UNFREEZE_INDEX)) {
      const userId = Number(member);
      if (!Number.isSafeInteger(userId)) continue;
      const key = unfreezingKey(userId);
      const unfreezeAt = await this.#store.get<number>(key);
      if (unfreezeAt !== undefined && unfreezeAt > now) continue;
      if (unfreezeAt !== undefined) {
        // Its time has come, so a freeze in force now is a newer one: this unfreeze never happened.
        const frozenAgain = (await this.current(userId)) !== undefined;
        const claim = `freeze-opened:${userId}:${unfreezeAt}`;
        if (!frozenAgain && (await this.#store.setIfAbsent(claim, 1, UNFREEZING_TTL_MS))) opened.push(userId);
        await this.#store.deleteIfEquals(key, unfreezeAt);
      }
      await this.#store.unindex(UNFREEZE_INDEX, member, key);
    }
    return opened;
  }

  /** The operator desk's unfreeze: at once. False when the user was not frozen. */
  unfreeze(userId: number): Promise<boolean> {
    return this.#store.delete(freezeKey(userId));
  }
}

/** The pipeline's guard: a frozen user's money actions, of every kind, are refused at every stage. */
export function freezeGuard<R extends GuardedRequest, A extends GuardedAction>(
  freezes: Freezes,
): OrderGuard<R, A> {
  return {
    async refusal(_stage, userId, request) {
      return (await freezes.isFrozen(userId))
        ? { kind: request.kind, reason: "frozen", vars: {} }
        : undefined;
    },
  };
}

/** What a freeze does besides the record, as the parts that do it (bot deps satisfy it). */
export interface FreezeParts {
  freezes: Freezes;
  orders: Pick<OrderPipeline, "cancelPendingActions">;
  /** Account mode: the exchange session ended and every secret held wiped (a remembered password). */
  sessions?: { logout(userId: number): Promise<unknown> } | undefined;
  securityNotices: SecurityNotices;
}

/**
 * Freezes now and does the rest at once: the quotes still on a card and the actions waiting for
 * their code are cancelled (a card shown before the freeze never goes out, even after an
 * unfreeze), the exchange session is logged out with the remembered password (account mode), and
 * the user is told what was done and how to unfreeze (a `frozen` notice). The freeze record goes
 * first: whatever fails after it, no money action passes the guard. Returns the cancelled actions
 * (the bot takes the buttons off their cards) and whether the user was frozen already.
 */
export async function freezeMoney(
  parts: FreezeParts,
  userId: number,
  by: FreezeRecord["by"],
): Promise<{ cancelled: MoneyAction[]; already: boolean }> {
  // Frozen already, with no unfreeze on its way: the record and the notice stay as they were (a
  // second press changes nothing to tell), while the rest is done again, since a session or a card
  // may have come since. A scheduled unfreeze is dropped by a new freeze, and told.
  const before = await parts.freezes.current(userId);
  const already = before !== undefined && before.unfreezeAt === undefined;
  if (!already) await parts.freezes.freeze(userId, by);
  const cancelled = await parts.orders.cancelPendingActions(userId);
  await parts.sessions?.logout(userId);
  if (!already) await parts.securityNotices.tell(userId, { type: "frozen", by });
  return { cancelled, already };
}
