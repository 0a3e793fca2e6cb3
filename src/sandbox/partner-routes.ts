/**
 * The partner API under `/api/v1/partners/...`, plus `POST /v1/users/{id}/kyc-import` (no prefix,
 * as the spec gives it). Every body is wrapped `{status: true, data}`. Where the spec shows no
 * payload, the shapes here are the sandbox's own choice, listed in the report of this module and
 * kept close to the account API's resources.
 */
import Big from "big.js";
import { checkBankFields, cryptoCodes, pageOf, pairOf, rateJson } from "./account-routes.ts";
import { authenticatePartner, type Deps } from "./deps.ts";
import { Checks, HttpError, isoUtc, json, modelNotFound, num, refuse } from "./http-kit.ts";
import { FIAT } from "./market.ts";
import { minimumFor, placeBuy, placeFiatWithdrawal, placeSell } from "./orders.ts";
import { amountText, bankAccountJson, transactionJson } from "./present.ts";
import type { RequestContext, Router } from "./router.ts";
import type { Account, KycStatus, TransactionRecord } from "./state.ts";

const P = "/api/v1/partners";

const PROFILE_FIELDS = [
  "date_of_birth",
  "address",
  "building_number",
  "city",
  "postal_code",
  "country",
] as const;

export function partnerUserJson(user: Account): Record<string, unknown> {
  const partner = user.partner;
  return {
    id: user.id,
    email: user.email,
    name: user.info.name,
    surname: user.info.surname,
    phone: partner?.phone ?? "",
    date_of_birth: user.info.birth_of_date,
    address: user.info.address,
    building_number: user.info.building_number,
    city: user.info.city,
    postal_code: user.info.postal_code,
    country: user.info.country,
    status: partner?.status ?? "active",
    kyc_status: partner?.kyc_status ?? "not_started",
    edd_status: partner?.edd_status ?? "",
    created_at: isoUtc(user.createdAt),
  };
}

function ok(data?: unknown): ReturnType<typeof json> {
  return json(data === undefined ? { status: true } : { status: true, data });
}

/**
 * Another plausible shape for an answer the spec leaves open (the `alternateShapes` switch): lists
 * come wrapped as `{items, total}`, decimals swap between string and number, and objects carry a
 * nested `meta`. A bot that shows "the fields it receives" must cope with either.
 */
export function reshaped(data: unknown, top = true): unknown {
  if (Array.isArray(data)) {
    const items = data.map((item) => reshaped(item, false));
    return top ? { items, total: items.length } : items;
  }
  if (typeof data === "number") return String(data);
  if (typeof data === "string" && /^-?\d+\.\d+$/.test(data)) return Number(data);
  if (typeof data !== "object" || data === null) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = reshaped(value, false);
  if (top) out.meta = { shape: "alternate", source: { name: "sandbox", version: 2 } };
  return out;
}

/**
 * A transaction row under the other names a partner API might use (the `alternateShapes` switch):
 * `type` for `transaction_type`, `currency` for `currency_code`, and the amounts only under
 * `fiat_amount` / `quantity` (no `amount`). Whoever reads rows by the account API's names alone
 * cannot recognise an order in them.
 */
export function renamedTransaction(row: Record<string, unknown>): Record<string, unknown> {
  const { transaction_type, currency_code, amount, crypto_amount, ...rest } = row;
  const out: Record<string, unknown> = { ...rest, type: transaction_type, currency: currency_code };
  if (crypto_amount !== undefined) out.quantity = crypto_amount;
  // A row without a separate fiat or crypto amount gives its amount under the name of its unit.
  if (rest.fiat_amount === undefined && crypto_amount === undefined) {
    out[currency_code === "eur" ? "fiat_amount" : "quantity"] = amount;
  }
  return out;
}

export function partnerRoutes(router: Router, deps: Deps): void {
  const { state, market } = deps;
  // The answers whose payload the exchange's API reference leaves open: in the switched shape when
  // asked to.
  const open = (data?: unknown) => ok(state.alternateShapes && data !== undefined ? reshaped(data) : data);
  const guard = (ctx: RequestContext) => authenticatePartner(deps, ctx);
  const transactionRow = (tx: TransactionRecord) => {
    const row = transactionJson(tx, { userId: true });
    return state.alternateShapes ? renamedTransaction(row) : row;
  };

  const userFrom = (ctx: RequestContext, name: string): Account => {
    guard(ctx);
    const raw = ctx.params[name] ?? "";
    const user = /^\d{1,15}$/.test(raw) ? state.partnerUser(Number(raw)) : undefined;
    if (!user) throw modelNotFound("User", raw);
    return user;
  };

  // Serving a user who has not passed KYC is an authorization failure, so 403 (not 422).
  const requireKyc = (user: Account): void => {
    if (user.partner?.kyc_status !== "passed") {
      throw new HttpError(403, {
        message: `The user's KYC status is ${user.partner?.kyc_status ?? "not_started"}; only users who passed KYC can be served.`,
      });
    }
  };

  const page = (ctx: RequestContext, list: Iterable<TransactionRecord>) => {
    const checks = new Checks(ctx.input);
    const start = checks.integer("start", { min: 0 }) ?? 0;
    const length = checks.integer("length", { min: 1, max: 100 }) ?? 25;
    const currency = checks.oneOf("currency_code", [...cryptoCodes(deps), FIAT.code], { required: false });
    checks.done();
    return pageOf(list, { start, length, currency }).map((tx) => transactionRow(tx));
  };

  // Create and update share a route (spec); a body with an `id` is an update.
  router.post(`${P}/users`, (ctx) => {
    guard(ctx);
    const checks = new Checks(ctx.input);
    const isUpdate = ctx.input.id !== undefined && ctx.input.id !== null && ctx.input.id !== "";
    const id = isUpdate ? checks.integer("id", { min: 1 }) : undefined;
    const existing = id === undefined ? undefined : state.partnerUser(id);
    if (isUpdate && id !== undefined && !existing) throw modelNotFound("User", id);
    const required = { required: !isUpdate };
    const email = checks.string("email", required);
    if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
      checks.add("email", "The email field must be a valid email address.");
    }
    const taken = email === undefined ? undefined : state.accountByEmail(email);
    if (taken && taken !== existing) checks.add("email", "The email has already been taken.");
    const name = checks.string("name", required);
    const surname = checks.string("surname", required);
    const phone = checks.string("phone", { required: false, max: 32 });
    const profile: Partial<Record<(typeof PROFILE_FIELDS)[number], string>> = {};
    for (const field of PROFILE_FIELDS) {
      const value = checks.string(field, { required: false });
      if (value !== undefined) profile[field] = value;
    }
    if (profile.country !== undefined && !/^[A-Za-z]{3}$/.test(profile.country)) {
      checks.add("country", "The country field must be a three-letter country code.");
    }
    if (profile.date_of_birth !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(profile.date_of_birth)) {
      checks.add("date_of_birth", "The date of birth field must match the format Y-m-d.");
    }
    checks.done();
    const info = {
      ...(name === undefined ? {} : { name }),
      ...(surname === undefined ? {} : { surname }),
      ...(profile.date_of_birth === undefined ? {} : { birth_of_date: profile.date_of_birth }),
      ...(profile.address === undefined ? {} : { address: profile.address }),
      ...(profile.building_number === undefined ? {} : { building_number: profile.building_number }),
      ...(profile.city === undefined ? {} : { city: profile.city }),
      ...(profile.postal_code === undefined ? {} : { postal_code: profile.postal_code }),
      ...(profile.country === undefined ? {} : { country: profile.country.toUpperCase() }),
    };
    if (existing?.partner) {
      if (email !== undefined) state.setEmail(existing, email);
      Object.assign(existing.info, info);
      if (phone !== undefined) existing.partner.phone = phone;
      return open(partnerUserJson(existing));
    }
    const user = state.createAccount({
      email: email as string,
      info,
      partner: { phone: phone ?? "" },
    });
    return ok({ id: user.id });
  });

  router.get(`${P}/users/:user_id`, (ctx) => ok(partnerUserJson(userFrom(ctx, "user_id"))));

  // The share token decides the sandbox outcome: one containing "decline" or "fail" ends that way;
  // one containing "invalid" is refused at once, as an expired or misaddressed token would be.
  router.post("/v1/users/:user_id/kyc-import", (ctx) => {
    const user = userFrom(ctx, "user_id");
    const checks = new Checks(ctx.input);
    const token = checks.string("token", { max: 2048 });
    if (token?.toLowerCase().includes("invalid")) {
      checks.add("token", "The share token is invalid or has expired.");
    }
    checks.done();
    const partner = user.partner;
    if (partner && partner.kyc_status !== "passed") {
      const lower = (token as string).toLowerCase();
      const outcome: KycStatus = lower.includes("decline")
        ? "declined"
        : lower.includes("fail")
          ? "failed"
          : "passed";
      state.scheduleKycDecision(user, outcome, state.now() + state.settings.kycDecisionMs);
    }
    return ok();
  });

  router.get(`${P}/users/:user_id/balances`, (ctx) => {
    const user = userFrom(ctx, "user_id");
    const now = state.now();
    const data = [FIAT.code, ...cryptoCodes(deps)].map((code) => {
      const balance = state.balance(user, code);
      const eur =
        code === FIAT.code ? balance : balance.times(market.price(code, now)).round(2, Big.roundDown);
      return { currency_code: code, balance: amountText(balance, code), fiat_conversion: eur.toFixed(2) };
    });
    return open(data);
  });

  router.get(`${P}/balances`, (ctx) => {
    guard(ctx);
    const checks = new Checks(ctx.input);
    const code = checks.oneOf("currency_code", [FIAT.code, ...cryptoCodes(deps)]);
    checks.done();
    const currency = code as string;
    return ok({ balance: num(state.masterBalances.get(currency) ?? new Big(0)), currency_code: currency });
  });

  // Deprecated: the partner vouches for the account, so it is created verified (no test deposit).
  router.post(`${P}/users/:user_id/bank-accounts`, (ctx) => {
    const user = userFrom(ctx, "user_id");
    const checks = new Checks(ctx.input);
    const fields = checkBankFields(checks, state.bankAccountsOf(user), { amountRequired: false });
    checks.done();
    const record = state.addBankAccount(user, {
      name: fields.name as string,
      iban: fields.iban as string,
      swift_bic: fields.swift_bic as string,
      verificationAmount: fields.amount ?? new Big(0),
      verified: true,
    });
    const reply = open(bankAccountJson(record, { timestamps: false }));
    return { ...reply, headers: { deprecation: "true" } };
  });

  router.get(`${P}/users/:user/bank-accounts`, (ctx) => {
    const user = userFrom(ctx, "user");
    return ok(state.bankAccountsOf(user).map((b) => bankAccountJson(b, { timestamps: false })));
  });

  const bankOf = (ctx: RequestContext, user: Account) => {
    const raw = ctx.params.bankId ?? "";
    const bank = /^\d{1,15}$/.test(raw) ? state.bankAccounts.get(Number(raw)) : undefined;
    if (!bank || bank.accountId !== user.id) throw modelNotFound("BankAccount", raw);
    return bank;
  };

  router.get(`${P}/users/:user/bank-accounts/:bankId`, (ctx) => {
    const user = userFrom(ctx, "user");
    return open(bankAccountJson(bankOf(ctx, user), { timestamps: false }));
  });

  router.delete(`${P}/users/:user/bank-accounts/:bankId`, (ctx) => {
    const user = userFrom(ctx, "user");
    const bank = bankOf(ctx, user);
    if (state.bankAccountsOf(user).length <= 1)
      throw refuse("bank_account", "At least one bank account must remain.");
    state.bankAccounts.delete(bank.id);
    return ok();
  });

  router.get(`${P}/users/:user/deposit-instructions`, (ctx) => {
    const user = userFrom(ctx, "user");
    return open({
      currency_code: FIAT.code,
      beneficiary: "Sandbox Exchange GmbH",
      bank_name: "Sandbox Bank AG",
      iban: "DE02120300000000202051",
      swift_bic: "BYLADEM1001",
      reference: user.depositReference,
      note: "Put the reference in the remittance field so the deposit reaches this user.",
    });
  });

  router.get(`${P}/users/:user_id/limits`, (ctx) => {
    const user = userFrom(ctx, "user_id");
    const checks = new Checks(ctx.input);
    const type = checks.oneOf("type", ["fiat_withdrawal", "fiat_deposit"] as const, { required: false });
    checks.done();
    const record = (t: "fiat_withdrawal" | "fiat_deposit") => {
      const used = state.used(user, t);
      const ceiling = state.ceilings[t];
      return {
        type: t,
        currency_code: FIAT.code,
        daily: num(ceiling.daily),
        monthly: num(ceiling.monthly),
        day_used: num(used.day),
        month_used: num(used.month),
      };
    };
    return open(type ? record(type) : [record("fiat_deposit"), record("fiat_withdrawal")]);
  });

  // Body: amount (EUR) and the target as bank_account_id or reference_number.
  router.post(`${P}/users/:user/withdraw`, (ctx) => {
    const user = userFrom(ctx, "user");
    const checks = new Checks(ctx.input);
    const amount = checks.amount("amount", 2);
    const bankId = checks.integer("bank_account_id", { min: 1 });
    const reference = checks.string("reference_number", { required: false, max: 64 });
    const bank =
      bankId !== undefined
        ? state.bankAccounts.get(bankId)
        : reference !== undefined
          ? state.bankAccountByReference(reference)
          : undefined;
    if (bankId === undefined && reference === undefined) {
      checks.add(
        "bank_account_id",
        "The bank account id field is required when reference number is not present.",
      );
    } else if (!bank || bank.accountId !== user.id) {
      checks.add(
        bankId !== undefined ? "bank_account_id" : "reference_number",
        "The selected bank account is invalid.",
      );
    }
    checks.done();
    requireKyc(user);
    const tx = placeFiatWithdrawal(deps, user, amount as Big, bank as NonNullable<typeof bank>, "partner");
    return open({ transaction_id: tx.id });
  });

  router.get(`${P}/pairs`, (ctx) => {
    guard(ctx);
    return open(
      cryptoCodes(deps).map((code) => ({
        pair: `${code}${FIAT.code}`,
        base_currency: code,
        quote_currency: FIAT.code,
      })),
    );
  });

  router.get(`${P}/exchange-rates`, (ctx) => {
    guard(ctx);
    const checks = new Checks(ctx.input);
    const only = pairOf(deps, checks.string("pair", { required: false, max: 16 }), checks);
    checks.done();
    return open(
      cryptoCodes(deps)
        .filter((c) => only === undefined || c === only)
        .map((c) => rateJson(deps, c)),
    );
  });

  for (const side of ["buy", "sell"] as const) {
    // Only orders that were placed are remembered under their key: a refused one may be retried.
    router.post(`${P}/users/:user_id/${side}`, (ctx) => {
      const user = userFrom(ctx, "user_id");
      const checks = new Checks(ctx.input);
      const amount = checks.amount("amount", side === "buy" ? 2 : 8);
      const currency = pairOf(deps, checks.string("pair", { max: 16 }), checks);
      const key = checks.string("idempotency_key", { max: 255 });
      checks.done();
      requireKyc(user);
      const idempotencyKey = key as string;
      const fingerprint = JSON.stringify([user.id, side, (amount as Big).toFixed(), currency]);
      const seen = state.idempotency.get(idempotencyKey);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          throw refuse(
            "idempotency_key",
            "The idempotency key has already been used for a different request.",
          );
        }
        return ok({ transaction_id: seen.transactionId });
      }
      const place = side === "buy" ? placeBuy : placeSell;
      const tx = place(deps, user, amount as Big, currency as string, "partner", idempotencyKey);
      state.idempotency.set(idempotencyKey, { fingerprint, transactionId: tx.id });
      return ok({ transaction_id: tx.id });
    });
  }

  router.get(`${P}/currencies`, (ctx) => {
    guard(ctx);
    return open([
      { code: FIAT.code, name: FIAT.name, type: "fiat", decimals: 2 },
      ...market.currencies().map((c) => ({ code: c.code, name: c.name, type: "crypto", decimals: 8 })),
    ]);
  });

  router.get(`${P}/users-transactions`, (ctx) => {
    guard(ctx);
    const list = [...state.transactions.values()].filter((tx) => state.partnerUser(tx.accountId)).reverse();
    return open(page(ctx, list));
  });

  router.get(`${P}/users/:user/transactions`, (ctx) => {
    const user = userFrom(ctx, "user");
    return open(page(ctx, state.iterateTransactionsOf(user)));
  });

  router.get(`${P}/users/:user/transactions/:transactionId`, (ctx) => {
    const user = userFrom(ctx, "user");
    const raw = ctx.params.transactionId ?? "";
    const tx = /^\d{1,15}$/.test(raw) ? state.transactions.get(Number(raw)) : undefined;
    if (!tx || tx.accountId !== user.id) throw modelNotFound("Transaction", raw);
    return open(transactionRow(tx));
  });

  // Optional `pair` narrows the list; buy minimums are EUR, sell minimums are in the crypto.
  router.get(`${P}/limits/minimum`, (ctx) => {
    guard(ctx);
    const checks = new Checks(ctx.input);
    const only = pairOf(deps, checks.string("pair", { required: false, max: 16 }), checks);
    checks.done();
    return open(
      cryptoCodes(deps)
        .filter((c) => only === undefined || c === only)
        .map((c) => ({ pair: `${c}${FIAT.code}`, buy: minimumFor("buy", c), sell: minimumFor("sell", c) })),
    );
  });
}
