/**
 * Everything the sandbox exchange knows, in memory: accounts (login accounts and partner users
 * alike, since both hold balances, bank accounts and transactions), tokens, transactions, bank
 * accounts, addresses, limit usage, and the partner's master wallet.
 *
 * Time-driven changes (an order settling, a bank account auto-verifying, a KYC import finishing)
 * are applied lazily by `catchUp(now)`, which the server calls before every request: nothing
 * sleeps or runs on a timer, and a test that advances the clock sees the effects on its next call.
 *
 * Every method here is synchronous, so a request's checks and writes happen in one turn of the
 * event loop: two concurrent orders can never both pass a balance check meant for one.
 */
import { randomBytes } from "node:crypto";
import Big from "big.js";
import { LIMIT_TYPES, type LimitType } from "../exchange/schemas.ts";
import type { Clock } from "../support/clock.ts";
import { generateAddress } from "./addresses.ts";
import { makeRfReference } from "./rf-reference.ts";
import { type Ceiling, defaultCeilings } from "./rules.ts";

export type AccountType = "personal" | "business";
export type KycStatus = "not_started" | "pending" | "failed" | "declined" | "passed";
export type EddStatus = "not_required" | "required" | "confirmed" | "failed" | "";

export interface AccountInfo {
  name: string;
  surname: string;
  birth_of_date: string;
  address: string;
  building_number: string;
  city: string;
  postal_code: string;
  country: string;
  company_name?: string;
  company_address?: string;
  vat_number?: string;
  registration_number?: string;
}

export interface PartnerProfile {
  phone: string;
  status: "active";
  kyc_status: KycStatus;
  edd_status: EddStatus;
  /** When a KYC import finishes, and how. */
  kycDecision?: { at: number; outcome: KycStatus };
}

export interface Account {
  id: number;
  email: string;
  /** Absent for partner users: they never log in to the account API. */
  password?: string;
  /** Absent when 2FA is off: such an account cannot use the API (spec, Authentication 2). */
  totpSecret?: string;
  accountType: AccountType;
  info: AccountInfo;
  balances: Map<string, Big>;
  /** The RF reference a wire deposit to this account carries (deposit instructions). */
  depositReference: string;
  partner?: PartnerProfile;
  createdAt: number;
}

export interface BankAccountRecord {
  id: number;
  accountId: number;
  name: string;
  iban: string;
  swift_bic: string;
  reference_number: string;
  state: "pending" | "verified";
  /** The deposit that verifies it. */
  verificationAmount: Big;
  createdAt: number;
  updatedAt: number;
}

export interface AddressRecord {
  accountId: number;
  currency_code: string;
  address: string;
  createdAt: number;
}

export type TransactionType =
  | "buy_crypto"
  | "sell_crypto"
  | "crypto_withdraw"
  | "fiat_withdraw"
  | "fiat_deposit"
  | "crypto_deposit";
export type TransactionState = "opened" | "success" | "error";

export interface Movement {
  currency: string;
  amount: Big;
}

export interface TransactionRecord {
  id: number;
  accountId: number;
  type: TransactionType;
  state: TransactionState;
  createdAt: number;
  updatedAt: number;
  /** Sandbox instant at which it leaves `opened`. */
  settleAt: number;
  /** Decided when the order is placed (the "settle as error" switch of that moment). */
  outcome: "success" | "error";
  currency_code: string;
  /** The amount as ordered: EUR for buy and fiat withdrawal, the crypto otherwise. */
  amount: Big;
  fee: Big;
  feeCurrency: string;
  minerFee?: Big;
  price?: Big;
  cryptoAmount?: Big;
  fiatAmount?: Big;
  address?: string;
  reference_number?: string;
  /** Taken at placement; given back if the order ends in `error`. */
  debits: Movement[];
  /** Paid out when the order succeeds. */
  credits: Movement[];
  usageIds: number[];
  idempotencyKey?: string;
  via: "account" | "partner" | "sandbox";
}

export interface UsageEntry {
  id: number;
  accountId: number;
  type: LimitType;
  eurAmount: Big;
  at: number;
}

export interface TokenRecord {
  accountId: number;
  expiresAt: number;
}

export interface IdempotencyRecord {
  fingerprint: string;
  transactionId: number;
}

export interface SandboxSettings {
  settleAfterMs: number;
  /** A new bank account verifies itself after this long if no deposit arrived (demo convenience). */
  bankAutoVerifyMs: number;
  /** A KYC import is decided this long after it was received. */
  kycDecisionMs: number;
  tokenLifetimeSeconds: number;
}

export type AssetAction = "buy" | "sell" | "send" | "receive";

export interface NewAccount {
  email: string;
  password?: string;
  totpSecret?: string;
  accountType?: AccountType;
  info?: Partial<AccountInfo>;
  balances?: Record<string, string>;
  partner?: Partial<PartnerProfile>;
}

const BLANK_INFO: AccountInfo = {
  name: "",
  surname: "",
  birth_of_date: "",
  address: "",
  building_number: "",
  city: "",
  postal_code: "",
  country: "",
};

export class SandboxState {
  readonly clock: Clock;
  readonly settings: SandboxSettings;
  readonly accounts = new Map<number, Account>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly transactions = new Map<number, TransactionRecord>();
  readonly bankAccounts = new Map<number, BankAccountRecord>();
  readonly addresses: AddressRecord[] = [];
  /** Limit usage per account id. */
  readonly usage = new Map<number, UsageEntry[]>();
  readonly ceilings: Record<LimitType, Ceiling> = defaultCeilings();
  /** `type:currency` pairs closed for that action. */
  readonly closedAssets = new Set<string>();
  /** The partner's own wallet, read by the master balance endpoint. */
  readonly masterBalances = new Map<string, Big>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  /** How orders placed from now on end. */
  orderOutcome: "success" | "error" = "success";
  /**
   * The partner answers whose payload the spec leaves open come in another plausible shape
   * (partner-routes.ts, `reshaped`): a bot must show them without failing.
   */
  alternateShapes = false;
  /** When the limit records were created (their `created_at`). */
  readonly limitsCreatedAt: number;

  #nextAccountId = 1;
  #nextTransactionId = 1001;
  #nextBankId = 1;
  #nextUsageId = 1;
  /** Ids of transactions still `opened`, oldest first: settling scans only these. */
  readonly #open: number[] = [];
  readonly #transactionIds = new Map<number, number[]>();
  readonly #byEmail = new Map<string, Account>();
  readonly #pendingBanks = new Set<number>();
  readonly #pendingKyc = new Set<number>();
  /** Running sums of usage per account, type and UTC day or month: `used()` stays O(1). */
  readonly #usageTotals = new Map<string, Big>();

  constructor(clock: Clock, settings: SandboxSettings) {
    this.clock = clock;
    this.settings = settings;
    this.limitsCreatedAt = clock.now() - 30 * 24 * 3600 * 1000;
  }

  now(): number {
    return this.clock.now();
  }

  // ── Accounts ──────────────────────────────────────────────────────────────────────────────────

  createAccount(spec: NewAccount): Account {
    const id = this.#nextAccountId++;
    const balances = new Map<string, Big>();
    for (const [currency, amount] of Object.entries(spec.balances ?? {}))
      balances.set(currency, new Big(amount));
    const account: Account = {
      id,
      email: spec.email,
      accountType: spec.accountType ?? "personal",
      info: { ...BLANK_INFO, ...spec.info },
      balances,
      depositReference: makeRfReference(`${String(id).padStart(6, "0")}000000`),
      createdAt: this.now(),
    };
    if (spec.password !== undefined) account.password = spec.password;
    if (spec.totpSecret !== undefined) account.totpSecret = spec.totpSecret;
    if (spec.partner) {
      account.partner = {
        phone: "",
        status: "active",
        kyc_status: "not_started",
        edd_status: "not_required",
        ...spec.partner,
      };
    }
    this.accounts.set(id, account);
    this.#byEmail.set(account.email.toLowerCase(), account);
    return account;
  }

  accountByEmail(email: string): Account | undefined {
    return this.#byEmail.get(email.trim().toLowerCase());
  }

  setEmail(account: Account, email: string): void {
    this.#byEmail.delete(account.email.toLowerCase());
    account.email = email;
    this.#byEmail.set(email.toLowerCase(), account);
  }

  /** A KYC import's outcome, applied by `catchUp` once its time has come. */
  scheduleKycDecision(account: Account, outcome: KycStatus, at: number): void {
    if (!account.partner) return;
    account.partner.kyc_status = "pending";
    account.partner.kycDecision = { at, outcome };
    this.#pendingKyc.add(account.id);
  }

  partnerUser(id: number): Account | undefined {
    const account = this.accounts.get(id);
    return account?.partner ? account : undefined;
  }

  // ── Balances ──────────────────────────────────────────────────────────────────────────────────

  balance(account: Account, currency: string): Big {
    return account.balances.get(currency) ?? new Big(0);
  }

  credit(account: Account, currency: string, amount: Big): void {
    account.balances.set(currency, this.balance(account, currency).plus(amount));
  }

  /** Callers check the balance first; going below zero is a bug, so it throws. */
  debit(account: Account, currency: string, amount: Big): void {
    const next = this.balance(account, currency).minus(amount);
    if (next.lt(0)) throw new Error(`balance of ${currency} would go below zero`);
    account.balances.set(currency, next);
  }

  // ── Tokens ────────────────────────────────────────────────────────────────────────────────────

  issueToken(account: Account): { token: string; expiresIn: number } {
    const token = randomBytes(30).toString("base64url");
    const expiresIn = this.settings.tokenLifetimeSeconds;
    this.tokens.set(token, { accountId: account.id, expiresAt: this.now() + expiresIn * 1000 });
    return { token, expiresIn };
  }

  /** The account a bearer token belongs to, if it is known and not expired. */
  accountForToken(token: string): Account | undefined {
    const record = this.tokens.get(token);
    if (!record) return undefined;
    if (this.now() >= record.expiresAt) {
      this.tokens.delete(token);
      return undefined;
    }
    return this.accounts.get(record.accountId);
  }

  expireAllTokens(): void {
    this.tokens.clear();
  }

  // ── Assets ────────────────────────────────────────────────────────────────────────────────────

  isAssetOpen(action: AssetAction, currency: string): boolean {
    return !this.closedAssets.has(`${action}:${currency}`);
  }

  setAssetOpen(action: AssetAction, currency: string, open: boolean): void {
    if (open) this.closedAssets.delete(`${action}:${currency}`);
    else this.closedAssets.add(`${action}:${currency}`);
  }

  // ── Limits ────────────────────────────────────────────────────────────────────────────────────

  recordUsage(account: Account, type: LimitType, eurAmount: Big): UsageEntry {
    const entry = { id: this.#nextUsageId++, accountId: account.id, type, eurAmount, at: this.now() };
    const list = this.usage.get(account.id);
    if (list) list.push(entry);
    else this.usage.set(account.id, [entry]);
    this.#addToTotals(entry, eurAmount);
    return entry;
  }

  /** Used today and this month, by UTC calendar day and month of the sandbox clock. */
  used(account: Account, type: LimitType): { day: Big; month: Big } {
    const [dayKey, monthKey] = usageKeys(account.id, type, this.now());
    return {
      day: this.#usageTotals.get(dayKey) ?? new Big(0),
      month: this.#usageTotals.get(monthKey) ?? new Big(0),
    };
  }

  #addToTotals(entry: UsageEntry, amount: Big): void {
    for (const key of usageKeys(entry.accountId, entry.type, entry.at)) {
      this.#usageTotals.set(key, (this.#usageTotals.get(key) ?? new Big(0)).plus(amount));
    }
  }

  /** The EUR still allowed today for this limit type (the lower of day and month headroom). */
  headroom(account: Account, type: LimitType): Big {
    const { day, month } = this.used(account, type);
    const ceiling = this.ceilings[type];
    const dayLeft = ceiling.daily.minus(day);
    const monthLeft = ceiling.monthly.minus(month);
    const left = dayLeft.lt(monthLeft) ? dayLeft : monthLeft;
    return left.lt(0) ? new Big(0) : left;
  }

  limitTypes(): readonly LimitType[] {
    return LIMIT_TYPES;
  }

  // ── Transactions ──────────────────────────────────────────────────────────────────────────────

  /**
   * Records an order whose debits the caller has already checked: takes them now, pays the
   * credits when it settles.
   */
  openTransaction(
    account: Account,
    fields: Omit<
      TransactionRecord,
      "id" | "accountId" | "state" | "createdAt" | "updatedAt" | "settleAt" | "outcome"
    >,
  ): TransactionRecord {
    const now = this.now();
    for (const debit of fields.debits) this.debit(account, debit.currency, debit.amount);
    const record: TransactionRecord = {
      ...fields,
      id: this.#nextTransactionId++,
      accountId: account.id,
      state: "opened",
      createdAt: now,
      updatedAt: now,
      settleAt: now + this.settings.settleAfterMs,
      outcome: this.orderOutcome,
    };
    this.#index(record);
    // Kept in settle order, even if a test shortens settleAfterMs midway.
    let at = this.#open.length;
    while (at > 0 && (this.transactions.get(this.#open[at - 1] as number)?.settleAt ?? 0) > record.settleAt)
      at -= 1;
    this.#open.splice(at, 0, record.id);
    if (this.settings.settleAfterMs <= 0) this.catchUp();
    return record;
  }

  /** A finished incoming movement (a simulated deposit), recorded for the transaction list. */
  recordDeposit(
    account: Account,
    type: "fiat_deposit" | "crypto_deposit",
    currency: string,
    amount: Big,
    extra: { address?: string; reference_number?: string } = {},
  ): TransactionRecord {
    const now = this.now();
    this.credit(account, currency, amount);
    const record: TransactionRecord = {
      id: this.#nextTransactionId++,
      accountId: account.id,
      type,
      state: "success",
      createdAt: now,
      updatedAt: now,
      settleAt: now,
      outcome: "success",
      currency_code: currency,
      amount,
      fee: new Big(0),
      feeCurrency: currency,
      debits: [],
      credits: [{ currency, amount }],
      usageIds: [],
      via: "sandbox",
      ...extra,
    };
    this.#index(record);
    return record;
  }

  #index(record: TransactionRecord): void {
    this.transactions.set(record.id, record);
    const ids = this.#transactionIds.get(record.accountId);
    if (ids) ids.push(record.id);
    else this.#transactionIds.set(record.accountId, [record.id]);
  }

  /** Newest first, lazily: paging through a long history does not copy it. */
  *iterateTransactionsOf(account: Account): Generator<TransactionRecord> {
    const ids = this.#transactionIds.get(account.id) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const record = this.transactions.get(ids[i] as number);
      if (record) yield record;
    }
  }

  /** Newest first. */
  transactionsOf(account: Account): TransactionRecord[] {
    const ids = this.#transactionIds.get(account.id) ?? [];
    const list: TransactionRecord[] = [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const record = this.transactions.get(ids[i] as number);
      if (record) list.push(record);
    }
    return list;
  }

  /** Applies whatever the clock has made due: settlements, bank verifications, KYC decisions. */
  catchUp(): void {
    const now = this.now();
    // Settle times only grow (fixed delay, clock never goes back): stop at the first not yet due.
    let due = 0;
    while (due < this.#open.length) {
      const record = this.transactions.get(this.#open[due] as number);
      if (record && record.settleAt > now) break;
      if (record) this.#settle(record);
      due += 1;
    }
    if (due > 0) this.#open.splice(0, due);
    for (const id of this.#pendingBanks) {
      const bank = this.bankAccounts.get(id);
      if (bank?.state !== "pending") {
        this.#pendingBanks.delete(id);
      } else if (bank.createdAt + this.settings.bankAutoVerifyMs <= now) {
        bank.state = "verified";
        bank.updatedAt = bank.createdAt + this.settings.bankAutoVerifyMs;
        this.#pendingBanks.delete(id);
      }
    }
    for (const id of this.#pendingKyc) {
      const partner = this.accounts.get(id)?.partner;
      const decision = partner?.kycDecision;
      if (!partner || !decision) {
        this.#pendingKyc.delete(id);
      } else if (decision.at <= now) {
        partner.kyc_status = decision.outcome;
        delete partner.kycDecision;
        this.#pendingKyc.delete(id);
      }
    }
  }

  #settle(record: TransactionRecord): void {
    const account = this.accounts.get(record.accountId);
    if (!account) return;
    if (record.outcome === "success") {
      for (const credit of record.credits) this.credit(account, credit.currency, credit.amount);
      record.state = "success";
    } else {
      for (const debit of record.debits) this.credit(account, debit.currency, debit.amount);
      // A failed order used none of the limit.
      const ids = new Set(record.usageIds);
      const entries = this.usage.get(account.id);
      if (entries && ids.size > 0) {
        for (const entry of entries) if (ids.has(entry.id)) this.#addToTotals(entry, entry.eurAmount.neg());
        this.usage.set(
          account.id,
          entries.filter((entry) => !ids.has(entry.id)),
        );
      }
      record.state = "error";
    }
    record.updatedAt = record.settleAt;
  }

  // ── Bank accounts and addresses ───────────────────────────────────────────────────────────────

  addBankAccount(
    account: Account,
    fields: { name: string; iban: string; swift_bic: string; verificationAmount: Big; verified?: boolean },
  ): BankAccountRecord {
    const id = this.#nextBankId++;
    const now = this.now();
    const record: BankAccountRecord = {
      id,
      accountId: account.id,
      name: fields.name,
      iban: fields.iban,
      swift_bic: fields.swift_bic,
      // Account id and bank id in the body: unique, and a human can read where it points.
      reference_number: makeRfReference(
        `${String(account.id).padStart(6, "0")}${String(id).padStart(6, "0")}`,
      ),
      state: fields.verified ? "verified" : "pending",
      verificationAmount: fields.verificationAmount,
      createdAt: now,
      updatedAt: now,
    };
    this.bankAccounts.set(id, record);
    if (record.state === "pending") this.#pendingBanks.add(id);
    return record;
  }

  bankAccountsOf(account: Account): BankAccountRecord[] {
    return [...this.bankAccounts.values()].filter((b) => b.accountId === account.id);
  }

  bankAccountByReference(reference: string): BankAccountRecord | undefined {
    const wanted = reference.replace(/\s+/g, "").toUpperCase();
    for (const bank of this.bankAccounts.values()) if (bank.reference_number === wanted) return bank;
    return undefined;
  }

  verifyBankAccount(bank: BankAccountRecord): void {
    if (bank.state === "verified") return;
    bank.state = "verified";
    bank.updatedAt = this.now();
  }

  addAddress(account: Account, currency: string): AddressRecord {
    const record = {
      accountId: account.id,
      currency_code: currency,
      address: generateAddress(currency),
      createdAt: this.now(),
    };
    this.addresses.push(record);
    return record;
  }

  addressesOf(account: Account): AddressRecord[] {
    return this.addresses.filter((a) => a.accountId === account.id);
  }

  addressOwner(address: string): AddressRecord | undefined {
    return this.addresses.find((a) => a.address === address);
  }
}

/** The day and month buckets an instant falls in, for one account and limit type. */
function usageKeys(accountId: number, type: LimitType, at: number): [string, string] {
  const date = new Date(at);
  const month = `${date.getUTCFullYear()}-${date.getUTCMonth() + 1}`;
  return [`${accountId}:${type}:d:${month}-${date.getUTCDate()}`, `${accountId}:${type}:m:${month}`];
}
