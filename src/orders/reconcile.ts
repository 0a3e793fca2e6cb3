/**
 * Reconciliation: finds out what became of orders whose outcome is open, and says what the user
 * should be told (SECURITY.md, rule 5). Knows nothing of Telegram: notices come back
 * as data, and the bot layer words and sends them (src/bot/ui/quote-card.ts).
 *
 * - `sent` / `unknown` (the answer never came: a crash, a timeout): its transaction in
 *   GET v1/transactions (partner kinds: the partner user's transactions, match.ts) → `placed` (notice `placed`, or straight `settled` / `failed` when the
 *   transaction has already ended); none found once `graceMs` has passed since `sentAt` →
 *   `not-placed` (notice `not-placed`). These notices always go out: the user was left not knowing.
 *   When rows of the list could not be read (exchange/partner-transaction.ts), none found proves nothing:
 *   the action stays open (a later reading may still find it) and the user is told once that
 *   the outcome is unknown and where to look (notice `unknown`), never that nothing was charged.
 * - `placed` → GET v1/transactions/{id} → `success` / `error` → `settled` / `failed` (notice
 *   `settled` / `failed`, unless the user switched order notifications off in /settings).
 *
 * Each notice is claimed in the store first (`Ledger.claimNotice`), so two instances reconciling
 * at once, or a tick racing the user's own request, tell the user once.
 *
 * Runs from the background tick (every user with open actions and a live session, or a linked
 * partner user for partner kinds), at start, and when the user comes back.
 *
 * @example
 * const notices = await reconcileUser(deps, userId);
 * for (const notice of notices) await send(notice);
 */

import { codeField, decimalField, type Row } from "../exchange/partner-records.ts";
import type { Profiles } from "../session/profiles.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import type { OrderClients } from "./clients.ts";
import type { Ledger, MoneyAction } from "./ledger.ts";
import { lookUpOrder } from "./match.ts";

/** How long after `sentAt` a missing transaction means the order never reached the exchange. */
// Long enough for an exchange that books orders late; a wrong "not placed" invites a second order.
export const DEFAULT_GRACE_MS = 10 * 60_000;

export type OrderNoticeKind =
  /** A sent/unknown order turned out to be at the exchange; its outcome follows later. */
  | "placed"
  /** A sent/unknown order never reached the exchange: nothing was ordered. */
  | "not-placed"
  /** A sent/unknown order's transaction list could not be read: nobody can say what became of it. */
  | "unknown"
  /** The order's transaction ended in success. */
  | "settled"
  /** The order's transaction ended in error. */
  | "failed";

export interface OrderNotice {
  kind: OrderNoticeKind;
  userId: number;
  action: MoneyAction;
  /** The user's chosen language, if any (the caller falls back to DEFAULT_LOCALE). */
  locale: string | undefined;
}

/** A fee as a transaction reports it: a decimal string and its currency (lower case). */
export interface FeeTaken {
  amount: string;
  currency: string;
}

/**
 * The fee a transaction reports (the account API's shape, and tolerantly the partner API's, whose
 * transaction payload the API reference does not show): `fee` or `fee_amount` (a number, decimal
 * text, or an object with `amount`), its currency in `fee_currency` or `fee_currency_code` (or
 * the object's `currency`). A fee without a currency is not told: its unit would be a guess.
 */
export function feeTaken(row: Row): FeeTaken | undefined {
  const nested = ["fee", "fee_amount"].map((name) => row[name]).find(isRow);
  const amount = decimalField(nested ?? row, nested ? ["amount", "value"] : ["fee", "fee_amount", "fees"]);
  const currency =
    codeField(row, ["fee_currency", "fee_currency_code"]) ?? codeField(nested, ["currency", "currency_code"]);
  if (amount === undefined || amount.lt(0) || currency === undefined || !/^[a-z0-9]{2,12}$/.test(currency))
    return undefined;
  return { amount: amount.toFixed(), currency };
}

const isRow = (value: unknown): value is Row =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export interface ReconcileDeps {
  ledger: Ledger;
  clients: Pick<OrderClients, "use" | "ready">;
  profiles: Pick<Profiles, "get">;
  clock: Clock;
  log?: Pick<Logger, "warn" | "error">;
  graceMs?: number;
}

/** Reconciles one user's open actions; returns what to tell them (each notice at most once ever). */
export async function reconcileUser(deps: ReconcileDeps, userId: number): Promise<OrderNotice[]> {
  const open = await deps.ledger.open(userId);
  // Without a token the exchange cannot be asked; the user is reconciled after the next login.
  const ready = new Map<string, boolean>();
  const askable: MoneyAction[] = [];
  for (const action of open) {
    if (!ready.has(action.kind)) ready.set(action.kind, await deps.clients.ready(userId, action.kind));
    if (ready.get(action.kind)) askable.push(action);
  }
  if (askable.length === 0) return [];
  const profile = await deps.profiles.get(userId);
  const notices: OrderNotice[] = [];
  for (const action of askable) {
    try {
      const notice = await reconcileAction(deps, action);
      if (notice === undefined) continue;
      const wasUncertain =
        notice.kind === "placed" ||
        notice.kind === "not-placed" ||
        notice.kind === "unknown" ||
        notice.uncertain;
      // A recurring plan's run said "bought" in its one message: its settling is not a second one
      // (an error, or an outcome that was uncertain, still is).
      const toldByItsRun = notice.kind === "settled" && action.scheduled === true;
      if (!wasUncertain && (profile.notifications.orders === "off" || toldByItsRun)) {
        await deps.ledger.claimNotice(action.id, notice.kind);
        continue;
      }
      if (await deps.ledger.claimNotice(action.id, notice.kind)) {
        notices.push({
          kind: notice.kind,
          userId,
          action: notice.action,
          locale: profile.locale,
        });
      }
    } catch (error) {
      deps.log?.warn({ err: error, actionId: action.id }, "order reconciliation failed; next time");
    }
  }
  return notices;
}

/** Every user with open actions and a live session. Errors of one user do not stop the others. */
export async function reconcileAll(deps: ReconcileDeps): Promise<OrderNotice[]> {
  const notices: OrderNotice[] = [];
  for (const userId of await deps.ledger.usersWithOpenActions()) {
    try {
      notices.push(...(await reconcileUser(deps, userId)));
    } catch (error) {
      deps.log?.error({ err: error, userId }, "order reconciliation failed for a user");
    }
  }
  return notices;
}

async function reconcileAction(
  deps: ReconcileDeps,
  action: MoneyAction,
): Promise<{ kind: OrderNoticeKind; action: MoneyAction; uncertain: boolean } | undefined> {
  const { ledger } = deps;
  const uncertain = action.state === "sent" || action.state === "unknown";
  const { tx, unreadable } = await deps.clients.use(action.userId, action.kind, (client) =>
    lookUpOrder(client, ledger, action),
  );
  if (tx === undefined) {
    const since = deps.clock.now() - (action.sentAt ?? action.createdAt);
    if (uncertain && since >= (deps.graceMs ?? DEFAULT_GRACE_MS)) {
      // Told once (the notice is claimed); the action stays open for a later, readable answer.
      if (unreadable) return { kind: "unknown", action, uncertain };
      const done = await ledger.markNotPlaced(action.id);
      return done ? { kind: "not-placed", action: done, uncertain } : undefined;
    }
    return undefined;
  }
  if (tx.state === "success" || tx.state === "error") {
    if (action.transactionId === undefined) await ledger.markPlaced(action.id, tx.id);
    const failure = tx.state === "error" ? "error" : undefined;
    // The fee taken is kept with the action, so the notice tells it whenever it goes out.
    const fee = tx.state === "success" ? feeTaken(tx as Row) : undefined;
    const done = await ledger.markSettled(action.id, tx.state, failure, fee);
    return done
      ? { kind: tx.state === "success" ? "settled" : "failed", action: done, uncertain }
      : undefined;
  }
  if (action.state === "placed" && action.transactionId === tx.id) return undefined;
  const placed = await ledger.markPlaced(action.id, tx.id);
  return placed && uncertain ? { kind: "placed", action: placed, uncertain } : undefined;
}
