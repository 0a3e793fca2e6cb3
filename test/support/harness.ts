/**
 * The whole bot, for tests: the sandbox exchange and the Bot API double on loopback, a real
 * SQLite file (or Redis), and the real bot from createBot started with @grammyjs/runner, exactly
 * as main.ts wires it. One ManualClock drives the bot and the sandbox, so token expiry and order
 * settlement are tested by moving time, not by sleeping.
 *
 * @example
 * const h = await startHarness();
 * const ada = await h.loggedInUser();
 * await ada.send("/balance");
 * expect((await ada.waitForReply()).text).toContain("Euro");
 * await h.stop();
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunnerHandle, run } from "@grammyjs/runner";
import Big from "big.js";
import type { Bot } from "grammy";
import type { Message, Update } from "grammy/types";
import { pino } from "pino";
import { createBot, drainUpdates } from "../../src/bot/bot.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { chartPhotos } from "../../src/bot/flows/price-chart.ts";
import { clientLocale } from "../../src/bot/i18n.ts";
import type { AnswerDeadlineOptions } from "../../src/bot/middleware/answer-deadline.ts";
import type { ChatLockOptions } from "../../src/bot/middleware/chat-lock.ts";
import type { FloodLimitOptions } from "../../src/bot/middleware/flood-limit.ts";
import type { PartnerConfig, RecurringConfig } from "../../src/config/config.ts";
import { createDelivery, type Delivery } from "../../src/notify/delivery.ts";
import { securityNoticeSender, startBackgroundJobs } from "../../src/process/jobs.ts";
import type { Metrics } from "../../src/process/metrics.ts";
import { createServices, type Services } from "../../src/process/services.ts";
import { type HttpRoute, startHttpServer } from "../../src/process/webhook.ts";
import type { SecurityEvent } from "../../src/safety/security-events.ts";
import { PARTNER_SERVICE } from "../../src/sandbox/seed.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import type { KycStatus } from "../../src/sandbox/state.ts";
import { Vault } from "../../src/store/vault.ts";
import { type AdjustableClock, ManualClock } from "../../src/support/clock.ts";
import { createLogger, type Logger, silentLogger } from "../../src/support/logger.ts";
import { commandEntities } from "../../src/telegram-double/formatting.ts";
import {
  type BotApiDouble,
  type FakeUser,
  type FakeUserOptions,
  type SentMessage,
  startBotApiDouble,
} from "../../src/telegram-double/index.ts";
import { WEBAPP_LOGIN_PATH, webAppRoutes } from "../../src/webapp/routes.ts";

export interface HarnessOptions {
  /** Default: a fresh SQLite file in a temp folder. */
  storeUrl?: string;
  /** Keys in the store are prefixed with this (several harnesses on one Redis). */
  storeNamespace?: string;
  /** SQLite's busy timeout (default 5 s, as in production). */
  storeBusyTimeoutMs?: number;
  sandbox?: SandboxOptions;
  /** Share a sandbox / double with another harness (two instances of the bot). */
  shared?: { sandbox: Sandbox; telegram: BotApiDouble; clock: AdjustableClock };
  secretsKey?: string;
  /** The bot's logger (default: silent, or TEST_LOG's file). */
  log?: Logger;
  floodLimit?: FloodLimitOptions;
  /** Configure the operator's market-data account (MARKET_DATA_*) as the sandbox's demo account. */
  marketData?: boolean;
  /** One update per chat across instances (default: on for redis://, as in main.ts). */
  chatLock?: boolean | ChatLockOptions;
  /** The market feed's cache TTL. */
  marketTtlMs?: number;
  /** When "typing…" shows and by when the final sentence is out (small values in tests). */
  answerDeadline?: AnswerDeadlineOptions;
  /** Default: a ManualClock at HARNESS_EPOCH shared by bot, sandbox and double (benchmarks pass real time). */
  clock?: AdjustableClock;
  /** WEBAPP_URL on loopback: the bot's HTTP server serves the Mini App login page and chart pictures. */
  webApp?: boolean;
  /** EXCHANGE_MODE: `partner` serves partner users through the sandbox's partner API. */
  mode?: "account" | "partner";
  /** Partner mode's settings (defaults: the sandbox's partner token, no operators). */
  partner?: PartnerHarnessOptions;
  /** METRICS_PORT's Metrics: the bot's layers report to it as main.ts wires them. */
  metrics?: Metrics;
  /** RECURRING_*: the recurring plans' settings (default: config.ts's defaults). */
  recurring?: RecurringConfig;
  /** SAFETY_ALLOWLIST_DEFAULT: whether users without a choice of their own have the allowlist on (default on). */
  allowlistDefault?: boolean;
}

export interface PartnerHarnessOptions {
  /** `token`: PARTNER_TOKEN (default); `service-account`: PARTNER_EMAIL/_PASSWORD/_TOTP_SECRET. */
  auth?: "token" | "service-account";
  /** OPERATOR_IDS. */
  operatorIds?: number[];
  /** SUPPORT_CONTACT (default "@sandbox_support"). */
  supportContact?: string;
  /** TERMS_URL (default `TEST_TERMS_URL`). */
  termsUrl?: string;
}

/** The terms page every partner harness links to unless told otherwise. */
export const TEST_TERMS_URL = "https://partner.test/terms";

/** The PIN every `partnerUser()` has set. */
export const PARTNER_PIN = "482913";

/** A Telegram user signed up as a partner user; `partnerUserId` is their id at the exchange. */
export type PartnerFakeUser = FakeUser & { partnerUserId: number; pin: string };

export interface PartnerUserOptions extends FakeUserOptions {
  /** The KYC status at the exchange (default `passed`). */
  kycStatus?: KycStatus;
  /** EUR credited at the exchange (default "1000"; "0" for none). */
  eur?: string;
  /** A verified bank account at the exchange (default true). */
  bankAccount?: boolean;
}

export interface Harness {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  clock: AdjustableClock;
  deps: BotDeps;
  bot: Bot<BotContext>;
  storeUrl: string;
  /** SECRETS_KEY as the bot runs now (restartBot can change it). */
  readonly secretsKey: string;
  /** Partner mode's config (undefined in account mode); `secondInstance` reuses it. */
  partnerConfig: PartnerConfig | undefined;
  /** With `webApp`: the login page's URL (`${WEBAPP_URL}/webapp/login`). */
  webAppLoginUrl: string | undefined;
  user(id?: number, options?: FakeUserOptions): FakeUser;
  /** A user who went through /login with the sandbox's demo account. */
  loggedInUser(id?: number, options?: FakeUserOptions): Promise<FakeUser>;
  /**
   * A Telegram user linked to a fresh partner user at the sandbox (partner mode only): created
   * through the partner API, linked, PIN `PARTNER_PIN` set, KYC `passed`, 1000 EUR and a verified
   * bank account (all adjustable). The sign-up conversation itself is tested on its own.
   */
  partnerUser(id?: number, options?: PartnerUserOptions): Promise<PartnerFakeUser>;
  /** Resolves when no exchange request of the bot is under way, retries included. */
  exchangeIdle(): Promise<void>;
  /** Resolves when the security notices' delivery queue has sent what it holds. */
  noticesIdle(): Promise<void>;
  /**
   * Stops the bot (in-flight updates finish) and builds a new one on the same store; with
   * `secretsKey`, the new one runs with that SECRETS_KEY (a key change or rotation).
   */
  restartBot(options?: { secretsKey?: string }): Promise<void>;
  /** Stops the bot only; `startBot` builds a new one on the same store. */
  stopBot(): Promise<void>;
  /** Tells `watcher` of every security event raised, as it is raised (the notice still goes out). */
  watchSecurityNotices(watcher: (userId: number, event: SecurityEvent) => void): void;
  startBot(): Promise<void>;
  stop(): Promise<void>;
}

/** A fixed start, so dates in assertions are stable. */
export const HARNESS_EPOCH = Date.parse("2026-11-22T10:00:00.000Z");

let nextUserId = 1000;
let partnerEmailCounter = 1;

/**
 * The exchange client's wait between retries of a GET, on the harness's ManualClock: none. Time
 * stands still there unless a test moves it; the backoff itself is tested in test/exchange/.
 */
const noRetryWait = async (): Promise<void> => {};

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = options.shared?.clock ?? options.clock ?? new ManualClock(HARNESS_EPOCH);
  const sandbox =
    options.shared?.sandbox ?? (await startSandbox({ clock, rateLimitPerMinute: 0, ...options.sandbox }));
  const telegram = options.shared?.telegram ?? (await startBotApiDouble({ clock }));
  const folder = mkdtempSync(join(tmpdir(), "bot-test-"));
  const storeUrl = options.storeUrl ?? `sqlite://${join(folder, "bot.sqlite")}`;
  let secretsKey = options.secretsKey ?? Vault.generateKey();

  let services: Services;
  let bot: Bot<BotContext>;
  let runner: RunnerHandle | undefined;
  // Security notices go out through a delivery queue of their own, as main.ts connects them.
  let delivery: Delivery | undefined;
  // One HTTP server for the harness's life; its routes follow the bot across restarts.
  let webAppRoute: HttpRoute | undefined;
  const pages = options.webApp
    ? await startHttpServer({
        port: 0,
        host: "127.0.0.1",
        routes: [(req, res, path) => webAppRoute?.(req, res, path) ?? false],
      })
    : undefined;
  const webAppLoginUrl = pages ? `${pages.url}${WEBAPP_LOGIN_PATH}` : undefined;

  const partner = options.mode === "partner" ? partnerConfigFor(sandbox, options.partner) : undefined;
  const noticeWatchers: ((userId: number, event: SecurityEvent) => void)[] = [];

  async function startBot(): Promise<void> {
    services = await createServices(
      {
        exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
        storeUrl,
        secretsKey,
        defaultLocale: "en",
        telegramApiRoot: telegram.apiRoot,
        ...(partner ? { partner } : {}),
        ...(pages ? { webAppUrl: pages.url } : {}),
        ...(options.marketData ? { marketData: { ...sandbox.demo } } : {}),
        ...(options.marketTtlMs !== undefined ? { marketTtlMs: options.marketTtlMs } : {}),
        ...(options.recurring ? { recurring: options.recurring } : {}),
        ...(options.allowlistDefault === undefined ? {} : { allowlistDefault: options.allowlistDefault }),
      },
      {
        clock,
        log: options.log ?? testLogger(),
        ...(options.storeNamespace ? { storeNamespace: options.storeNamespace } : {}),
        ...(options.storeBusyTimeoutMs !== undefined
          ? { storeBusyTimeoutMs: options.storeBusyTimeoutMs }
          : {}),
        // Benchmarks pass real time: their retries wait as in production.
        ...(options.clock ? {} : { retrySleep: noRetryWait }),
        ...(options.metrics ? { metrics: options.metrics } : {}),
      },
    );
    bot = createBot(services.deps, {
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
      // Tests type faster than people; the flood limit has its own test.
      floodLimit: options.floodLimit ?? { max: 10_000 },
      // As main.ts: a shared store means several instances.
      chatLock: options.chatLock ?? /^rediss?:/.test(storeUrl),
      ...(options.answerDeadline ? { answerDeadline: options.answerDeadline } : {}),
      ...(options.metrics ? { observer: options.metrics } : {}),
    });
    if (pages) {
      const login = webAppRoutes({ deps: services.deps, botToken: telegram.token, api: bot.api });
      const charts = chartPhotos(services.deps);
      webAppRoute = (req, res, path) => login(req, res, path) || charts(req, res, path);
    }
    delivery = createDelivery({ deps: services.deps, api: bot.api });
    const send = securityNoticeSender(services.deps, delivery.notifier);
    services.securityNotices.connect(async (userId, event) => {
      for (const watcher of noticeWatchers) watcher(userId, event);
      await send(userId, event);
    });
    runner = run(bot, { runner: { fetch: { timeout: 1 }, silent: true } });
  }

  async function stopBot(): Promise<void> {
    if (runner?.isRunning()) await runner.stop();
    runner = undefined;
    await drainUpdates(bot);
    await delivery?.stop();
    await services.close();
  }

  await startBot();

  const harness: Harness = {
    sandbox,
    telegram,
    clock,
    get deps() {
      return services.deps;
    },
    exchangeIdle: () => services.http.idle(),
    noticesIdle: async () => {
      await delivery?.queue.idle();
    },
    get bot() {
      return bot;
    },
    storeUrl,
    get secretsKey() {
      return secretsKey;
    },
    partnerConfig: partner,
    webAppLoginUrl,
    user: (id = nextUserId++, userOptions) => telegram.user(id, userOptions),
    async loggedInUser(id = nextUserId++, userOptions) {
      const user = telegram.user(id, userOptions);
      await logIn(user, sandbox);
      // "Logged in" is sent before the login's last update is written (conversation state, session):
      // a test that breaks the store next must find that write done, as a person typing would.
      await drainUpdates(bot);
      return user;
    },
    async partnerUser(id = nextUserId++, userOptions = {}) {
      const services = harness.deps.partner;
      if (!services) throw new Error('partnerUser() needs startHarness({ mode: "partner" }).');
      const user = telegram.user(id, userOptions);
      const email = `tg${id}-${partnerEmailCounter++}@partner.test`;
      const { id: partnerUserId } = await services.api.createUser({
        email,
        name: user.from.first_name,
        surname: "Tester",
        phone: "+491511234567",
      });
      const account = sandbox.state.partnerUser(partnerUserId);
      if (!account) throw new Error(`The sandbox has no partner user ${partnerUserId}.`);
      sandbox.faults.setPartnerUserStatus(partnerUserId, {
        kyc_status: userOptions.kycStatus ?? "passed",
        edd_status: "not_required",
      });
      const eur = userOptions.eur ?? "1000";
      if (eur !== "0") sandbox.state.credit(account, "eur", new Big(eur));
      if (userOptions.bankAccount !== false) {
        sandbox.state.addBankAccount(account, {
          name: "Sandbox Partnerbank",
          iban: "DE89370400440532013000",
          swift_bic: "COBADEFFXXX",
          verificationAmount: new Big("1.00"),
          verified: true,
        });
      }
      await services.pins.set(id, PARTNER_PIN);
      await services.users.link(id, partnerUserId, {
        consent: { version: "test", url: TEST_TERMS_URL, at: clock.now() },
        email,
      });
      // As the sign-up does: notices that follow (KYC, a PIN reset) are in the app's language.
      await harness.deps.profiles.rememberAppLocale(id, clientLocale(userOptions.languageCode));
      return Object.assign(user, { partnerUserId, pin: PARTNER_PIN });
    },
    async restartBot(restart = {}) {
      await stopBot();
      if (restart.secretsKey !== undefined) secretsKey = restart.secretsKey;
      await startBot();
    },
    stopBot,
    watchSecurityNotices(watcher) {
      noticeWatchers.push(watcher);
    },
    startBot,
    async stop() {
      await stopBot();
      await pages?.close();
      if (!options.shared) {
        await telegram.close();
        await sandbox.close();
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Partner mode's config against the sandbox: its partner token, or its partner service account. */
export function partnerConfigFor(sandbox: Sandbox, options: PartnerHarnessOptions = {}): PartnerConfig {
  return {
    auth:
      options.auth === "service-account"
        ? { kind: "service-account", ...PARTNER_SERVICE }
        : { kind: "token", token: sandbox.partnerToken },
    operatorIds: options.operatorIds ?? [],
    supportContact: options.supportContact ?? "@sandbox_support",
    termsUrl: options.termsUrl ?? TEST_TERMS_URL,
  };
}

/** Silent, unless TEST_LOG names a file to write JSON lines to (debugging a failing test). */
export function testLogger() {
  const file = process.env.TEST_LOG;
  return file ? createLogger("debug", pino.destination({ dest: file, sync: true })) : silentLogger;
}

/**
 * Goes through /login up to the code question, as a person would; returns the password message
 * (to check that it was deleted).
 */
export async function logInUpToCode(...args: Parameters<typeof answerLoginUpToCode>): Promise<Message> {
  await args[0].send("/login");
  return answerLoginUpToCode(...args);
}

/** Answers login steps another command started (e.g. /unfreeze) up to the code question. */
export async function answerLoginUpToCode(
  user: FakeUser,
  sandbox: Sandbox,
  password = sandbox.demo.password,
  email = sandbox.demo.email,
): Promise<Message> {
  await user.waitForReply(/e-mail|E-Mail/);
  await user.send(email);
  await user.waitForReply(/password|Passwort/);
  const message = await user.send(password);
  await user.waitForReply(/6-digit|6-stellig/);
  return message;
}

/** A login's security notice (it follows every login, through the delivery queue). */
export const LOGIN_NOTICE = /New login to your exchange account|Neue Anmeldung bei deinem Börsenkonto/;

/**
 * Goes through the whole login conversation as a person would; returns the login's security
 * notice, waited for so that a test's next wait never meets it by surprise.
 */
export async function logIn(user: FakeUser, sandbox: Sandbox): Promise<SentMessage> {
  await logInUpToCode(user, sandbox);
  await user.send(sandbox.currentCode());
  // Either may come first (the notice goes through the delivery queue): both are waited for.
  const [notice] = await Promise.all([
    user.waitForReply(LOGIN_NOTICE),
    user.waitForReply(/Logged in|Angemeldet als/),
  ]);
  return notice;
}

/**
 * Moves the clock to four minutes before a fresh session's end and runs the background jobs once,
 * so the "stay logged in" offer goes out (and is delivered) now.
 */
export async function runJobsNearSessionEnd(h: Harness): Promise<void> {
  const jobs = startBackgroundJobs({ deps: h.deps, api: h.bot.api, intervalMs: 3_600_000, autoStart: false });
  try {
    h.clock.advance(56 * 60_000);
    await jobs.tick();
    await jobs.notifier.queue.idle();
  } finally {
    await jobs.stop();
  }
}

/**
 * A second bot instance on the same store, sandbox and Bot API double, as behind a load balancer.
 * Two runners polling one double would conflict (409), as with Telegram: this one is fed with
 * `bot.handleUpdate`, as a webhook instance would be.
 */
export async function secondInstance(
  h: Harness,
  options: { partner?: PartnerHarnessOptions } = {},
): Promise<{ bot: Bot<BotContext>; deps: BotDeps; close(): Promise<void> }> {
  const services = await createServices(
    {
      exchange: { url: h.sandbox.url, clientId: h.sandbox.clientId, clientSecret: h.sandbox.clientSecret },
      storeUrl: h.storeUrl,
      secretsKey: h.secretsKey,
      defaultLocale: "en",
      telegramApiRoot: h.telegram.apiRoot,
      ...(options.partner
        ? { partner: partnerConfigFor(h.sandbox, options.partner) }
        : h.partnerConfig
          ? { partner: h.partnerConfig }
          : {}),
    },
    { clock: h.clock, log: testLogger(), retrySleep: noRetryWait },
  );
  const bot = createBot(services.deps, {
    token: h.telegram.token,
    apiRoot: h.telegram.apiRoot,
    botInfo: h.telegram.botInfo,
    floodLimit: { max: 10_000 },
    chatLock: /^rediss?:/.test(h.storeUrl),
  });
  const delivery = createDelivery({ deps: services.deps, api: bot.api });
  services.securityNotices.connect(securityNoticeSender(services.deps, delivery.notifier));
  return {
    bot,
    deps: services.deps,
    async close() {
      await delivery.stop();
      await services.close();
    },
  };
}

/**
 * A text message as Telegram would deliver it, known to the double but pushed to nobody: for
 * `bot.handleUpdate` on a second instance. `command`: with its bot_command entity, as a client
 * sends a command typed (without it, grammY does not take the text for a command).
 */
export function messageUpdate(
  h: Harness,
  user: FakeUser,
  text: string,
  updateId: number,
  options: { command?: boolean } = {},
): Update {
  const state = user.state;
  const entities = options.command ? commandEntities(text) : [];
  const message = {
    message_id: state.nextMessageId++,
    date: Math.floor(h.clock.now() / 1000),
    chat: state.chat,
    from: user.from,
    text,
    ...(entities.length > 0 ? { entities } : {}),
  } as Message;
  h.telegram.world.store(state, message, false);
  return { update_id: updateId, message } as Update;
}
