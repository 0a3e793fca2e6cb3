/**
 * `npm start`: config → services → bot → long polling (@grammyjs/runner) or webhook; clean
 * shutdown on SIGTERM/SIGINT (stop taking updates, finish the ones in flight, close the store
 * and the HTTP pools).
 */
import { run } from "@grammyjs/runner";
import { GrammyError } from "grammy";
import { createBot, drainUpdates } from "./bot/bot.ts";
import { registerCommands } from "./bot/commands.ts";
import { systemClock } from "./clock.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { connectTelegram, TokenRefusedError } from "./connect-telegram.ts";
import { startBackgroundJobs } from "./jobs.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createServices } from "./services.ts";
import { StoreError } from "./store/errors.ts";
import { sqliteFileOf } from "./store/store.ts";
import { type HttpRoute, startHttpServer } from "./webhook.ts";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, { purpose: "start" });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const storeLock = await lockStore(config.storeUrl);
  const services = await createServices(config, { clock: systemClock, log });
  await warnAboutRedis(config.storeUrl, log);
  const bot = createBot(services.deps, {
    token: config.botToken ?? "",
    apiRoot: config.telegramApiRoot,
    // A shared store means several instances may get one chat's updates at once.
    chatLock: /^rediss?:/.test(config.storeUrl),
  });
  try {
    await connectTelegram(bot, { log, apiRoot: config.telegramApiRoot });
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
    process.stderr.write(`${error.message}\n`);
    await services.close();
    process.exit(2);
  }
  log.info({ bot: bot.botInfo.username, mode: config.botMode }, "starting");
  await registerCommands(bot.api, services.deps);
  const jobs = startBackgroundJobs({ deps: services.deps, api: bot.api, intervalMs: config.alertIntervalMs });

  // The Mini App login page is served by the bot's own HTTP server, in either mode. Its code (and
  // the initData checker) is loaded only when WEBAPP_URL is set.
  const routes: HttpRoute[] = [];
  if (config.webAppUrl) {
    const { webAppRoutes } = await import("./webapp/routes.ts");
    routes.push(webAppRoutes({ deps: services.deps, botToken: config.botToken ?? "", api: bot.api }));
  }
  let stopUpdates: () => Promise<void>;
  if (config.botMode === "webhook" && config.webhook) {
    const url = new URL(config.webhook.url);
    const server = await startHttpServer({
      port: config.port,
      webhook: { bot, path: url.pathname, secret: config.webhook.secret },
      routes,
      onError: (error) => log.error({ err: error }, "webhook request failed"),
    });
    await bot.api.setWebhook(config.webhook.url, { secret_token: config.webhook.secret });
    log.info({ port: config.port }, "webhook server listening");
    stopUpdates = () => server.close();
  } else {
    await bot.api.deleteWebhook();
    const pages = routes.length > 0 ? await startHttpServer({ port: config.port, routes }) : undefined;
    if (pages) log.info({ port: config.port }, "web app server listening");
    const runner = run(bot, { runner: { silent: true } });
    stopUpdates = async () => {
      if (runner.isRunning()) await runner.stop();
      await pages?.close();
      await drainUpdates(bot);
    };
    runner.task()?.catch(async (error: unknown) => {
      // Two pollers on one token: Telegram answers 409. Refuse to run rather than fight.
      if (error instanceof GrammyError && error.error_code === 409) {
        log.fatal("another instance is polling with this BOT_TOKEN; use BOT_MODE=webhook to run several");
      } else {
        log.fatal({ err: error }, "polling stopped");
      }
      await shutdown(1);
    });
  }

  let stopping = false;
  async function shutdown(code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    log.info("shutting down");
    await stopUpdates();
    await jobs.stop();
    await services.close();
    storeLock?.release();
    process.exit(code);
  }
  process.once("SIGTERM", () => void shutdown(0));
  process.once("SIGINT", () => void shutdown(0));
}

/**
 * One bot process per SQLite file (store/sqlite-lock.ts): a second one stops here with one
 * sentence. Nothing to lock with Redis, where several instances are the point.
 */
async function lockStore(storeUrl: string): Promise<{ release(): void } | undefined> {
  const file = sqliteFileOf(storeUrl);
  if (file === undefined) return undefined;
  const { lockSqliteFile } = await import("./store/sqlite-lock.ts");
  try {
    return lockSqliteFile(file);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** A Redis that may evict keys or forget them gets one warning line each (store/redis-settings.ts). */
async function warnAboutRedis(storeUrl: string, log: Logger): Promise<void> {
  if (!/^rediss?:/.test(storeUrl)) return;
  const { redisSettingsWarnings } = await import("./store/redis-settings.ts");
  const warnings = await redisSettingsWarnings(storeUrl).catch((error: unknown) => {
    log.warn({ err: error }, "Redis's settings could not be checked");
    return [];
  });
  for (const warning of warnings) log.warn(warning);
}

await main();
