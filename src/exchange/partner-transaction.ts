/**
 * A partner transaction row read tolerantly: the partner API's reference shows no payload for its
 * transactions, so a row may name its type `type` or `transaction_type`, its currency
 * `currency` or `currency_code`, its amounts `amount`, `fiat_amount`, `quantity`, … and write
 * numbers as text. The row comes back under the account API's names (what matching reads), or as
 * unreadable when its id, type or time cannot be found: then nobody can say whether it is an
 * order, and the caller must not guess (orders/reconcile.ts tells the user the outcome is unknown).
 *
 * @example
 * const read = readPartnerTransaction({ id: "7", type: "buy_crypto", created_at: "…", fiat_amount: 100 });
 * if (read.ok) couldBe(read.tx, action);
 */

import { decimalFrom } from "../domain/money.ts";
import { codeField, fieldOf, type Row } from "./partner-records.ts";
import type { Transaction } from "./schemas.ts";
import { normalizeTimestamp } from "./schemas.ts";

/** Every name an amount may go by; matching accepts the order's amount under any of them. */
export const AMOUNT_NAMES = [
  "amount",
  "fiat_amount",
  "eur_amount",
  "crypto_amount",
  "quantity",
  "crypto_quantity",
] as const;

/** Every name the fee taken and its currency may go by, kept as they are for the order notice. */
const FEE_NAMES = ["fee", "fee_amount", "fee_currency", "fee_currency_code"] as const;

export type PartnerTransactionRead =
  | { ok: true; tx: Transaction }
  /** `id`/`state` when at least those could be read (enough to follow an order by its id). */
  | { ok: false; id?: number; state?: string };

export function readPartnerTransaction(row: Row): PartnerTransactionRead {
  const id = idOf(row);
  const state = codeField(row, ["state", "status"]);
  const type = codeField(row, ["transaction_type", "type", "kind"]);
  const createdAt = timeOf(row);
  if (id === undefined || state === undefined || type === undefined || createdAt === undefined) {
    return {
      ok: false,
      ...(id === undefined ? {} : { id }),
      ...(state === undefined ? {} : { state }),
    };
  }
  const tx: Transaction = { id, state, transaction_type: type, created_at: createdAt };
  const extra = tx as Record<string, unknown>;
  const currency = codeField(row, ["currency_code", "currency", "asset", "coin"]);
  if (currency !== undefined) extra.currency_code = currency;
  for (const name of AMOUNT_NAMES) {
    const value = decimalFrom(fieldOf(row, name));
    if (value !== undefined) extra[name] = value.toFixed();
  }
  // The fee as the row gives it: the settled notice reads it tolerantly (reconcile.ts, feeTaken).
  for (const name of FEE_NAMES) if (row[name] !== undefined) extra[name] = row[name];
  const key = fieldOf(row, "idempotency_key") ?? fieldOf(row, "idempotencyKey");
  if (typeof key === "string" && key !== "") extra.idempotency_key = key;
  return { ok: true, tx };
}

function idOf(row: Row): number | undefined {
  for (const name of ["id", "transaction_id", "tx_id"]) {
    const value = decimalFrom(fieldOf(row, name));
    if (value?.gte(1) && value.mod(1).eq(0)) return value.toNumber();
  }
  return undefined;
}

function timeOf(row: Row): string | undefined {
  for (const name of ["created_at", "createdAt", "created", "date", "datetime"]) {
    const value = fieldOf(row, name);
    if (typeof value === "string") {
      const iso = normalizeTimestamp(value);
      if (iso !== undefined) return iso;
    }
  }
  return undefined;
}
