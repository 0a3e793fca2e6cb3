/**
 * The exchange's account API under `/v1/...`. Handlers are synchronous: each request's
 * checks and writes happen without yielding, so concurrent requests cannot interleave.
 */
import Big from "big.js";
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from "ibantools";
import { LIMIT_TYPES, type LimitType } from "../exchange/schemas.ts";
import { looksLikeAddress } from "./addresses.ts";
import { authenticate, type Deps } from "./deps.ts";
import {
  Checks,
  dateTimeMs,
  HttpError,
  isoUtc,
  json,
  modelNotFound,
  notFound,
  num,
  refuse,
  validationError,
} from "./http-kit.ts";
import { FIAT } from "./market.ts";
import {
  minerFee,
  minimumFor,
  placeBuy,
  placeFiatWithdrawal,
  placeSell,
  placeSend,
  requireOpen,
  sendFee,
} from "./orders.ts";
import { amountText, bankAccountJson, transactionJson } from "./present.ts";
import type { RequestContext, Router } from "./router.ts";
import { LIMIT_IDS, tradeFee } from "./rules.ts";
import type { Account, AssetAction, TransactionRecord } from "./state.ts";
import { checkTotp } from "./totp.ts";

const ASSET_ACTIONS: readonly AssetAction[] = ["buy", "sell", "send", "receive"];
const ORDER_TYPES = ["buy", "sell", "send"] as const;

/** `length` items after skipping `start`, of those matching `currency`, newest first. */
export function pageOf(
  records: Iterable<TransactionRecord>,
  options: { start: number; length: number; currency: string | undefined },
): TransactionRecord[] {
  const out: TransactionRecord[] = [];
  let skipped = 0;
  for (const record of records) {
    if (options.currency !== undefined && record.currency_code !== options.currency) continue;
    if (skipped < options.start) {
      skipped += 1;
      continue;
    }
    out.push(record);
    if (out.length >= options.length) break;
  }
  return out;
}

export function cryptoCodes(deps: Deps): string[] {
  return deps.market.currencies().map((c) => c.code);
}

export function totalEur(deps: Deps, account: Account): Big {
  const now = deps.state.now();
  let total = deps.state.balance(account, "eur");
  for (const { code } of deps.market.currencies()) {
    total = total.plus(deps.state.balance(account, code).times(deps.market.price(code, now)));
  }
  return total.round(2, Big.roundDown);
}

export function cryptoBalanceItems(deps: Deps, account: Account, only?: string): Record<string, unknown>[] {
  const now = deps.state.now();
  return deps.market
    .currencies()
    .filter((c) => only === undefined || c.code === only)
    .map(({ code }) => {
      const balance = deps.state.balance(account, code);
      return {
        currency_code: code,
        balance: num(balance),
        fiat_conversion: num(balance.times(deps.market.price(code, now)).round(2, Big.roundDown)),
      };
    });
}

export function limitRecord(deps: Deps, account: Account, type: LimitType): Record<string, unknown> {
  const ceiling = deps.state.ceilings[type];
  const used = deps.state.used(account, type);
  return {
    status: "listed",
    limit: {
      id: LIMIT_IDS[type],
      created_at: isoUtc(deps.state.limitsCreatedAt),
      updated_at: isoUtc(deps.state.limitsCreatedAt),
      tier: "basic",
      code: type,
      daily: num(ceiling.daily),
      monthly: num(ceiling.monthly),
      state: "active",
    },
    spent: { day_used: num(used.day), month_used: num(used.month) },
  };
}

export function pairOf(deps: Deps, pair: string | undefined, checks: Checks): string | undefined {
  if (pair === undefined) return undefined;
  const code = pair.toLowerCase().endsWith(FIAT.code) ? pair.toLowerCase().slice(0, -FIAT.code.length) : "";
  if (!cryptoCodes(deps).includes(code)) {
    checks.add("pair", "The selected pair is invalid.");
    return undefined;
  }
  return code;
}

export function rateJson(deps: Deps, code: string): Record<string, unknown> {
  const now = deps.state.now();
  return {
    pair: `${code}${FIAT.code}`,
    price: num(deps.market.price(code, now)),
    date: dateTimeMs(now),
    timestamp: Math.floor(now / 1000),
  };
}

function requireCode(deps: Deps, account: Account, value: unknown): void {
  const secret = account.totpSecret;
  if (secret === undefined || !checkTotp(secret, value, deps.state.now())) {
    throw refuse("security_code", "The security code is invalid.");
  }
}

function pathId(ctx: RequestContext, name: string, model: string): number {
  const raw = ctx.params[name] ?? "";
  if (!/^\d{1,15}$/.test(raw)) throw modelNotFound(model, raw);
  return Number(raw);
}

/** Bank name, IBAN, BIC and the verification amount, checked the way a Laravel form request would. */
export function checkBankFields(
  checks: Checks,
  existing: { iban: string }[],
  options: { amountRequired: boolean },
): { name?: string; iban?: string; swift_bic?: string; amount?: Big } {
  const name = checks.string("name");
  const rawIban = checks.string("iban", { max: 64 });
  const rawBic = checks.string("swift_bic", { max: 16 });
  const amount = checks.amount("amount", 2, { required: options.amountRequired });
  let iban: string | undefined;
  if (rawIban !== undefined) {
    const electronic = electronicFormatIBAN(rawIban) ?? "";
    if (!isValidIBAN(electronic)) checks.add("iban", "The iban field must be a valid IBAN.");
    else if (existing.some((b) => b.iban === electronic))
      checks.add("iban", "The iban has already been taken.");
    else iban = electronic;
  }
  let swift_bic: string | undefined;
  if (rawBic !== undefined) {
    const upper = rawBic.replace(/\s+/g, "").toUpperCase();
    if (!isValidBIC(upper)) checks.add("swift_bic", "The swift bic field must be a valid BIC.");
    else swift_bic = upper;
  }
  const out: { name?: string; iban?: string; swift_bic?: string; amount?: Big } = {};
  if (name !== undefined) out.name = name;
  if (iban !== undefined) out.iban = iban;
  if (swift_bic !== undefined) out.swift_bic = swift_bic;
  if (amount !== undefined) out.amount = amount;
  return out;
}

export function accountRoutes(router: Router, deps: Deps): void {
  const { state, market, config } = deps;
  const auth = (ctx: RequestContext) => authenticate(deps, ctx).account;

  router.post("/v1/auth/login", (ctx) => {
    const checks = new Checks(ctx.input);
    const email = checks.string("email");
    const password = checks.string("password");
    const code = ctx.input.security_code;
    if (code === undefined || code === null || code === "") {
      checks.add("security_code", "The security code field is required.");
    }
    const clientId = checks.integer("client_id", { required: true });
    const clientSecret = checks.string("client_secret");
    checks.done();
    // Passport's answer to a wrong client, before anything about the user is revealed.
    if (clientId !== config.clientId || clientSecret !== config.clientSecret) {
      throw new HttpError(401, { error: "invalid_client", message: "Client authentication failed" });
    }
    const account = email === undefined ? undefined : state.accountByEmail(email);
    if (!account || account.password === undefined || account.password !== ctx.input.password || !password) {
      throw refuse("email", "These credentials do not match our records.");
    }
    if (account.totpSecret === undefined) {
      throw refuse("security_code", "Two-factor authentication must be enabled to use the API.");
    }
    requireCode(deps, account, code);
    const { token, expiresIn } = state.issueToken(account);
    return json({ access_token: token, token_type: "Bearer", expires_in: expiresIn });
  });

  // The spec documents 204 "with a body"; a 204 cannot carry one, so 200 with the body.
  router.post("/v1/auth/logout", (ctx) => {
    const { token } = authenticate(deps, ctx);
    state.tokens.delete(token);
    return json({ status: "destroyed" });
  });

  router.get("/v1/user/info", (ctx) => {
    const account = auth(ctx);
    const info = account.info;
    const business = account.accountType === "business";
    return json({
      name: info.name,
      surname: info.surname,
      birth_of_date: info.birth_of_date,
      address: info.address,
      building_number: info.building_number,
      city: info.city,
      postal_code: info.postal_code,
      country: info.country,
      street_address: `${info.address} ${info.building_number}`.trim(),
      email: account.email,
      account_type: account.accountType,
      company_name: business ? (info.company_name ?? "") : null,
      company_address: business ? (info.company_address ?? "") : null,
      vat_number: business ? (info.vat_number ?? "") : null,
      registration_number: business ? (info.registration_number ?? "") : null,
    });
  });

  router.get("/v1/balance", (ctx) => {
    const account = auth(ctx);
    return json({ balance: state.balance(account, "eur").toFixed(2) });
  });

  router.get("/v1/total-balance", (ctx) => {
    const account = auth(ctx);
    return json({ balance: totalEur(deps, account).toFixed(2) });
  });

  router.get("/v1/crypto-balances", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const only = checks.oneOf("currency_code", cryptoCodes(deps), { required: false });
    checks.done();
    return json({ data: cryptoBalanceItems(deps, account, only) });
  });

  router.get("/v1/exchange-rates", (ctx) => {
    auth(ctx);
    const checks = new Checks(ctx.input);
    const code = pairOf(deps, checks.string("pair", { max: 16 }), checks);
    checks.done();
    return json(rateJson(deps, code as string));
  });

  router.get("/v1/prices", (ctx) => {
    auth(ctx);
    const now = state.now();
    return json({
      data: market.currencies().map((c) => ({
        currency_name: c.name,
        currency_code: c.code,
        price: num(market.price(c.code, now)),
        "24hr_change": num(market.change24h(c.code, now)),
      })),
    });
  });

  for (const side of ["buy", "sell"] as const) {
    router.post(`/v1/${side}`, (ctx) => {
      const account = auth(ctx);
      const checks = new Checks(ctx.input);
      const amount = checks.amount("amount", side === "buy" ? 2 : 8);
      const currency = checks.oneOf("currency_code", cryptoCodes(deps));
      checks.done();
      const place = side === "buy" ? placeBuy : placeSell;
      place(deps, account, amount as Big, currency as string, "account");
      return json({ status: "created" });
    });
  }

  router.get("/v1/fees/miner-fee", (ctx) => {
    auth(ctx);
    const checks = new Checks(ctx.input);
    const currency = checks.oneOf("currency_code", cryptoCodes(deps));
    checks.done();
    return json({ fee: amountText(minerFee(currency as string), "btc") });
  });

  router.get("/v1/fees/:type", (ctx) => {
    auth(ctx);
    const type = ctx.params.type;
    const checks = new Checks(ctx.input);
    if (type === "buy" || type === "sell") {
      const amount = checks.amount("amount", 2);
      checks.oneOf("currency_code", cryptoCodes(deps), { required: false });
      checks.done();
      return json({ fee: tradeFee(amount as Big).toFixed(2) });
    }
    if (type === "send") {
      const currency = checks.oneOf("currency_code", cryptoCodes(deps));
      checks.done();
      return json({ fee: amountText(sendFee(currency as string), "btc") });
    }
    throw notFound();
  });

  // Without `type` the spec shows no answer: all five records, as an array.
  router.get("/v1/limits", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const type = checks.oneOf("type", LIMIT_TYPES, { required: false });
    checks.done();
    if (type !== undefined) return json(limitRecord(deps, account, type));
    return json(LIMIT_TYPES.map((t) => limitRecord(deps, account, t)));
  });

  // The spec calls currency_code optional for send; minimums are per coin, so it is required here too.
  router.get("/v1/limits/minimum/:type", (ctx) => {
    auth(ctx);
    const type = ORDER_TYPES.find((t) => t === ctx.params.type);
    if (type === undefined) throw notFound();
    const checks = new Checks(ctx.input);
    const currency = checks.oneOf("currency_code", cryptoCodes(deps));
    checks.done();
    return json({ minimum: minimumFor(type, currency as string) });
  });

  router.get("/v1/addresses", (ctx) => {
    const account = auth(ctx);
    return json({
      data: state.addressesOf(account).map((a) => ({
        currency_name: market.info(a.currency_code)?.name ?? a.currency_code,
        currency_code: a.currency_code,
        address: a.address,
      })),
    });
  });

  router.post("/v1/addresses", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const currency = checks.oneOf("currency_code", cryptoCodes(deps));
    checks.done();
    const code = currency as string;
    requireOpen(state, "receive", code);
    const record = state.addAddress(account, code);
    return json({
      currency_name: market.info(code)?.name ?? code,
      currency_code: code,
      address: record.address,
    });
  });

  // Paging defaults: start 0, length 25 (at most 100).
  router.get("/v1/transactions", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const start = checks.integer("start", { min: 0 }) ?? 0;
    const length = checks.integer("length", { min: 1, max: 100 }) ?? 25;
    const currency = checks.oneOf("currency_code", [...cryptoCodes(deps), FIAT.code], { required: false });
    checks.done();
    return json(
      pageOf(state.iterateTransactionsOf(account), { start, length, currency }).map((tx) =>
        transactionJson(tx),
      ),
    );
  });

  router.get("/v1/transactions/:id", (ctx) => {
    const account = auth(ctx);
    const id = pathId(ctx, "id", "Transaction");
    const tx = state.transactions.get(id);
    if (!tx || tx.accountId !== account.id) throw modelNotFound("Transaction", id);
    return json(transactionJson(tx));
  });

  router.post("/v1/send", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const amount = checks.amount("amount", 8);
    const address = checks.string("address", { max: 128 });
    const currency = checks.oneOf("currency_code", cryptoCodes(deps));
    if (ctx.input.security_code === undefined || ctx.input.security_code === "") {
      checks.add("security_code", "The security code field is required.");
    }
    if (address !== undefined && currency !== undefined && !looksLikeAddress(currency, address)) {
      checks.add("address", "The address format is invalid.");
    }
    checks.done();
    requireCode(deps, account, ctx.input.security_code);
    placeSend(deps, account, amount as Big, currency as string, address as string);
    return json({ status: "created" });
  });

  router.post("/v1/fiat-withdrawal", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const amount = checks.amount("amount", 2);
    const reference = checks.string("reference_number", { max: 64 });
    if (ctx.input.security_code === undefined || ctx.input.security_code === "") {
      checks.add("security_code", "The security code field is required.");
    }
    const bank = reference === undefined ? undefined : state.bankAccountByReference(reference);
    if (reference !== undefined && (!bank || bank.accountId !== account.id)) {
      checks.add("reference_number", "The selected reference number is invalid.");
    }
    checks.done();
    requireCode(deps, account, ctx.input.security_code);
    if (!bank) throw validationError({ reference_number: ["The selected reference number is invalid."] });
    placeFiatWithdrawal(deps, account, amount as Big, bank, "account");
    return json({ status: "created" });
  });

  router.get("/v1/bank-accounts", (ctx) => {
    const account = auth(ctx);
    return json(state.bankAccountsOf(account).map((b) => bankAccountJson(b, { timestamps: true })));
  });

  // The spec sends these as query parameters with no body; `input` merges both, as Laravel does.
  router.post("/v1/bank-accounts", (ctx) => {
    const account = auth(ctx);
    const checks = new Checks(ctx.input);
    const fields = checkBankFields(checks, state.bankAccountsOf(account), { amountRequired: true });
    checks.done();
    const record = state.addBankAccount(account, {
      name: fields.name as string,
      iban: fields.iban as string,
      swift_bic: fields.swift_bic as string,
      verificationAmount: fields.amount as Big,
    });
    return json({ status: "created", reference_number: record.reference_number });
  });

  router.delete("/v1/bank-accounts/:id", (ctx) => {
    const account = auth(ctx);
    const id = pathId(ctx, "id", "BankAccount");
    const bank = state.bankAccounts.get(id);
    if (!bank || bank.accountId !== account.id) throw modelNotFound("BankAccount", id);
    if (state.bankAccountsOf(account).length <= 1) {
      throw refuse("bank_account", "At least one bank account must remain.");
    }
    state.bankAccounts.delete(id);
    return json({ status: "destroyed" });
  });

  // The spec leaves open whether this needs a token: it answers with or without one (and ignores a bad one).
  router.get("/v1/assets-status/:type", (ctx) => {
    const action = ASSET_ACTIONS.find((a) => a === ctx.params.type);
    if (action === undefined) throw notFound();
    const checks = new Checks(ctx.input);
    const currency = checks.oneOf("currency_code", cryptoCodes(deps));
    checks.done();
    return json({ state: state.isAssetOpen(action, currency as string) });
  });
}
