/**
 * `/_sandbox/...`: the sandbox's own remote control, for the demo and for tests in another
 * process. Never authenticated, never faulted, never recorded: it is not part of the exchange.
 *
 * | route | body / query | does |
 * |---|---|---|
 * | GET /_sandbox/code | `?email=` (default: demo) | `{code, email, valid_for_seconds}` |
 * | GET /_sandbox/clock | | `{now, iso}` |
 * | POST /_sandbox/clock/advance | `{ms}` | moves the sandbox clock forward |
 * | POST /_sandbox/prices | `{currency, price, drift?}` | `setPrice` |
 * | GET /_sandbox/faults | | what is switched on |
 * | POST /_sandbox/faults | see `applyFaults` | switches faults on |
 * | POST /_sandbox/faults/release | `{answer?}` | lets held requests go |
 * | POST /_sandbox/faults/reset | | all faults off |
 * | POST /_sandbox/deposits | `{amount, currency_code?, reference_number? , address?, email?, account_id?}` | simulated incoming money |
 * | POST /_sandbox/bank-accounts/{id}/verify | | verifies a pending bank account |
 * | GET /_sandbox/demo | | the demo credentials and URLs |
 */
import type Big from "big.js";
import type { AdjustableClock } from "../support/clock.ts";
import { deposit } from "./deposits.ts";
import type { FaultMatch, Faults } from "./faults.ts";
import { Checks, HttpError, json, modelNotFound } from "./http-kit.ts";
import type { Market } from "./market.ts";
import type { Router } from "./router.ts";
import type { AssetAction, EddStatus, KycStatus, SandboxState } from "./state.ts";
import { totpCodeAt } from "./totp.ts";

export interface ControlDeps {
  state: SandboxState;
  market: Market;
  faults: Faults;
  clock: AdjustableClock;
  demo: { email: string; password: string; totpSecret: string };
  url: () => string;
  clientId: number;
  clientSecret: string;
}

function bad(message: string): HttpError {
  return new HttpError(422, { message, errors: { body: [message] } });
}

function record(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw bad(`${name} must be an object.`);
  return value as Record<string, unknown>;
}

function matchOf(spec: Record<string, unknown>): FaultMatch {
  const match: FaultMatch = {};
  if (typeof spec.method === "string") match.method = spec.method.toUpperCase();
  if (typeof spec.path === "string") match.path = spec.path;
  return match;
}

function count(spec: Record<string, unknown>): number {
  const n = spec.count ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) throw bad("count must be a positive integer.");
  return n;
}

const ACTIONS: readonly AssetAction[] = ["buy", "sell", "send", "receive"];

/**
 * `POST /_sandbox/faults` body, every key optional:
 * `{latency: {ms, method?, path?}, fail: {count?, status?, method?, path?},
 *   rateLimit: {count?, retryAfter?, method?, path?}, drop: {count?, method?, path?},
 *   dropAnswer: {count?, method?, path?}, alternateShapes: boolean,
 *   hold: {method?, path?, apply?, count?}, expireTokens: true, settleAs: "success"|"error",
 *   closeAsset: {type, currency}, openAsset: {type, currency},
 *   partnerUserStatus: {user_id, kyc_status?, edd_status?}}`
 */
export function applyFaults(faults: Faults, body: Record<string, unknown>): void {
  const latency = record(body.latency, "latency");
  if (latency) {
    if (typeof latency.ms !== "number" || latency.ms < 0)
      throw bad("latency.ms must be a number of milliseconds.");
    faults.addLatency(latency.ms, matchOf(latency));
  }
  const fail = record(body.fail, "fail");
  if (fail) {
    const status = fail.status ?? 500;
    if (typeof status !== "number" || status < 500 || status > 599)
      throw bad("fail.status must be a 5xx status.");
    faults.failNext(count(fail), status, matchOf(fail));
  }
  const rateLimit = record(body.rateLimit, "rateLimit");
  if (rateLimit) {
    const retryAfter = rateLimit.retryAfter ?? 1;
    if (typeof retryAfter !== "number" || retryAfter < 0) throw bad("rateLimit.retryAfter must be seconds.");
    faults.rateLimitNext(count(rateLimit), retryAfter, matchOf(rateLimit));
  }
  const drop = record(body.drop, "drop");
  if (drop) faults.dropNext(count(drop), matchOf(drop));
  const dropAnswer = record(body.dropAnswer, "dropAnswer");
  if (dropAnswer) faults.dropAnswerNext(count(dropAnswer), matchOf(dropAnswer));
  if (body.alternateShapes !== undefined) {
    if (typeof body.alternateShapes !== "boolean") throw bad("alternateShapes must be true or false.");
    faults.alternateShapes(body.alternateShapes);
  }
  const hold = record(body.hold, "hold");
  if (hold) {
    const options: FaultMatch & { apply?: boolean; count?: number } = {
      ...matchOf(hold),
      apply: hold.apply === true,
    };
    if (hold.count !== undefined) options.count = count(hold);
    faults.hold(options);
  }
  if (body.expireTokens === true) faults.expireAllTokens();
  if (body.settleAs !== undefined) {
    if (body.settleAs !== "success" && body.settleAs !== "error")
      throw bad('settleAs must be "success" or "error".');
    faults.settleOrdersAs(body.settleAs);
  }
  for (const [key, open] of [
    ["closeAsset", false],
    ["openAsset", true],
  ] as const) {
    const spec = record(body[key], key);
    if (!spec) continue;
    const action = ACTIONS.find((a) => a === spec.type);
    if (action === undefined || typeof spec.currency !== "string") {
      throw bad(`${key} needs type (buy, sell, send, receive) and currency.`);
    }
    if (open) faults.openAsset(action, spec.currency);
    else faults.closeAsset(action, spec.currency);
  }
  const status = record(body.partnerUserStatus, "partnerUserStatus");
  if (status) {
    const userId = Number(status.user_id ?? status.userId);
    const change: { kyc_status?: KycStatus; edd_status?: EddStatus } = {};
    if (typeof status.kyc_status === "string") change.kyc_status = status.kyc_status as KycStatus;
    if (typeof status.edd_status === "string") change.edd_status = status.edd_status as EddStatus;
    try {
      faults.setPartnerUserStatus(userId, change);
    } catch (error) {
      throw bad((error as Error).message);
    }
  }
}

export function controlRoutes(router: Router, deps: ControlDeps): void {
  const { state, market, faults, clock } = deps;
  const clockJson = () => ({ now: clock.now(), iso: new Date(clock.now()).toISOString() });

  router.get("/_sandbox/code", (ctx) => {
    const email = ctx.query.email ?? deps.demo.email;
    const account = state.accountByEmail(email);
    if (!account?.totpSecret) throw modelNotFound("User", email);
    const now = clock.now();
    return json({
      code: totpCodeAt(account.totpSecret, now),
      email: account.email,
      valid_for_seconds: 30 - (Math.floor(now / 1000) % 30),
    });
  });

  router.get("/_sandbox/clock", () => json(clockJson()));

  router.post("/_sandbox/clock/advance", (ctx) => {
    const ms = Number(ctx.input.ms);
    if (!Number.isFinite(ms) || ms < 0) throw bad("ms must be a non-negative number.");
    clock.advance(ms);
    state.catchUp();
    return json(clockJson());
  });

  router.post("/_sandbox/prices", (ctx) => {
    const checks = new Checks(ctx.input);
    const currency = checks.oneOf(
      "currency",
      market.currencies().map((c) => c.code),
    );
    const price = checks.amount("price", 8);
    checks.done();
    market.setPrice(currency as string, price as Big, clock.now(), { drift: ctx.input.drift === true });
    return json({ currency, price: (price as Big).toFixed() });
  });

  router.get("/_sandbox/faults", () => json(faults.snapshot()));

  router.post("/_sandbox/faults", (ctx) => {
    applyFaults(faults, ctx.input);
    return json(faults.snapshot());
  });

  router.post("/_sandbox/faults/release", (ctx) => {
    return json({ released: faults.release({ answer: ctx.input.answer !== false }) });
  });

  router.post("/_sandbox/faults/reset", () => {
    faults.reset();
    return json(faults.snapshot());
  });

  router.post("/_sandbox/deposits", (ctx) => {
    const checks = new Checks(ctx.input);
    const amount = checks.amount("amount", 8);
    checks.done();
    const input = ctx.input;
    const result = deposit(state, market, {
      amount: amount as Big,
      ...(typeof input.currency_code === "string" ? { currency: input.currency_code } : {}),
      ...(typeof input.reference_number === "string" ? { referenceNumber: input.reference_number } : {}),
      ...(typeof input.address === "string" ? { address: input.address } : {}),
      ...(typeof input.email === "string" ? { email: input.email } : {}),
      ...(input.account_id !== undefined ? { accountId: Number(input.account_id) } : {}),
    });
    return json({
      transaction_id: result.transaction.id,
      account_id: result.transaction.accountId,
      verified_bank_account_id: result.verifiedBankAccountId ?? null,
    });
  });

  router.post("/_sandbox/bank-accounts/:id/verify", (ctx) => {
    const bank = state.bankAccounts.get(Number(ctx.params.id));
    if (!bank) throw modelNotFound("BankAccount", ctx.params.id ?? "");
    state.verifyBankAccount(bank);
    return json({ id: bank.id, state: bank.state });
  });

  router.get("/_sandbox/demo", () =>
    json({
      url: deps.url(),
      client_id: deps.clientId,
      client_secret: deps.clientSecret,
      email: deps.demo.email,
      password: deps.demo.password,
      totp_secret: deps.demo.totpSecret,
      code_url: `${deps.url()}/_sandbox/code`,
    }),
  );
}
