/** The keys of a private chat read together per update (store/update-reads.ts), by prefix. */
export const CHAT_READ_PREFIXES = [
  SESSION_PREFIX,
  CONVERSATION_PREFIX,
  PAUSED_PREFIX,
  OPEN_FLAG_PREFIX,
  AUTH_PREFIX,
  // The chosen locale: read once the lease is held (bot.ts defers i18n's negotiation to then).
  PROFILE_PREFIX,
] as const;

/**
 * Everything below the bot, built from a Config, each part once: store, vault, exchange client,
 * sessions, profiles, the market feed, the money pipeline (with the one Ledger), the alert book
 * and the locales. main.ts, the demo and the test harness all build the app through here, so they run
 * the same wiring.
 *
 * @example
 * const services = await createServices(config, { clock: systemClock, log, vault });
 * // … createBot(services.deps, …)
 * await services.close();
 */

import { AlertBook, PAUSED_PREFIX } from "../alerts/book.ts";
import { CONVERSATION_PREFIX, conversationKey, SESSION_PREFIX } from "../bot/bot.ts";
import type { FlowContext } from "../bot/context.ts";
import type { BotDeps } from "../bot/deps.ts";
import { createI18n } from "../bot/i18n.ts";
import type { Config } from "../config/config.ts";
import { AccountApi } from "../exchange/account.ts";
import { HttpClient } from "../exchange/http.ts";
import { PartnerApi } from "../exchange/partner.ts";
import { createMarketFeed } from "../market/create.ts";
import { PriceHistory } from "../market/history.ts";
import { OPEN_FLAG_PREFIX } from "../orders/ledger.ts";
import { OrderPipeline } from "../orders/pipeline.ts";
import { PartnerServiceAccount } from "../partner/auth.ts";
import { KycWatch } from "../partner/kyc-watch.ts";
import { Pins } from "../partner/pins.ts";
import type { PartnerServices } from "../partner/services.ts";
import { PartnerUsers } from "../partner/users.ts";
import { DEFAULT_PLAN_SETTINGS, PlanBook } from "../plans/book.ts";
import { Freezes, freezeGuard } from "../safety/freezes.ts";
import { SafetyNet } from "../safety/safety-net.ts";
import { LateSecurityNotices } from "../safety/security-events.ts";
import { PhishingPhrases } from "../session/phishing-phrase.ts";
import { PROFILE_PREFIX, Profiles } from "../session/profiles.ts";
import { AUTH_PREFIX, type LoginOutcome, Sessions } from "../session/sessions.ts";
import { cachedStore } from "../store/cached.ts";
import { observedStore } from "../store/observed.ts";
import { openStore } from "../store/open-store.ts";
import type { Store } from "../store/store.ts";
import { updateReads } from "../store/update-reads.ts";
import { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import type { Metrics } from "./metrics.ts";

export interface Services {
  deps: BotDeps;
  http: HttpClient;
  /** `deps.securityNotices`, to be connected to the delivery queue once the bot's API exists. */
  securityNotices: LateSecurityNotices;
  close(): Promise<void>;
}

export type ServicesConfig = Pick<
  Config,
  "exchange" | "storeUrl" | "secretsKey" | "defaultLocale" | "telegramApiRoot"
> &
  Partial<
    Pick<
      Config,
      | "marketData"
      | "marketTtlMs"
      | "webAppUrl"
      | "partner"
      | "recurring"
      | "cooling"
      | "allowlistDefault"
      | "unfreezeDelayMs"
    >
  >;

export interface ServicesOptions {
  clock: Clock;
  log: Logger;
  storeNamespace?: string;
  /** SQLite's busy timeout (tests shorten what they would otherwise wait out). */
  storeBusyTimeoutMs?: number;
  /** How the exchange client waits between retries of a GET (default: real time). */
  retrySleep?: (ms: number) => Promise<void>;
  /** Wraps the opened store before anything uses it (the benchmark counts store calls this way). */
  wrapStore?: (store: Store) => Store;
  /** METRICS_PORT: store round trips, exchange calls and logins are counted here. */
  metrics?: Metrics;
}

export async function createServices(config: ServicesConfig, options: ServicesOptions): Promise<Services> {
  if (config.secretsKey === undefined) throw new Error("SECRETS_KEY is missing.");
  const vault = openVault(config.secretsKey, options.log);
  const { store, reads } = await openServiceStore(config, options);
  const { http, account } = exchangeClients(config, options);
  // Connected to the delivery queue once the bot's API exists (main.ts, jobs.ts).
  const securityNotices = new LateSecurityNotices((userId, event) =>
    options.log.warn({ userId, event: event.type }, "security notice raised before delivery was connected"),
  );
  const sessions = loginSessions({ store, vault, account, securityNotices }, options);
  const profiles = new Profiles(store);
  const market = createMarketFeed({
    account,
    sessions,
    clock: options.clock,
    log: options.log,
    marketData: config.marketData,
    ttlMs: config.marketTtlMs,
  });
  const partner = config.partner
    ? partnerServices(config.partner, { http, store, vault, account, clock: options.clock })
    : undefined;
  // Frozen money actions (safety/freezes.ts): the record is in the store, so every instance refuses.
  const freezes = new Freezes(store, options.clock, { unfreezeDelayMs: config.unfreezeDelayMs });
  // The safety net's records; its guards ask the ledger about orders counted against a cap.
  const safety = new SafetyNet({
    store,
    vault,
    clock: options.clock,
    notices: securityNotices,
    ...(config.cooling ? { cooling: config.cooling } : {}),
    ...(config.allowlistDefault === undefined ? {} : { allowlistDefault: config.allowlistDefault }),
  });
  const orders: OrderPipeline = new OrderPipeline({
    store,
    clock: options.clock,
    sessions,
    profiles,
    log: options.log,
    // Partner mode: partner-buy/-sell/-withdraw ask the partner API for the linked partner user.
    ...(partner ? { partner } : {}),
    // Partner orders asked again after a lost answer wait as the client's GET retries do.
    ...(options.retrySleep ? { sleep: options.retrySleep } : {}),
    // A frozen user first: a freeze refuses before a cap would reserve anything.
    guards: [freezeGuard(freezes), ...safety.guards(async (id) => (await orders.ledger.get(id))?.state)],
  });
  const deps: BotDeps = {
    config: {
      defaultLocale: config.defaultLocale,
      telegramApiRoot: config.telegramApiRoot,
      webAppUrl: config.webAppUrl,
    },
    store,
    vault,
    account,
    sessions,
    profiles,
    // A changed (or removed) phrase is a security notice: it is what proves the bot is real.
    phishing: new PhishingPhrases(store, vault, {
      onChange: (userId) => securityNotices.tell(userId, { type: "phrase-changed" }),
    }),
    market,
    priceHistory: new PriceHistory(store),
    orders,
    alertBook: new AlertBook(store),
    plans: new PlanBook(store, options.clock, config.recurring ?? DEFAULT_PLAN_SETTINGS),
    securityNotices,
    safety,
    freezes,
    ...(partner ? { partner } : {}),
    i18n: createI18n<FlowContext>({ defaultLocale: config.defaultLocale, profiles }),
    clock: options.clock,
    log: options.log,
    chatReads: reads,
  };
  return {
    deps,
    http,
    securityNotices,
    async close() {
      await http.close();
      await store.close();
    },
  };
}

/** The Vault over SECRETS_KEY's keys. */
function openVault(secretsKey: string, log: Logger): Vault {
  const vault = Vault.fromBase64(secretsKey, {
    // Once, at the first such value: it counts as absent (the user logs in again), never an error.
    onUnopenable: ({ keyId }) =>
      log.warn(
        { sealedBy: keyId, keys: vault.keyIds },
        "the store holds sealed values that no SECRETS_KEY key opens (a key removed or mistyped, or a restored backup): they count as absent and their users are asked to log in again",
      ),
  });
  return vault;
}

/**
 * The store every service uses: opened, wrapped (the benchmark's counter, the metrics' timings),
 * then cached in memory (SQLite), with an update's chat reads batched (both stores).
 */
async function openServiceStore(
  config: ServicesConfig,
  options: ServicesOptions,
): Promise<{ store: Store; reads: ReturnType<typeof updateReads> }> {
  const opened = await openStore(config.storeUrl, {
    ...(options.storeNamespace ? { namespace: options.storeNamespace } : {}),
    ...(options.storeBusyTimeoutMs !== undefined ? { busyTimeoutMs: options.storeBusyTimeoutMs } : {}),
    onError: (error) => options.log.error({ err: error }, "store error"),
  });
  const { metrics } = options;
  const given = options.wrapStore ? options.wrapStore(opened) : opened;
  // Under the cache: what is counted are the round trips that reach SQLite or Redis.
  const wrapped = metrics
    ? observedStore(given, (op, seconds, failed) => metrics.storeCall(op, seconds, failed))
    : given;
  // With SQLite this process is the only writer of a chat's keys: the per-update reads of the
  // session, the conversation state, the alerts pause, the profile and the login record (its
  // token and e-mail sealed; with a TTL, so only what this process wrote is kept) are kept in
  // memory (store/cached.ts).
  // Never with Redis, where several instances write them.
  const cached = /^sqlite:/.test(config.storeUrl)
    ? cachedStore(wrapped, {
        prefixes: {
          [SESSION_PREFIX]: "untimed",
          [CONVERSATION_PREFIX]: "timed",
          [PAUSED_PREFIX]: "untimed",
          [AUTH_PREFIX]: "timed",
          [PROFILE_PREFIX]: "untimed",
          [OPEN_FLAG_PREFIX]: "timed",
        },
      })
    : undefined;
  // An update's reads of its chat's keys go out together (store/update-reads.ts): on Redis one
  // MGET (with the chat's lease), on SQLite one statement for the keys the cache does not hold
  // (read key by key, a chat no longer cached cost a statement per key).
  const reads = updateReads(cached ?? wrapped, { prefixes: CHAT_READ_PREFIXES });
  return { store: reads.store, reads };
}

/** The exchange's HTTP client (its calls counted with METRICS_PORT) and the account API over it. */
function exchangeClients(
  config: ServicesConfig,
  options: ServicesOptions,
): { http: HttpClient; account: AccountApi } {
  const { metrics } = options;
  const http = new HttpClient({
    baseUrl: config.exchange.url,
    ...(options.retrySleep ? { sleep: options.retrySleep } : {}),
    ...(metrics
      ? {
          onCall: (operation: string, outcome: string, seconds: number) =>
            metrics.exchangeCall(operation, outcome, seconds),
        }
      : {}),
  });
  const account = new AccountApi(http, {
    clientId: config.exchange.clientId,
    clientSecret: config.exchange.clientSecret,
  });
  return { http, account };
}

/** Users' exchange sessions: every login a security notice, counted with METRICS_PORT. */
function loginSessions(
  parts: { store: Store; vault: Vault; account: AccountApi; securityNotices: LateSecurityNotices },
  options: ServicesOptions,
): Sessions {
  const { metrics } = options;
  const { securityNotices } = parts;
  return new Sessions({
    store: parts.store,
    vault: parts.vault,
    account: parts.account,
    clock: options.clock,
    // In a private chat the chat id is the user id.
    alsoWipe: (userId) => [conversationKey(userId)],
    // Every login through this bot, chat or Mini App, is a security notice (with Freeze).
    onLoggedIn: (userId, via, at) =>
      securityNotices.tell(userId, { type: "login", via, at }).catch((error: unknown) => {
        options.log.error({ err: error, userId }, "login notice not queued");
      }),
    ...(metrics
      ? { onLogin: (outcome: LoginOutcome) => metrics.loginAttempt(loginOutcomeLabel(outcome)) }
      : {}),
  });
}

/**
 * A login's outcome as the metric counts it: `locked` is the failure that used up the limit (a
 * lockout), `refused` an attempt the limit stopped before it reached the exchange.
 */
function loginOutcomeLabel(outcome: LoginOutcome): string {
  if (outcome.ok) return "ok";
  if (outcome.reason === "rate-limited") return outcome.lockedNow ? "locked" : "refused";
  return outcome.reason;
}

/** EXCHANGE_MODE=partner: the partner API under the configured token or service account. */
function partnerServices(
  config: NonNullable<Config["partner"]>,
  parts: { http: HttpClient; store: Store; vault: Vault; account: AccountApi; clock: Clock },
): PartnerServices {
  const { auth } = config;
  const token =
    auth.kind === "token" ? auth.token : new PartnerServiceAccount({ ...parts, credentials: auth });
  const api = new PartnerApi(parts.http, token);
  const users = new PartnerUsers(parts.store, parts.vault);
  return {
    api,
    users,
    kyc: new KycWatch(parts.store, users, api),
    pins: new Pins(parts.store, parts.clock),
    operators: new Set(config.operatorIds),
    supportContact: config.supportContact,
    termsUrl: config.termsUrl,
  };
}
