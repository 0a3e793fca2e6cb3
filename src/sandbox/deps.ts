/**
 * What every route handler may use, and the two guards in front of protected routes: a bearer
 * token that resolves to an account (account API) or equals the partner token (partner API), each
 * followed by the per-token rate limit.
 */
import { HttpError, unauthenticated } from "./http-kit.ts";
import type { Market } from "./market.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { RequestContext } from "./router.ts";
import { PARTNER_SERVICE } from "./seed.ts";
import type { Account, SandboxState } from "./state.ts";

export interface SandboxConfig {
  clientId: number;
  clientSecret: string;
  partnerToken: string;
}

export interface Deps {
  state: SandboxState;
  market: Market;
  limiter: RateLimiter;
  config: SandboxConfig;
}

export function bearer(ctx: RequestContext): string | undefined {
  const header = ctx.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function throttle(deps: Deps, ctx: RequestContext, key: string): void {
  const decision = deps.limiter.hit(key);
  if (decision.limit === 0) return;
  if (!decision.ok) {
    throw new HttpError(
      429,
      { message: "Too Many Attempts." },
      {
        "retry-after": String(decision.retryAfterSeconds),
        "x-ratelimit-limit": String(decision.limit),
        "x-ratelimit-remaining": "0",
      },
    );
  }
  ctx.replyHeaders["x-ratelimit-limit"] = String(decision.limit);
  ctx.replyHeaders["x-ratelimit-remaining"] = String(decision.remaining);
}

/** The logged-in account, or 401; then the rate limit of its token. */
export function authenticate(deps: Deps, ctx: RequestContext): { account: Account; token: string } {
  const token = bearer(ctx);
  const account = token === undefined ? undefined : deps.state.accountForToken(token);
  if (token === undefined || account === undefined) throw unauthenticated();
  throttle(deps, ctx, `token:${token}`);
  return { account, token };
}

/** The partner API's fixed bearer token, or a live token of the partner's service account; else 401. */
export function authenticatePartner(deps: Deps, ctx: RequestContext): void {
  const token = bearer(ctx);
  const ok =
    token !== undefined &&
    (token === deps.config.partnerToken ||
      deps.state.accountForToken(token)?.email === PARTNER_SERVICE.email);
  if (token === undefined || !ok) throw unauthenticated();
  throttle(deps, ctx, `partner:${token}`);
}
