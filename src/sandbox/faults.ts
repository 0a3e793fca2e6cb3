/**
 * Switches that make the sandbox misbehave on purpose, so tests can prove the bot survives a slow,
 * failing, rate-limiting or vanishing exchange. Every switch is also reachable over HTTP
 * (`POST /_sandbox/faults`, see control-routes.ts).
 *
 * Counted faults ("the next N requests") are rules with a remaining count: a matching request
 * uses one up; the first matching rule wins. Control routes (`/_sandbox/...`) are never faulted.
 *
 * @example
 * sandbox.faults.failNext(2, 503, { method: "GET", path: "/v1/prices" });
 * sandbox.faults.dropNext(1, { method: "POST", path: "/v1/buy" });
 * sandbox.faults.hold({ method: "POST", path: "/v1/buy", apply: true }); // applied, never answered
 * sandbox.faults.dropAnswerNext(1, { method: "POST", path: "/api/v1/partners/users/*" }); // applied, connection cut
 */
import type { AssetAction, EddStatus, KycStatus, SandboxState } from "./state.ts";

export interface FaultMatch {
  /** Upper-case HTTP method; any when absent. */
  method?: string;
  /** Exact path, a prefix ending in `*`, or a RegExp; any when absent. */
  path?: string | RegExp;
}

export interface LatencyRule extends FaultMatch {
  ms: number;
}

interface CountedRule extends FaultMatch {
  remaining: number;
}

export interface HoldRule extends FaultMatch {
  /** true: the request is carried out, only the answer is withheld. */
  apply: boolean;
  /** How many requests to hold; unlimited when absent. */
  remaining?: number;
}

export interface HeldRequest {
  method: string;
  path: string;
  applied: boolean;
  /** Settles the held exchange: `answer` sends the reply (carrying it out first if it was not). */
  release(answer: boolean): void;
}

export type FaultAction =
  | { kind: "fail"; status: number }
  | { kind: "rate-limit"; retryAfterSeconds: number }
  | { kind: "drop" }
  | { kind: "drop-answer" }
  | { kind: "hold"; apply: boolean };

export function matches(match: FaultMatch, method: string, path: string): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== method) return false;
  const want = match.path;
  if (want === undefined) return true;
  if (want instanceof RegExp) return want.test(path);
  if (want.endsWith("*")) return path.startsWith(want.slice(0, -1));
  return path === want.replace(/\/+$/, "") || path === want;
}

export class Faults {
  readonly #state: SandboxState;
  latency: LatencyRule[] = [];
  #fail: (CountedRule & { status: number })[] = [];
  #rateLimit: (CountedRule & { retryAfterSeconds: number })[] = [];
  #drop: CountedRule[] = [];
  #dropAnswer: CountedRule[] = [];
  #hold: HoldRule[] = [];
  readonly held: HeldRequest[] = [];

  constructor(state: SandboxState) {
    this.#state = state;
  }

  /** Adds `ms` of real delay before matching requests are handled, until `reset()`. */
  addLatency(ms: number, match: FaultMatch = {}): void {
    this.latency.push({ ...match, ms });
  }

  /** The next `count` matching requests get `status` (a 5xx) with a Laravel-style body. */
  failNext(count: number, status = 500, match: FaultMatch = {}): void {
    this.#fail.push({ ...match, remaining: count, status });
  }

  /** The next `count` matching requests get 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds = 1, match: FaultMatch = {}): void {
    this.#rateLimit.push({ ...match, remaining: count, retryAfterSeconds });
  }

  /** The next `count` matching requests lose their connection without an answer. */
  dropNext(count: number, match: FaultMatch = {}): void {
    this.#drop.push({ ...match, remaining: count });
  }

  /**
   * The next `count` matching requests are carried out, then their connection is cut before the
   * answer goes out: "the exchange did it, the answer was lost" (a retry must not do it twice).
   */
  dropAnswerNext(count: number, match: FaultMatch = {}): void {
    this.#dropAnswer.push({ ...match, remaining: count });
  }

  /** The partner answers whose payload the spec leaves open come in another shape (or back). */
  alternateShapes(on: boolean): void {
    this.#state.alternateShapes = on;
  }

  /**
   * Matching POSTs are accepted and never answered until `release()`. With `apply: true` the
   * order is carried out first ("the exchange did it, the answer was lost"); without, nothing
   * happens ("the request never got past the door").
   */
  hold(options: FaultMatch & { apply?: boolean; count?: number } = {}): void {
    const rule: HoldRule = { apply: options.apply ?? false };
    if (options.method !== undefined) rule.method = options.method;
    if (options.path !== undefined) rule.path = options.path;
    if (options.count !== undefined) rule.remaining = options.count;
    this.#hold.push(rule);
  }

  /**
   * Lets held requests go and stops holding. `answer: true` (default) answers them now (a held
   * request that was not carried out is carried out first, as a late arrival would be);
   * `answer: false` closes their connections without a word. Returns how many were released.
   */
  release(options: { answer?: boolean } = {}): number {
    this.#hold = [];
    const list = this.held.splice(0);
    for (const held of list) held.release(options.answer ?? true);
    return list.length;
  }

  /** Every token issued so far stops working (401); new logins work. */
  expireAllTokens(): void {
    this.#state.expireAllTokens();
  }

  /** Orders placed from now on settle as `error` (funds given back) or `success`. */
  settleOrdersAs(outcome: "success" | "error"): void {
    this.#state.orderOutcome = outcome;
  }

  closeAsset(action: AssetAction, currency: string): void {
    this.#state.setAssetOpen(action, currency.toLowerCase(), false);
  }

  openAsset(action: AssetAction, currency: string): void {
    this.#state.setAssetOpen(action, currency.toLowerCase(), true);
  }

  /** Sets a partner user's KYC and/or EDD status at once (cancels a pending KYC import). */
  setPartnerUserStatus(userId: number, status: { kyc_status?: KycStatus; edd_status?: EddStatus }): void {
    const user = this.#state.partnerUser(userId);
    if (!user?.partner) throw new RangeError(`No partner user ${userId}.`);
    if (status.kyc_status !== undefined) {
      user.partner.kyc_status = status.kyc_status;
      delete user.partner.kycDecision;
    }
    if (status.edd_status !== undefined) user.partner.edd_status = status.edd_status;
  }

  /** Back to a well-behaved exchange; held requests are answered. */
  reset(): void {
    this.latency = [];
    this.#fail = [];
    this.#rateLimit = [];
    this.#drop = [];
    this.#dropAnswer = [];
    this.release();
    this.#state.alternateShapes = false;
    this.#state.orderOutcome = "success";
    this.#state.closedAssets.clear();
  }

  /** Real milliseconds to wait before handling this request. */
  latencyFor(method: string, path: string): number {
    let total = 0;
    for (const rule of this.latency) if (matches(rule, method, path)) total += rule.ms;
    return total;
  }

  /** Uses up and returns the fault for this request, if any (drop, drop-answer, hold, fail, 429). */
  take(method: string, path: string): FaultAction | undefined {
    const drop = takeCounted(this.#drop, method, path);
    if (drop) return { kind: "drop" };
    if (takeCounted(this.#dropAnswer, method, path)) return { kind: "drop-answer" };
    if (method === "POST") {
      const hold = this.#hold.find((rule) => matches(rule, method, path));
      if (hold) {
        if (hold.remaining !== undefined) {
          hold.remaining -= 1;
          if (hold.remaining <= 0) this.#hold.splice(this.#hold.indexOf(hold), 1);
        }
        return { kind: "hold", apply: hold.apply };
      }
    }
    const fail = takeCounted(this.#fail, method, path);
    if (fail) return { kind: "fail", status: fail.status };
    const limited = takeCounted(this.#rateLimit, method, path);
    if (limited) return { kind: "rate-limit", retryAfterSeconds: limited.retryAfterSeconds };
    return undefined;
  }

  /** What is switched on, for `GET /_sandbox/faults` and for debugging a test. */
  snapshot(): Record<string, unknown> {
    const show = (m: FaultMatch) => ({
      method: m.method,
      path: m.path instanceof RegExp ? String(m.path) : m.path,
    });
    return {
      latency: this.latency.map((r) => ({ ...show(r), ms: r.ms })),
      fail: this.#fail.map((r) => ({ ...show(r), remaining: r.remaining, status: r.status })),
      rateLimit: this.#rateLimit.map((r) => ({
        ...show(r),
        remaining: r.remaining,
        retryAfterSeconds: r.retryAfterSeconds,
      })),
      drop: this.#drop.map((r) => ({ ...show(r), remaining: r.remaining })),
      dropAnswer: this.#dropAnswer.map((r) => ({ ...show(r), remaining: r.remaining })),
      alternateShapes: this.#state.alternateShapes,
      hold: this.#hold.map((r) => ({ ...show(r), apply: r.apply, remaining: r.remaining })),
      held: this.held.map((h) => ({ method: h.method, path: h.path, applied: h.applied })),
      settleOrdersAs: this.#state.orderOutcome,
      closedAssets: [...this.#state.closedAssets],
    };
  }
}

function takeCounted<T extends CountedRule>(rules: T[], method: string, path: string): T | undefined {
  const index = rules.findIndex((rule) => rule.remaining > 0 && matches(rule, method, path));
  if (index < 0) return undefined;
  const rule = rules[index] as T;
  rule.remaining -= 1;
  if (rule.remaining <= 0) rules.splice(index, 1);
  return rule;
}
