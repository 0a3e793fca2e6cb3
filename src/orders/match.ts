/**
 * Which exchange transaction is this action's order? The account API has no order id and no
 * idempotency key, so an order is recognised in GET v1/transactions by its
 * type (its kind's `transactionTypes`, kinds/), its currency and amount (when the exchange sends them; the spec lists only id, state,
 * type and times) and its time: created no earlier than `sentAt − SKEW` and no later than
 * `sentAt + WINDOW`. A transaction already matched to another action is skipped
 * (`Ledger.claimTransaction`), so two equal orders placed close together get one each, oldest
 * transaction to the oldest action.
 *
 * Partner kinds look in the partner user's transactions (GET …/users/{id}/transactions, each row
 * read tolerantly by exchange/partner-transaction.ts: `type` or `transaction_type`, amounts under any of
 * their names); a row that carries the action's `idempotency_key` is the order whatever else it
 * says. A row whose id, type or time cannot be read might be the order: the search then says so
 * (`unreadable`), and reconciliation tells the user the outcome is unknown instead of guessing.
 *
 * @example
 * const tx = await findOrder(client, ledger, action); // undefined: not (yet) at the exchange
 */
import Big from "big.js";
import { decimalFrom } from "../domain/money.ts";
import type { AccountSession } from "../exchange/account.ts";
import { AMOUNT_NAMES } from "../exchange/partner-transaction.ts";
import type { Transaction } from "../exchange/schemas.ts";
import { kindOf } from "./kinds/index.ts";
import type { Ledger, MoneyAction } from "./ledger.ts";
import { type OrderClient, type PartnerClient, partnerOf } from "./order-client.ts";

/** Clocks differ: a transaction may carry a time a little before our `sentAt`. */
export const MATCH_SKEW_MS = 60_000;
/** An order is recorded by the exchange while it answers the POST; later ones are other orders. */
export const MATCH_WINDOW_MS = 5 * 60_000;
const PAGE = 50;
const MAX_PAGES = 4;

/** True when `tx` could be `action`'s order (ignoring whether another action already has it). */
export function couldBe(tx: Transaction, action: MoneyAction): boolean {
  const key = (tx as Record<string, unknown>).idempotency_key;
  const ours = "idempotencyKey" in action ? action.idempotencyKey : undefined;
  if (ours !== undefined && typeof key === "string") return key === ours;
  if (!kindOf(action.kind).transactionTypes.includes(tx.transaction_type)) return false;
  const extra = tx as Record<string, unknown>;
  const currency = extra.currency_code;
  if (typeof currency === "string" && currency.toLowerCase() !== action.currency) return false;
  // A buy's `amount` may be given in EUR (as ordered) or in the crypto: any amount field that
  // equals the ordered amount is a match; no amount field at all leaves type and time to decide.
  const amounts = AMOUNT_NAMES.map((field) => decimalFrom(extra[field])).filter(
    (value): value is Big => value !== undefined,
  );
  if (amounts.length > 0 && !amounts.some((value) => value.eq(new Big(action.amount)))) return false;
  const sentAt = action.sentAt ?? action.confirmedAt ?? action.createdAt;
  const created = Date.parse(tx.created_at);
  return created >= sentAt - MATCH_SKEW_MS && created <= sentAt + MATCH_WINDOW_MS;
}

/** A page of transactions: those read, and how many rows could not be read. */
interface Page {
  rows: Transaction[];
  unreadable: number;
  /** Rows the exchange sent, read or not (a short page is the last). */
  count: number;
}

/** Where to look for an action's order: its transaction by id, and a page of the newest. */
interface TransactionSource {
  one(id: number): Promise<Transaction | undefined>;
  page(start: number, length: number, currency: string): Promise<Page>;
}

/**
 * What the exchange's transactions say about an action: its transaction (claimed for it), or none
 * found; `unreadable` when rows that could have been it could not be read.
 */
export interface OrderLookup {
  tx: Transaction | undefined;
  unreadable: boolean;
}

/** The action's order at the exchange, through the client its kind uses. */
export async function findOrder(
  client: OrderClient,
  ledger: Ledger,
  action: MoneyAction,
): Promise<Transaction | undefined> {
  return (await lookUpOrder(client, ledger, action)).tx;
}

/** As findOrder, and whether unreadable rows leave its absence uncertain. */
export function lookUpOrder(client: OrderClient, ledger: Ledger, action: MoneyAction): Promise<OrderLookup> {
  return "account" in client
    ? search(accountSource(client.account), ledger, action)
    : search(partnerSource(partnerOf(client)), ledger, action);
}

function accountSource(client: AccountSession): TransactionSource {
  return {
    one: (id) => client.transaction(id),
    // The account API's rows are checked by its schema (exchange/schemas.ts): all of them read.
    page: async (start, length, currencyCode) => {
      const rows = await client.transactions({ start, length, currencyCode });
      return { rows, unreadable: 0, count: rows.length };
    },
  };
}

function partnerSource({ api, partnerUserId }: PartnerClient): TransactionSource {
  return {
    async one(id) {
      const read = (await api.userTransaction(partnerUserId, id)).match;
      if (read.ok) return read.tx;
      // The id asked for, with a state, is enough to follow an order whose id the POST returned.
      if (read.state === undefined) return undefined;
      return { id, state: read.state, transaction_type: "", created_at: "" };
    },
    async page(start, length, currency) {
      const { matches } = await api.userTransactions(partnerUserId, {
        start,
        length,
        currency_code: currency,
      });
      const rows: Transaction[] = [];
      let unreadable = 0;
      for (const read of matches) {
        if (read.ok) rows.push(read.tx);
        else unreadable++;
      }
      return { rows, unreadable, count: matches.length };
    },
  };
}

async function search(source: TransactionSource, ledger: Ledger, action: MoneyAction): Promise<OrderLookup> {
  if (action.transactionId !== undefined) {
    return { tx: await source.one(action.transactionId), unreadable: false };
  }
  const sentAt = action.sentAt ?? action.confirmedAt ?? action.createdAt;
  const candidates: Transaction[] = [];
  let unreadable = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await source.page(page * PAGE, PAGE, action.currency);
    candidates.push(...list.rows.filter((tx) => couldBe(tx, action)));
    unreadable += list.unreadable;
    // Newest first: once a page reaches back before the window, older pages cannot hold it (an
    // unreadable row's time is unknown, so only the rows read say how far back a page reaches).
    const oldest = list.rows.at(-1);
    if (list.count < PAGE || oldest === undefined || Date.parse(oldest.created_at) < sentAt - MATCH_SKEW_MS)
      break;
  }
  candidates.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
  for (const tx of candidates) {
    if (await ledger.claimTransaction(tx.id, action.id)) return { tx, unreadable: false };
  }
  return { tx: undefined, unreadable: unreadable > 0 };
}
