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
import type { Bot } from "grammy";
import type { Message } from "grammy/types";
import { pino } from "pino";
import { createBot, drainUpdates } from "../../src/bot/bot.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import type { AnswerDeadlineOptions } from "../../src/bot/middleware/answer-deadline.ts";
import type { FloodLimitOptions } from "../../src/bot/middleware/flood-limit.ts";
import { type AdjustableClock, ManualClock } from "../../src/clock.ts";
import { PartnerApi } from "../../src/exchange/partner.ts";
import { startBackgroundJobs } from "../../src/jobs.ts";
import { createLogger, silentLogger } from "../../src/logger.ts";
import { Pins } from "../../src/partner/pins.ts";
import { PartnerUsers } from "../../src/partner/users.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import { createServices, type Services } from "../../src/services.ts";
import { Vault } from "../../src/store/vault.ts";
import {
  type BotApiDouble,
  type FakeUser,
  type FakeUserOptions,
  startBotApiDouble,
} from "../../src/telegram-double/index.ts";
import { WEBAPP_LOGIN_PATH, webAppRoutes } from "../../src/webapp/routes.ts";
import { type HttpRoute, startHttpServer } from "../../src/webhook.ts";

export interface HarnessOptions {
  /** Default: a fresh SQLite file in a temp folder. */
  storeUrl?: string;
  /** Keys in the store are prefixed with this (several harnesses on one Redis). */
  storeNamespace?: string;
  sandbox?: SandboxOptions;
  /** Share a sandbox / double with another harness (two instances of the bot). */
  shared?: { sandbox: Sandbox; telegram: BotApiDouble; clock: AdjustableClock };
  secretsKey?: string;
  floodLimit?: FloodLimitOptions;
  /** Configure the operator's market-data account (MARKET_DATA_*) as the sandbox's demo account. */
  marketData?: boolean;
  /** One update per chat across instances (default: on for redis://, as in main.ts). */
  chatLock?: boolean;
  /** The market feed's cache TTL. */
  marketTtlMs?: number;
  /** When "typing…" shows and by when the final sentence is out (small values in tests). */
  answerDeadline?: AnswerDeadlineOptions;
  /** Default: a ManualClock at HARNESS_EPOCH shared by bot, sandbox and double (benchmarks pass real time). */
  clock?: AdjustableClock;
  /** WEBAPP_URL on loopback: the bot's HTTP server serves the Mini App login page. */
  webApp?: boolean;
  /**
   * Partner mode, the smallest form: `deps.partner` over the sandbox's partner token, with these
   * operators. (The platform's own `mode: "partner"` option replaces this at merge.)
   */
  partner?: { operators?: number[] };
}

export interface Harness {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  clock: AdjustableClock;
  deps: BotDeps;
  bot: Bot<BotContext>;
  storeUrl: string;
  secretsKey: string;
  /** With `webApp`: the login page's URL (`${WEBAPP_URL}/webapp/login`). */
  webAppLoginUrl: string | undefined;
  user(id?: number, options?: FakeUserOptions): FakeUser;
  /** A user who went through /login with the sandbox's demo account. */
  loggedInUser(id?: number, options?: FakeUserOptions): Promise<FakeUser>;
  /**
   * With `partner`: a Telegram user linked to a new partner user created through the sandbox's
   * partner API, KYC passed.
   */
  partnerUser(id?: number, options?: FakeUserOptions): Promise<{ user: FakeUser; partnerUserId: number }>;
  /** Resolves when no exchange request of the bot is under way, retries included. */
  exchangeIdle(): Promise<void>;
  /** Stops the bot (in-flight updates finish) and builds a new one on the same store. */
  restartBot(): Promise<void>;
  /** Stops the bot only; `startBot` builds a new one on the same store. */
  stopBot(): Promise<void>;
  startBot(): Promise<void>;
  stop(): Promise<void>;
}

/** A fixed start, so dates in assertions are stable. */
export const HARNESS_EPOCH = Date.parse("2026-11-22T10:00:00.000Z");

let nextUserId = 1000;

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
  const secretsKey = options.secretsKey ?? Vault.generateKey();

  let services: Services;
  let bot: Bot<BotContext>;
  let runner: RunnerHandle | undefined;
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

  async function startBot(): Promise<void> {
    services = await createServices(
      {
        exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
        storeUrl,
        secretsKey,
        defaultLocale: "en",
        telegramApiRoot: telegram.apiRoot,
        ...(pages ? { webAppUrl: pages.url } : {}),
        ...(options.marketData ? { marketData: { ...sandbox.demo } } : {}),
        ...(options.marketTtlMs !== undefined ? { marketTtlMs: options.marketTtlMs } : {}),
      },
      {
        clock,
        log: testLogger(),
        ...(options.storeNamespace ? { storeNamespace: options.storeNamespace } : {}),
        // Benchmarks pass real time: their retries wait as in production.
        ...(options.clock ? {} : { retrySleep: noRetryWait }),
      },
    );
    if (options.partner) {
      services.deps.partner = {
        api: new PartnerApi(services.http, sandbox.partnerToken),
        users: new PartnerUsers(services.deps.store),
        pins: new Pins(services.deps.store, clock),
        operators: new Set(options.partner.operators ?? []),
        supportContact: "support@partner.test",
      };
    }
    bot = createBot(services.deps, {
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      botInfo: telegram.botInfo,
      // Tests type faster than people; the flood limit has its own test.
      floodLimit: options.floodLimit ?? { max: 10_000 },
      // As main.ts: a shared store means several instances.
      chatLock: options.chatLock ?? /^rediss?:/.test(storeUrl),
      ...(options.answerDeadline ? { answerDeadline: options.answerDeadline } : {}),
    });
    if (pages) webAppRoute = webAppRoutes({ deps: services.deps, botToken: telegram.token, api: bot.api });
    runner = run(bot, { runner: { fetch: { timeout: 1 }, silent: true } });
  }

  async function stopBot(): Promise<void> {
    if (runner?.isRunning()) await runner.stop();
    runner = undefined;
    await drainUpdates(bot);
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
    get bot() {
      return bot;
    },
    storeUrl,
    secretsKey,
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
    async partnerUser(id = nextUserId++, userOptions) {
      const partner = services.deps.partner;
      if (partner === undefined) throw new Error("startHarness({ partner: {} }) first.");
      const { id: partnerUserId } = await partner.api.createUser({
        email: `customer-${id}@partner.test`,
        name: "Cleo",
        surname: `Customer${id}`,
      });
      sandbox.faults.setPartnerUserStatus(partnerUserId, {
        kyc_status: "passed",
        edd_status: "not_required",
      });
      await partner.users.link(id, partnerUserId, { version: "test", at: clock.now() });
      return { user: telegram.user(id, userOptions), partnerUserId };
    },
    async restartBot() {
      await stopBot();
      await startBot();
    },
    stopBot,
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

/** Silent, unless TEST_LOG names a file to write JSON lines to (debugging a failing test). */
function testLogger() {
  const file = process.env.TEST_LOG;
  return file ? createLogger("debug", pino.destination({ dest: file, sync: true })) : silentLogger;
}

/**
 * Goes through /login up to the code question, as a person would; returns the password message
 * (to check that it was deleted).
 */
export async function logInUpToCode(
  user: FakeUser,
  sandbox: Sandbox,
  password = sandbox.demo.password,
): Promise<Message> {
  await user.send("/login");
  await user.waitForReply(/e-mail|E-Mail/);
  await user.send(sandbox.demo.email);
  await user.waitForReply(/password|Passwort/);
  const message = await user.send(password);
  await user.waitForReply(/6-digit|6-stellig/);
  return message;
}

/** Goes through the whole login conversation as a person would. */
export async function logIn(user: FakeUser, sandbox: Sandbox): Promise<void> {
  await logInUpToCode(user, sandbox);
  await user.send(sandbox.currentCode());
  await user.waitForReply(/Logged in|Angemeldet als/);
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
): Promise<{ bot: Bot<BotContext>; deps: BotDeps; close(): Promise<void> }> {
  const services = await createServices(
    {
      exchange: { url: h.sandbox.url, clientId: h.sandbox.clientId, clientSecret: h.sandbox.clientSecret },
      storeUrl: h.storeUrl,
      secretsKey: h.secretsKey,
      defaultLocale: "en",
      telegramApiRoot: h.telegram.apiRoot,
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
  return { bot, deps: services.deps, close: () => services.close() };
}
