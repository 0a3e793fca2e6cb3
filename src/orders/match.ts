/**
 * Which exchange transaction is this action's order? The account API has no order id and no
 * idempotency key, so an order is recognised in GET v1/transactions by its
 * type (its kind's `transactionTypes`, kinds/), its currency and amount (when the exchange sends them; the spec lists only id, state,
 * type and times) and its time: created no earlier than `sentAt − SKEW` and no later than
 * `sentAt + WINDOW`. A transaction already matched to another action is skipped
 * (`Ledger.claimTransaction`), so two equal orders placed close together get one each, oldest
 * transaction to the oldest action.
 *
 * Partner kinds look in the partner user's transactions (GET …/users/{id}/transactions, read
 * tolerantly, each row checked against the account API's transaction fields); a row that carries
 * the action's `idempotency_key` is the order whatever else it says.
 *
 * @example
 * const tx = await findOrder(client, ledger, action); // undefined: not (yet) at the exchange
 */
import Big from "big.js";
import type { AccountSession } from "../exchange/account.ts";
import { type Transaction, transaction } from "../exchange/schemas.ts";
import { decimalFrom } from "../money.ts";
import { type OrderClient, type PartnerClient, partnerOf } from "./clients.ts";
import { kindOf } from "./kinds/index.ts";
import type { Ledger, MoneyAction } from "./ledger.ts";
import { fieldOf, payloadOf, recordsOf } from "./partner-read.ts";

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
  const amounts = ["amount", "fiat_amount", "crypto_amount"]
    .map((field) => decimalFrom(extra[field]))
    .filter((value): value is Big => value !== undefined);
  if (amounts.length > 0 && !amounts.some((value) => value.eq(new Big(action.amount)))) return false;
  const sentAt = action.sentAt ?? action.confirmedAt ?? action.createdAt;
  const created = Date.parse(tx.created_at);
  return created >= sentAt - MATCH_SKEW_MS && created <= sentAt + MATCH_WINDOW_MS;
}

/** Where to look for an action's order: its transaction by id, and a page of the newest. */
interface TransactionSource {
  one(id: number): Promise<Transaction | undefined>;
  page(start: number, length: number, currency: string): Promise<Transaction[]>;
}

/** The action's order at the exchange, through the client its kind uses. */
export function findOrder(
  client: OrderClient,
  ledger: Ledger,
  action: MoneyAction,
): Promise<Transaction | undefined> {
  return "account" in client
    ? findTransaction(client.account, ledger, action)
    : search(partnerSource(partnerOf(client)), ledger, action);
}

/**
 * Looks through the newest transactions (in the action's currency) for the action's order and
 * claims it for the action. Returns it, or undefined when none is there (yet).
 */
export function findTransaction(
  client: AccountSession,
  ledger: Ledger,
  action: MoneyAction,
): Promise<Transaction | undefined> {
  return search(
    {
      one: (id) => client.transaction(id),
      page: (start, length, currencyCode) => client.transactions({ start, length, currencyCode }),
    },
    ledger,
    action,
  );
}

function partnerSource({ api, partnerUserId }: PartnerClient): TransactionSource {
  return {
    one: async (id) => asTransaction(payloadOf(await api.userTransaction(partnerUserId, id))),
    page: async (start, length, currency) =>
      recordsOf(await api.userTransactions(partnerUserId, { start, length, currency_code: currency }))
        .map(asTransaction)
        .filter((tx): tx is Transaction => tx !== undefined),
  };
}

/** A partner transaction row, if it has what matching needs (id, state, type, time). */
function asTransaction(row: unknown): Transaction | undefined {
  const parsed = transaction.safeParse(row);
  if (parsed.success) return parsed.data;
  // The id alone, with the state, is enough to follow an order whose id the POST returned.
  const id = decimalFrom(fieldOf(row as Record<string, unknown>, "id"));
  const state = fieldOf(row as Record<string, unknown>, "state");
  if (id === undefined || typeof state !== "string") return undefined;
  return { id: id.toNumber(), state, transaction_type: "", created_at: "" } as Transaction;
}

async function search(source: TransactionSource, ledger: Ledger, action: MoneyAction) {
  if (action.transactionId !== undefined) return source.one(action.transactionId);
  const sentAt = action.sentAt ?? action.confirmedAt ?? action.createdAt;
  const candidates: Transaction[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await source.page(page * PAGE, PAGE, action.currency);
    candidates.push(...list.filter((tx) => couldBe(tx, action)));
    // Newest first: once a page reaches back before the window, older pages cannot hold it.
    const oldest = list.at(-1);
    if (list.length < PAGE || oldest === undefined || Date.parse(oldest.created_at) < sentAt - MATCH_SKEW_MS)
      break;
  }
  candidates.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
  for (const tx of candidates) {
    if (await ledger.claimTransaction(tx.id, action.id)) return tx;
  }
  return undefined;
}
