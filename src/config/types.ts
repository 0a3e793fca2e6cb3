/**
 * What the configuration is, as the rest of the process reads it: below `config.ts` and its
 * sections, so each section can name the part it fills without importing the loader.
 */
import type { LevelWithSilent } from "pino";

export interface Config {
  botToken: string | undefined;
  telegramApiRoot: string;
  exchange: { url: string; clientId: number; clientSecret: string };
  storeUrl: string;
  /** Base64 key(s) for the Vault; comma-separated for rotation, the first one encrypts. */
  secretsKey: string | undefined;
  botMode: "polling" | "webhook";
  webhook: { url: string; secret: string } | undefined;
  /** The bot's HTTP server (webhook, /healthz, /readyz, the Mini App), in either mode; 0: any free port. */
  port: number;
  /** METRICS_PORT: /metrics on a server of its own (off when unset); 0: any free port. */
  metrics: { port: number; host: string } | undefined;
  /** Base URL of the bot's HTTP server as users reach it: turns on the Mini App login page. */
  webAppUrl: string | undefined;
  defaultLocale: string;
  logLevel: LevelWithSilent;
  /** The operator's own market-data account (SECURITY.md, rule 9), optional. */
  marketData: { email: string; password: string; totpSecret: string } | undefined;
  /** How often the alert scheduler ticks. */
  alertIntervalMs: number;
  /** How long the market feed serves one price snapshot before asking the exchange again. */
  marketTtlMs: number;
  /** SHUTDOWN_TIMEOUT_SECONDS: how long a SIGTERM may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Recurring buys (/recurring): limits and how the jobs run them. */
  recurring: RecurringConfig;
  /** UNFREEZE_DELAY_MINUTES: after a fresh login, how long until a user's unfreeze takes effect. */
  unfreezeDelayMs: number;
  /** EXCHANGE_MODE: `account` (users log in to their own accounts) or `partner` (white-label). */
  exchangeMode: "account" | "partner";
  /** Partner mode only. */
  partner: PartnerConfig | undefined;
  /** SAFETY_COOLING_OFF_HOURS / _MIN_HOURS: how long new destinations wait (src/safety/cooling.ts). */
  cooling: { defaultHours: number; minimumHours: number };
  /**
   * SAFETY_ALLOWLIST_DEFAULT: whether a user who never set the allowlist has it on (the default)
   * or off (an operator whose exchange already enforces its own whitelist).
   */
  allowlistDefault: boolean;
}

export interface PartnerConfig {
  /** PARTNER_TOKEN, or the service account the bot logs in with (PARTNER_EMAIL, …). */
  auth:
    | { kind: "token"; token: string }
    | { kind: "service-account"; email: string; password: string; totpSecret: string };
  /** OPERATOR_IDS: the Telegram user ids of the partner's staff. */
  operatorIds: number[];
  /** SUPPORT_CONTACT: an @handle, e-mail or URL. */
  supportContact: string;
  /** TERMS_URL: the https page of the terms users agree to at sign-up (linked, kept with the consent). */
  termsUrl: string;
}

export interface RecurringConfig {
  /** RECURRING_MAX_PLANS: plans a user may have at once (paused ones count). */
  maxPlans: number;
  /** RECURRING_CATCH_UP_HOURS: how late a run may still happen after downtime (and a reminder stand). */
  catchUpMs: number;
  /** RECURRING_SPREAD_MINUTES: the runs of one hour go out across this many minutes. */
  spreadMs: number;
  /** RECURRING_CONCURRENCY: runs under way at once. */
  concurrency: number;
}
