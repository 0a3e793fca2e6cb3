/**
 * The whole bot over the sandbox and the Bot API double, like test/support/harness.ts, with the
 * market feed's settings exposed: a market-data account (the sandbox demo account's TOTP secret
 * stands in for the operator's), the TTL, and the clock (a ManualClock for tests; the benchmark
 * passes real time).
 *
 * @example
 * const s = await startMarketStack({ marketData: true });
 * const id = await s.user().inlineQuery("btc");
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunnerHandle, run } from "@grammyjs/runner";
import type { Bot } from "grammy";
import { createBot, drainUpdates } from "../../src/bot/bot.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { type AdjustableClock, ManualClock } from "../../src/clock.ts";
import { silentLogger } from "../../src/logger.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { createServices, type Services } from "../../src/services.ts";
import { Vault } from "../../src/store/vault.ts";
import {
  type BotApiDouble,
  type FakeUser,
  type FakeUserOptions,
  startBotApiDouble,
} from "../../src/telegram-double/index.ts";
import { logIn } from "../support/harness.ts";

export const STACK_EPOCH = Date.parse("2026-11-22T10:00:10.000Z");

export interface MarketStackOptions {
  /** Configure the operator's market-data account (MARKET_DATA_*), as the sandbox demo account. */
  marketData?: boolean;
  ttlMs?: number;
  /** Default: a ManualClock at STACK_EPOCH, shared by bot, sandbox and double. */
  clock?: AdjustableClock;
  /** The runner's fetch timeout in seconds (default 1: tests stop quickly). */
  pollTimeoutSeconds?: number;
}

export interface MarketStack {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  clock: AdjustableClock;
  deps: BotDeps;
  bot: Bot<BotContext>;
  user(id?: number, options?: FakeUserOptions): FakeUser;
  loggedInUser(id?: number, options?: FakeUserOptions): Promise<FakeUser>;
  stop(): Promise<void>;
}

let nextUserId = 50_000;

export async function startMarketStack(options: MarketStackOptions = {}): Promise<MarketStack> {
  const clock = options.clock ?? new ManualClock(STACK_EPOCH);
  const sandbox = await startSandbox({ clock, rateLimitPerMinute: 0 });
  const telegram = await startBotApiDouble({ clock });
  const folder = mkdtempSync(join(tmpdir(), "market-stack-"));
  const services: Services = await createServices(
    {
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl: `sqlite://${join(folder, "bot.sqlite")}`,
      secretsKey: Vault.generateKey(),
      defaultLocale: "en",
      telegramApiRoot: telegram.apiRoot,
      ...(options.marketData ? { marketData: { ...sandbox.demo } } : {}),
      ...(options.ttlMs !== undefined ? { marketTtlMs: options.ttlMs } : {}),
    },
    { clock, log: silentLogger },
  );
  const bot = createBot(services.deps, {
    token: telegram.token,
    apiRoot: telegram.apiRoot,
    botInfo: telegram.botInfo,
    floodLimit: { max: 1_000_000 },
  });
  const runner: RunnerHandle = run(bot, {
    runner: { fetch: { timeout: options.pollTimeoutSeconds ?? 1 }, silent: true },
  });
  return {
    sandbox,
    telegram,
    clock,
    deps: services.deps,
    bot,
    user: (id = nextUserId++, userOptions) => telegram.user(id, userOptions),
    async loggedInUser(id = nextUserId++, userOptions) {
      const user = telegram.user(id, userOptions);
      await logIn(user, sandbox);
      return user;
    },
    async stop() {
      if (runner.isRunning()) await runner.stop();
      await drainUpdates(bot);
      await services.close();
      await telegram.close();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
