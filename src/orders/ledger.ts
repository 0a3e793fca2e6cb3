/**
 * The ledger of money actions (every kind of kinds/): every action moves through recorded
 * states kept in the Store under a random per-action id, so that one Confirm is one order across
 * double taps, redelivered updates, restarts and several bot instances (SECURITY.md, rules 4, 5, 8).
 * Knows nothing of Telegram: users are numbers.
 *
 * ```
 *   quoted ──confirm──▶ confirmed ──send claim──▶ sent ──2xx──▶ placed ──tx success──▶ settled
 *     │ │ │                 │                      │ │            └──tx error──────▶ failed
 *     │ │ └─▶ expired       └─▶ cancelled          │ ├──4xx──────────────────────────▶ failed
 *     │ └───▶ cancelled                            │ └──timeout/network/5xx──▶ unknown
 *     └─────▶ replaced (a newer quote of the same kind)        sent/unknown ──tx found──▶ placed
 *                                                              sent/unknown ──grace over, no tx──▶ not-placed
 * ```
 *
 * Exactly once stands on two atomic `setIfAbsent` claims per action: the *decision* claim
 * (`order-claim:{id}`, taken by the first Confirm or Cancel; everyone after gets "already") and
 * the *send* claim (`order-send:{id}`, taken by the one caller that POSTs). Transactions found at
 * the exchange are claimed too (`order-tx:{txId}`), so one transaction is never matched to two
 * actions. Notices are claimed (`order-notice:{id}:{kind}`) so the user is told once.
 *
 * Record writes after a claim are get-then-set: only the claim holder (or reconciliation, which
 * only moves actions forward) writes, so no two writers race for the same transition.
 *
 * @example
 * const ledger = new Ledger(store, clock);
 * const action = await ledger.quote({ userId: 42, ...buy.draft(request, quote) }); // kinds/buy.ts
 * const confirmed = await ledger.confirm(action.id, 42); // { ok: true, action } once, then { ok: false, reason: "already" }
 */
import { randomBytes } from "node:crypto";
import { indexExistingKeys } from "../store/indexed.ts";
import type { Store } from "../store/store.ts";
import type { Clock } from "../support/clock.ts";
import { type ActionProgress, type ActionState, FINAL_STATES, OPEN_STATES } from "./action.ts";
import {
  ACTION_KINDS,
  type ActionKind,
  isActionKind,
  KINDS,
  type MoneyAction,
  type MoneyDraft,
} from "./kinds/index.ts";

export { type ActionState, FINAL_STATES, OPEN_STATES } from "./action.ts";
export type { ActionKind, MoneyAction } from "./kinds/index.ts";

/** The kinds that go through the partner API (the rest through the user's own session). */
export const PARTNER_KINDS: ReadonlySet<ActionKind> = new Set(
  ACTION_KINDS.filter((kind) => KINDS[kind].api === "partner"),
);

/** A new action: its kind's draft (kinds/, `draft`) and its owner. */
export type QuoteInput = MoneyDraft & { userId: number; scheduled?: true };

export type ConfirmRefusal =
  /** No such action (a forged nonce, or a record past its retention). */
  | "unknown"
  /** Another Telegram user tapped it. */
  | "not-yours"
  /** The quote is older than its TTL: quote again. */
  | "expired"
  /** Confirmed before (a double tap, a second device, a redelivered update, another instance). */
  | "already"
  | "cancelled"
  /** A newer quote of the same kind was made: this card is stale. */
  | "replaced";

export type ConfirmResult =
  | { ok: true; action: MoneyAction }
  | { ok: false; reason: ConfirmRefusal; action?: MoneyAction };

export interface LedgerOptions {
  /** How long a quote can be confirmed; default 60 s (SECURITY.md, rule 8). */
  quoteTtlMs?: number;
  /** How long records and claims are kept; default 30 days. */
  retentionMs?: number;
}

export const DEFAULT_QUOTE_TTL_MS = 60_000;
const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** The claim values: who decided the action's fate. */
type DecisionClaim = { by: "confirm" | "cancel"; at: number };

const actionKey = (id: string) => `order:${id}`;
const decisionKey = (id: string) => `order-claim:${id}`;
const sendKey = (id: string) => `order-send:${id}`;
/** An open action's key (its value: when it was sent), listed in the two indexes below. */
const OPEN_PREFIX = "order-open:";
const openKey = (userId: number, id: string) => `${OPEN_PREFIX}${userId}:${id}`;
/** Store indexes of open actions: everyone's (members `userId:id`, read by the tick), one user's (ids). */
const OPEN_INDEX = "orders:open";
const openIndex = (userId: number) => `orders:open:${userId}`;
const openEntries = (userId: number, id: string) => [
  { index: OPEN_INDEX, member: `${userId}:${id}` },
  { index: openIndex(userId), member: id },
];
/** `userId:id` → its parts; undefined parts when it is not one. */
function splitOpenMember(member: string): [number | undefined, string | undefined] {
  const colon = member.indexOf(":");
  const userId = Number(member.slice(0, colon));
  const id = member.slice(colon + 1);
  return colon > 0 && Number.isSafeInteger(userId) && ID_PATTERN.test(id)
    ? [userId, id]
    : [undefined, undefined];
}
/**
 * Set (to the action's id) whenever one of the user's actions becomes open, deleted once a listing
 * finds nothing open: one read says "nothing open" where a key listing would scan (with Redis, the
 * whole keyspace).
 */
export const OPEN_FLAG_PREFIX = "order-open-user:";
const openFlagKey = (userId: number) => `${OPEN_FLAG_PREFIX}${userId}`;
const latestKey = (userId: number, kind: ActionKind) => `order-latest:${userId}:${kind}`;
const txKey = (transactionId: number) => `order-tx:${transactionId}`;
const noticeKey = (id: string, kind: string) => `order-notice:${id}:${kind}`;
/** A user's actions that ended at the exchange (settled or failed), for the daily digest. */
const finishedIndex = (userId: number) => `orders:finished:${userId}`;
/** The amount of the user's last order of a kind and currency that went out (an alert's buttons offer it again). */
const lastAmountKey = (userId: number, kind: ActionKind, currency: string) =>
  `order-last-amount:${userId}:${kind}:${currency}`;

const ID_PATTERN = /^[A-Za-z0-9_-]{12}$/;

/** A fresh action id: 9 random bytes, base64url (12 characters, < 64 bytes of callback data with room to spare). */
export function newActionId(): string {
  return randomBytes(9).toString("base64url");
}

/** True for text that can be an action id (checked before touching the store with callback data). */
export function isActionId(text: string): boolean {
  return ID_PATTERN.test(text);
}

export class Ledger {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly quoteTtlMs: number;
  readonly #retentionMs: number;

  constructor(store: Store, clock: Clock, options: LedgerOptions = {}) {
    this.#store = store;
    this.#clock = clock;
    this.quoteTtlMs = options.quoteTtlMs ?? DEFAULT_QUOTE_TTL_MS;
    this.#retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  }

  /**
   * Records a new quote (state `quoted`) and makes it the user's latest of its kind: an older
   * quote of the same kind that is still `quoted` becomes `replaced`.
   */
  async quote(input: QuoteInput): Promise<MoneyAction> {
    const now = this.#clock.now();
    const action: MoneyAction = {
      ...input,
      id: newActionId(),
      currency: input.currency.toLowerCase(),
      createdAt: now,
      expiresAt: now + this.quoteTtlMs,
      state: "quoted",
    };
    await this.#save(action);
    // A scheduled run's action is nobody's card: the card on the user's screen stays the latest.
    if (input.scheduled) return action;
    const previous = await this.#store.get<string>(latestKey(input.userId, input.kind));
    await this.#store.set(latestKey(input.userId, input.kind), action.id, this.#retentionMs);
    if (previous !== undefined && previous !== action.id) {
      await this.#transition(previous, ["quoted"], { state: "replaced", finishedAt: now });
    }
    return action;
  }

  /** The action, or undefined for an unknown (or malformed) id. */
  async get(id: string): Promise<MoneyAction | undefined> {
    if (!isActionId(id)) return undefined;
    // Records written before kinds were typed have the same fields; one of a kind this build
    // does not know (a rollback) is left alone rather than handled as another kind.
    const action = await this.#store.get<MoneyAction>(actionKey(id));
    return action !== undefined && isActionKind(action.kind) ? action : undefined;
  }

  /** The user's latest quote of a kind (whatever its state now), if any. */
  async latest(userId: number, kind: ActionKind): Promise<MoneyAction | undefined> {
    const id = await this.#store.get<string>(latestKey(userId, kind));
    return id === undefined ? undefined : this.get(id);
  }

  /** The amount of the user's last order of this kind and currency that was sent (within the retention). */
  lastAmount(userId: number, kind: ActionKind, currency: string): Promise<string | undefined> {
    return this.#store.get<string>(lastAmountKey(userId, kind, currency.toLowerCase()));
  }

  /**
   * Accepts the user's Confirm exactly once, across processes: the first caller gets
   * `{ ok: true }` and the action in state `confirmed`; every later caller gets a reason. A quote
   * past its TTL is `expired` (the caller quotes again; nothing is claimed).
   */
  async confirm(id: string, userId: number): Promise<ConfirmResult> {
    const checked = await this.#checkDecidable(id, userId);
    if (!checked.ok) return checked;
    return this.#decide(id, "confirm", (now) => ({ state: "confirmed", confirmedAt: now }));
  }

  /**
   * Cancels an action that was not sent: a `quoted` one (the card's Cancel or Change amount;
   * mutually exclusive with Confirm through the decision claim) or a `confirmed` one that is
   * still waiting for its 2FA code (mutually exclusive with the POST through the send claim).
   */
  async cancel(id: string, userId: number): Promise<ConfirmResult> {
    const action = await this.get(id);
    if (action === undefined) return { ok: false, reason: "unknown" };
    if (action.userId !== userId) return { ok: false, reason: "not-yours", action };
    const now = this.#clock.now();
    if (action.state === "confirmed") {
      if (!(await this.#store.setIfAbsent(sendKey(id), { by: "cancel", at: now }, this.#retentionMs))) {
        return { ok: false, reason: "already", action };
      }
      const done = await this.#transition(id, ["confirmed"], { state: "cancelled", finishedAt: now });
      return done ? { ok: true, action: done } : { ok: false, reason: "already", action };
    }
    if (action.state !== "quoted") return this.#refusalFor(action);
    return this.#decide(id, "cancel", (at) => ({ state: "cancelled", finishedAt: at }));
  }

  /**
   * Takes the decision claim of a quoted action for `by` and moves it on: the first Confirm or
   * Cancel wins, everyone after hears why not.
   */
  async #decide(
    id: string,
    by: DecisionClaim["by"],
    progress: (now: number) => ActionProgress,
  ): Promise<ConfirmResult> {
    const now = this.#clock.now();
    const claim: DecisionClaim = { by, at: now };
    if (!(await this.#store.setIfAbsent(decisionKey(id), claim, this.#retentionMs))) {
      return this.#refusalFromClaim(id);
    }
    // The claim is ours, so nobody else moves a quoted action on; this only fails if the record vanished.
    const action = await this.#transition(id, ["quoted"], progress(now));
    return action ? { ok: true, action } : { ok: false, reason: "unknown" };
  }

  /**
   * Takes the send claim of a `confirmed` action and records `sent` (with `sentAt`) BEFORE the
   * POST (rule 5). Returns undefined when someone else already holds the send claim, or the
   * action is not confirmed: then the caller must not POST.
   */
  async markSent(id: string): Promise<MoneyAction | undefined> {
    const action = await this.get(id);
    if (action?.state !== "confirmed") return undefined;
    const now = this.#clock.now();
    if (!(await this.#store.setIfAbsent(sendKey(id), { by: "send", at: now }, this.#retentionMs))) {
      return undefined;
    }
    // Listed with the record, atomically: the tick and the user's return read these indexes.
    await this.#store.setIndexed(
      openKey(action.userId, id),
      now,
      this.#retentionMs,
      openEntries(action.userId, id),
    );
    // After the open key: a listing that runs meanwhile either sees the key or finds the flag changed.
    await this.#store.set(openFlagKey(action.userId), id, this.#retentionMs);
    await this.#store.set(
      lastAmountKey(action.userId, action.kind, action.currency),
      action.amount,
      this.#retentionMs,
    );
    return this.#transition(id, ["confirmed"], { state: "sent", sentAt: now });
  }

  /**
   * Undoes `markSent` after the exchange refused the 2FA code (a 422 on `security_code`: nothing
   * happened), so the caller can ask for a new code and send again. Only from `sent`.
   */
  async reopenForCode(id: string): Promise<MoneyAction | undefined> {
    const action = await this.#transition(id, ["sent"], { state: "confirmed" });
    if (action === undefined) return undefined;
    await this.#store.deleteIfEquals(openKey(action.userId, id), action.sentAt);
    await this.#store.delete(sendKey(id));
    const { sentAt: _, ...rest } = action;
    await this.#save(rest);
    return rest;
  }

  /** The exchange accepted the order (its answer arrived, or reconciliation found its transaction). */
  async markPlaced(id: string, transactionId?: number): Promise<MoneyAction | undefined> {
    const patch: Partial<ActionProgress> = { state: "placed", placedAt: this.#clock.now() };
    if (transactionId !== undefined) patch.transactionId = transactionId;
    return this.#transition(id, ["sent", "unknown", "placed"], patch);
  }

  /** The exchange's transaction ended: `success` → settled, `error` → failed. */
  async markSettled(
    id: string,
    outcome: "success" | "error",
    failure?: string,
    fee?: { amount: string; currency: string },
  ): Promise<MoneyAction | undefined> {
    const patch: Partial<ActionProgress> = {
      state: outcome === "success" ? "settled" : "failed",
      outcome,
      finishedAt: this.#clock.now(),
    };
    if (failure !== undefined) patch.failure = failure;
    if (fee !== undefined) {
      patch.feeTaken = fee.amount;
      patch.feeTakenCurrency = fee.currency;
    }
    return this.#finish(id, ["sent", "unknown", "placed"], patch);
  }

  /** The exchange refused the order (4xx): nothing happened. */
  async markFailed(id: string, failure: string): Promise<MoneyAction | undefined> {
    return this.#finish(id, ["sent", "confirmed"], {
      state: "failed",
      outcome: "error",
      failure,
      finishedAt: this.#clock.now(),
    });
  }

  /** The POST's outcome is unknown (timeout, broken connection, 5xx). Reconciliation decides later. */
  async markUnknown(id: string, failure?: string): Promise<MoneyAction | undefined> {
    const patch: Partial<ActionProgress> = { state: "unknown" };
    if (failure !== undefined) patch.failure = failure;
    return this.#transition(id, ["sent"], patch);
  }

  /** Reconciliation found no transaction for a sent/unknown order after the grace period. */
  async markNotPlaced(id: string): Promise<MoneyAction | undefined> {
    return this.#finish(id, ["sent", "unknown"], { state: "not-placed", finishedAt: this.#clock.now() });
  }

  /**
   * Marks a `quoted` action `expired` (its card's Confirm came too late). Returns the action as it
   * is afterwards.
   */
  async expire(id: string): Promise<MoneyAction | undefined> {
    return (
      (await this.#transition(id, ["quoted"], { state: "expired", finishedAt: this.#clock.now() })) ??
      this.get(id)
    );
  }

  /**
   * Actions whose outcome is still open (`sent`, `unknown`, `placed`): of one user, or of everyone
   * (for the background reconciliation). Oldest first.
   */
  async open(userId?: number): Promise<MoneyAction[]> {
    const flag = userId === undefined ? undefined : await this.#store.get<string>(openFlagKey(userId));
    const listed = await this.#store.indexMembers(userId === undefined ? OPEN_INDEX : openIndex(userId));
    const actions: MoneyAction[] = [];
    for (const member of listed) {
      const [owner, id] = userId === undefined ? splitOpenMember(member) : [userId, member];
      if (owner === undefined || id === undefined) continue;
      const action = await this.get(id);
      if (action !== undefined && OPEN_STATES.includes(action.state)) {
        actions.push(action);
        continue;
      }
      if (action === undefined || FINAL_STATES.includes(action.state))
        await this.#store.delete(openKey(owner, id));
      // Off both lists unless its open key is still there (an action sent again meanwhile keeps it).
      await this.#unlistOpen(owner, id);
    }
    // Only the flag read before the listing: one set since (a new open action) stays.
    if (userId !== undefined && flag !== undefined && actions.length === 0) {
      await this.#store.deleteIfEquals(openFlagKey(userId), flag);
    }
    return actions.sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Whether the user may have an open action: one read of the user's flag, no listing. True also
   * for actions that have ended since (`open(userId)` then clears the flag). An action opened
   * before the flag existed is still found by `open()` without a user (the background tick).
   */
  async hasOpen(userId: number): Promise<boolean> {
    return (await this.#store.get(openFlagKey(userId))) !== undefined;
  }

  /** User ids with open actions (cheaper than loading them: one index read). */
  async usersWithOpenActions(): Promise<number[]> {
    const ids = new Set<number>();
    for (const member of await this.#store.indexMembers(OPEN_INDEX)) {
      const [userId] = splitOpenMember(member);
      if (userId !== undefined) ids.add(userId);
    }
    return [...ids];
  }

  /**
   * Adds open keys written before the open-orders indexes existed to them (one key listing). Run
   * when an instance becomes the jobs leader; returns how many keys it saw.
   */
  indexExisting(): Promise<number> {
    return indexExistingKeys(this.#store, OPEN_PREFIX, (key) => {
      const [userId, id] = splitOpenMember(key.slice(OPEN_PREFIX.length));
      return userId === undefined || id === undefined ? [] : openEntries(userId, id);
    });
  }

  /**
   * Links an exchange transaction to an action, exactly once: true when the transaction is now
   * (or already was) this action's, false when another action holds it.
   */
  async claimTransaction(transactionId: number, actionId: string): Promise<boolean> {
    if (await this.#store.setIfAbsent(txKey(transactionId), actionId, this.#retentionMs)) return true;
    return (await this.#store.get<string>(txKey(transactionId))) === actionId;
  }

  /** The action a transaction was matched to, if any. */
  async actionOfTransaction(transactionId: number): Promise<string | undefined> {
    return this.#store.get<string>(txKey(transactionId));
  }

  /**
   * The user's actions that settled or failed at or after `since`, oldest first (the daily
   * digest). Actions gone with their retention are unlisted here.
   */
  async finishedSince(userId: number, since: number): Promise<MoneyAction[]> {
    const ids = await this.#store.indexMembers(finishedIndex(userId));
    const actions = await this.#store.getMany<MoneyAction>(ids.map(actionKey));
    const finished: MoneyAction[] = [];
    for (const [i, id] of ids.entries()) {
      const action = actions[i];
      if (action === undefined) await this.#store.unindex(finishedIndex(userId), id, actionKey(id));
      else if ((action.finishedAt ?? 0) >= since) finished.push(action);
    }
    return finished.sort((a, b) => (a.finishedAt ?? 0) - (b.finishedAt ?? 0));
  }

  /** True exactly once per action and notice kind: the caller that gets true tells the user. */
  async claimNotice(id: string, kind: string): Promise<boolean> {
    return this.#store.setIfAbsent(noticeKey(id, kind), this.#clock.now(), this.#retentionMs);
  }

  async #checkDecidable(
    id: string,
    userId: number,
  ): Promise<
    { ok: true; action: MoneyAction } | { ok: false; reason: ConfirmRefusal; action?: MoneyAction }
  > {
    const action = await this.get(id);
    if (action === undefined) return { ok: false, reason: "unknown" };
    if (action.userId !== userId) return { ok: false, reason: "not-yours", action };
    if (action.state !== "quoted") return this.#refusalFor(action);
    const latest = action.scheduled
      ? undefined
      : await this.#store.get<string>(latestKey(userId, action.kind));
    if (latest !== undefined && latest !== id) {
      await this.#transition(id, ["quoted"], { state: "replaced", finishedAt: this.#clock.now() });
      return { ok: false, reason: "replaced", action };
    }
    if (this.#clock.now() >= action.expiresAt) {
      const expired = await this.expire(id);
      return { ok: false, reason: "expired", action: expired ?? action };
    }
    return { ok: true, action };
  }

  #refusalFor(action: MoneyAction): { ok: false; reason: ConfirmRefusal; action: MoneyAction } {
    const reason: ConfirmRefusal =
      action.state === "expired"
        ? "expired"
        : action.state === "replaced"
          ? "replaced"
          : action.state === "cancelled"
            ? "cancelled"
            : "already";
    return { ok: false, reason, action };
  }

  async #refusalFromClaim(id: string): Promise<ConfirmResult> {
    const claim = await this.#store.get<DecisionClaim>(decisionKey(id));
    const action = await this.get(id);
    const reason: ConfirmRefusal = claim?.by === "cancel" ? "cancelled" : "already";
    return action ? { ok: false, reason, action } : { ok: false, reason };
  }

  async #finish(
    id: string,
    from: readonly ActionState[],
    patch: Partial<ActionProgress>,
  ): Promise<MoneyAction | undefined> {
    const action = await this.#transition(id, from, patch);
    if (action !== undefined) {
      await this.#store.delete(openKey(action.userId, id));
      await this.#unlistOpen(action.userId, id);
      await this.#store.addToIndex(finishedIndex(action.userId), id);
    }
    return action;
  }

  /** Everyone's list first: a stop between the two leaves only the user's, which open(userId) clears. */
  async #unlistOpen(userId: number, id: string): Promise<void> {
    await this.#store.unindex(OPEN_INDEX, `${userId}:${id}`, openKey(userId, id));
    await this.#store.unindex(openIndex(userId), id, openKey(userId, id));
  }

  /** Applies `patch` when the action is in one of `from`; undefined otherwise. */
  async #transition(
    id: string,
    from: readonly ActionState[],
    patch: Partial<ActionProgress>,
  ): Promise<MoneyAction | undefined> {
    const action = await this.get(id);
    if (action === undefined || !from.includes(action.state)) return undefined;
    const next: MoneyAction = { ...action, ...patch };
    await this.#save(next);
    return next;
  }

  async #save(action: MoneyAction): Promise<void> {
    await this.#store.set(actionKey(action.id), action, this.#retentionMs);
  }
}
