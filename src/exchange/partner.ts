/**
 * The exchange's partner API: one method per operation, for an integrator that manages
 * users of its own. Calls carry the partner's bearer token and `X-Requested-With: XMLHttpRequest`.
 * Every method returns a typed result: the documented resources parsed by schemas.ts (a wrong
 * shape is a `bad-response` error), the ones the spec shows no payload for read tolerantly by
 * partner-schemas.ts (never refused: what nobody recognised is handed on, typed, for the screens).
 *
 * @example
 * const partner = new PartnerApi(http, partnerToken);
 * const { id } = await partner.createUser({ email, name, surname });
 * const user = await partner.getUser(id);
 * if (user.kyc_status === "passed") await partner.buy(id, { amount, pair: "btceur", idempotencyKey });
 * const { rows, rest } = await partner.userBalance(id);
 */
import type { z } from "zod";
import { type Big, toPlainString } from "../domain/money.ts";
import { ExchangeError } from "./errors.ts";
import type { HttpClient, HttpMethod, QueryValue } from "./http.ts";
import { parseResponse } from "./parse.ts";
import type * as p from "./partner-schemas.ts";
import { PARTNER_READINGS as read } from "./partner-schemas.ts";
import * as s from "./schemas.ts";

const PREFIX = "/api/v1/partners";

interface Call {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: Record<string, unknown>;
}

export interface PartnerOrder {
  amount: Big;
  pair: string;
  /** Unique per order: the same key twice is the same order, never a second one. */
  idempotencyKey: string;
}

/**
 * Where the current partner token comes from when it is not a fixed PARTNER_TOKEN: a service
 * account, which renews it, and is told when the exchange refused one (revoked before its hour).
 */
export interface PartnerTokenSource {
  token(): Promise<string>;
  /** The exchange answered 401 to `token`: forget it, so the next `token()` logs in again. */
  refused(token: string): Promise<void>;
}

/** The partner's bearer token, or where to get the current one. */
export type PartnerToken = string | (() => Promise<string>) | PartnerTokenSource;

export class PartnerApi {
  readonly #http: HttpClient;
  readonly #token: PartnerToken;

  constructor(http: HttpClient, token: PartnerToken) {
    this.#http = http;
    this.#token = token;
  }

  async #raw(call: Call) {
    const source = this.#token;
    if (typeof source === "string") return this.#send(call, source);
    if (typeof source === "function") return this.#send(call, await source());
    const token = await source.token();
    try {
      return await this.#send(call, token);
    } catch (error) {
      // A 401 means the exchange did nothing with the request (any method): with a token from a
      // service account, revoked early, it is sent once more under a fresh login.
      if (!(error instanceof ExchangeError) || error.kind !== "unauthenticated") throw error;
      await source.refused(token);
      return this.#send(call, await source.token());
    }
  }

  #send(call: Call, token: string) {
    return this.#http.request({ ...call, token, headers: { "x-requested-with": "XMLHttpRequest" } });
  }

  async #typed<T extends z.ZodType>(schema: T, call: Call): Promise<z.output<T>> {
    return parseResponse(schema, await this.#raw(call), call.method, call.path);
  }

  /** POST /api/v1/partners/users */
  async createUser(user: {
    email: string;
    name: string;
    surname: string;
    phone?: string;
  }): Promise<{ id: number }> {
    const reply = await this.#typed(s.partnerUserCreated, {
      method: "POST",
      path: `${PREFIX}/users`,
      body: user,
    });
    return { id: reply.data.id };
  }

  /** GET /api/v1/partners/users/{user_id}: check `kyc_status` before serving the user. */
  async getUser(userId: number): Promise<s.PartnerUser> {
    const reply = await this.#typed(s.partnerUser, { method: "GET", path: `${PREFIX}/users/${userId}` });
    return reply.data;
  }

  /**
   * POST /api/v1/partners/users, as for create: the spec does not say how the two are told apart,
   * so the caller's fields (an `id` among them, presumably) go out as they are.
   */
  updateUser(fields: Record<string, unknown>): Promise<p.PartnerAck> {
    return this.#typed(read.updateUser(), { method: "POST", path: `${PREFIX}/users`, body: fields });
  }

  /** POST v1/users/{user_id}/kyc-import: no `/api/v1/partners` prefix, as the spec gives it. */
  async importKyc(userId: number, shareToken: string): Promise<boolean> {
    const reply = await this.#typed(s.partnerStatus, {
      method: "POST",
      path: `/v1/users/${userId}/kyc-import`,
      body: { token: shareToken },
    });
    return reply.status;
  }

  /** GET /api/v1/partners/users/{user_id}/balances */
  userBalance(userId: number): Promise<p.PartnerBalances> {
    return this.#typed(read.userBalance(), { method: "GET", path: `${PREFIX}/users/${userId}/balances` });
  }

  /** GET /api/v1/partners/balances?currency_code= */
  async masterBalance(currencyCode: string): Promise<{ balance: Big; currency_code: string }> {
    const reply = await this.#typed(s.partnerMasterBalance, {
      method: "GET",
      path: `${PREFIX}/balances`,
      query: { currency_code: currencyCode },
    });
    return { balance: reply.data.balance, currency_code: reply.data.currency_code };
  }

  /** POST /api/v1/partners/users/{user_id}/bank-accounts — deprecated by the exchange. */
  addBankAccount(userId: number, fields: Record<string, unknown>): Promise<p.PartnerAck> {
    return this.#typed(read.addBankAccount(), {
      method: "POST",
      path: `${PREFIX}/users/${userId}/bank-accounts`,
      body: fields,
    });
  }

  /** GET /api/v1/partners/users/{user}/bank-accounts */
  async bankAccounts(userId: number): Promise<z.output<typeof s.partnerBankAccount>[]> {
    const reply = await this.#typed(s.partnerBankAccounts, {
      method: "GET",
      path: `${PREFIX}/users/${userId}/bank-accounts`,
    });
    return reply.data;
  }

  /** GET /api/v1/partners/users/{user}/bank-accounts/{bankId} */
  bankAccount(userId: number, bankId: number): Promise<p.PartnerBankView> {
    return this.#typed(read.bankAccount(), {
      method: "GET",
      path: `${PREFIX}/users/${userId}/bank-accounts/${bankId}`,
    });
  }

  /** DELETE /api/v1/partners/users/{user}/bank-accounts/{bankId} */
  removeBankAccount(userId: number, bankId: number): Promise<p.PartnerAck> {
    return this.#typed(read.removeBankAccount(), {
      method: "DELETE",
      path: `${PREFIX}/users/${userId}/bank-accounts/${bankId}`,
    });
  }

  /** GET /api/v1/partners/users/{user}/deposit-instructions: shown to the end user as they are. */
  depositInstructions(userId: number): Promise<p.PartnerDeposit> {
    return this.#typed(read.depositInstructions(), {
      method: "GET",
      path: `${PREFIX}/users/${userId}/deposit-instructions`,
    });
  }

  /** GET /api/v1/partners/users/{user_id}/limits, optionally `fiat_withdrawal` or `fiat_deposit`. */
  userLimits(userId: number, type?: "fiat_withdrawal" | "fiat_deposit"): Promise<p.PartnerLimits> {
    return this.#typed(read.userLimits(userId, type), {
      method: "GET",
      path: `${PREFIX}/users/${userId}/limits`,
      query: { type },
    });
  }

  /** POST /api/v1/partners/users/{user}/withdraw: fields as the integrator's contract says. */
  withdraw(userId: number, fields: Record<string, unknown>): Promise<p.PartnerWithdrawal> {
    return this.#typed(read.withdraw(), {
      method: "POST",
      path: `${PREFIX}/users/${userId}/withdraw`,
      body: fields,
    });
  }

  /** GET /api/v1/partners/pairs */
  pairs(): Promise<p.PartnerPairs> {
    return this.#typed(read.pairs(), { method: "GET", path: `${PREFIX}/pairs` });
  }

  /** GET /api/v1/partners/exchange-rates; with `pair`, the result says that pair's price (`asked`). */
  exchangeRates(query: Record<string, QueryValue> = {}): Promise<p.PartnerRates> {
    return this.#typed(read.exchangeRates(query), {
      method: "GET",
      path: `${PREFIX}/exchange-rates`,
      query,
    });
  }

  /** POST /api/v1/partners/users/{user_id}/buy: `amount` in EUR. */
  buy(userId: number, order: PartnerOrder): Promise<{ transaction_id: number }> {
    return this.#order(userId, "buy", order);
  }

  /** POST /api/v1/partners/users/{user_id}/sell: `amount` in the crypto. */
  sell(userId: number, order: PartnerOrder): Promise<{ transaction_id: number }> {
    return this.#order(userId, "sell", order);
  }

  async #order(
    userId: number,
    side: "buy" | "sell",
    order: PartnerOrder,
  ): Promise<{ transaction_id: number }> {
    const reply = await this.#typed(s.partnerOrderReceipt, {
      method: "POST",
      path: `${PREFIX}/users/${userId}/${side}`,
      body: { amount: toPlainString(order.amount), pair: order.pair, idempotency_key: order.idempotencyKey },
    });
    return { transaction_id: reply.data.transaction_id };
  }

  /** GET /api/v1/partners/currencies */
  currencies(): Promise<p.PartnerCurrencies> {
    return this.#typed(read.currencies(), { method: "GET", path: `${PREFIX}/currencies` });
  }

  /** GET /api/v1/partners/users-transactions: every user's. */
  allTransactions(query: Record<string, QueryValue> = {}): Promise<p.PartnerTransactions> {
    return this.#typed(read.allTransactions(), {
      method: "GET",
      path: `${PREFIX}/users-transactions`,
      query,
    });
  }

  /** GET /api/v1/partners/users/{user}/transactions */
  userTransactions(userId: number, query: Record<string, QueryValue> = {}): Promise<p.PartnerTransactions> {
    return this.#typed(read.userTransactions(), {
      method: "GET",
      path: `${PREFIX}/users/${userId}/transactions`,
      query,
    });
  }

  /** GET /api/v1/partners/users/{user}/transactions/{transactionId} */
  userTransaction(userId: number, transactionId: number): Promise<p.PartnerTransaction> {
    return this.#typed(read.userTransaction(), {
      method: "GET",
      path: `${PREFIX}/users/${userId}/transactions/${transactionId}`,
    });
  }

  /** GET /api/v1/partners/limits/minimum; with `pair`, that pair's minimums. */
  minimumLimits(query: Record<string, QueryValue> = {}): Promise<p.PartnerMinimums> {
    return this.#typed(read.minimumLimits(query), {
      method: "GET",
      path: `${PREFIX}/limits/minimum`,
      query,
    });
  }
}
