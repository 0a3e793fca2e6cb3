/**
 * `npm start`: config → services → bot → long polling (@grammyjs/runner) or webhook; clean
 * shutdown on SIGTERM/SIGINT within SHUTDOWN_TIMEOUT_SECONDS: stop taking updates (the webhook
 * answers new ones 503, so Telegram delivers them to another instance; polling stops fetching),
 * hand the jobs lease over at once, finish the updates in flight and answer their webhook requests
 * (their chat leases go with them), stop the delivery queue, close the store and the HTTP pools,
 * exit. Past the deadline: the chat leases still held are given back and the process exits anyway.
 */
import { setTimeout as delay } from "node:timers/promises";
import { run } from "@grammyjs/runner";
import { type Bot, GrammyError } from "grammy";
import { createBot, drainUpdates, releaseChatLeases, updatesInFlight } from "../bot/bot.ts";
import { registerCommands } from "../bot/commands.ts";
import type { BotContext } from "../bot/context.ts";
import { chartPhotos } from "../bot/flows/price-chart.ts";
import { type Config, ConfigError, loadConfig } from "../config/config.ts";
import { createDelivery } from "../notify/delivery.ts";
import { systemClock } from "../support/clock.ts";
import { createLogger, type Logger } from "../support/logger.ts";
import { connectTelegram, TokenRefusedError } from "./connect-telegram.ts";
import { Draining } from "./draining.ts";
import { type BackgroundJobs, securityNoticeSender, startBackgroundJobs } from "./jobs.ts";
import { serveMetrics } from "./metrics-server.ts";
import { instanceReadiness, readinessRoute } from "./readiness.ts";
import { createServices, type Services } from "./services.ts";
import { cannotListen, lockStore, warnAboutRedis } from "./start-checks.ts";
import { exitOnUncaught } from "./uncaught.ts";
import { type HttpRoute, startHttpServer } from "./webhook.ts";

/** The environment, checked: a bad variable's sentence on stderr and exit code 2. */
function readConfig(): Config {
  try {
    return loadConfig(process.env, { purpose: "start" });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config.logLevel);
  exitOnUncaught(log);
  // Set on SIGTERM/SIGINT: the HTTP server and the readiness check read it.
  const draining = new Draining();
  // prom-client is loaded only when metrics are asked for.
  const metrics = config.metrics ? new (await import("./metrics.ts")).Metrics() : undefined;
  const storeLock = await lockStore(config.storeUrl);
  const services = await createServices(config, { clock: systemClock, log, ...(metrics ? { metrics } : {}) });
  await warnAboutRedis(config.storeUrl, log);
  const bot = createBot(services.deps, {
    token: config.botToken ?? "",
    apiRoot: config.telegramApiRoot,
    // A shared store means several instances may get one chat's updates at once.
    chatLock: /^rediss?:/.test(config.storeUrl),
    ...(metrics ? { observer: metrics } : {}),
  });
  await connectOrExit(bot, config, log, services);
  log.info({ bot: bot.botInfo.username, mode: config.botMode }, "starting");
  await registerCommands(bot.api, services.deps);
  const delivery = createDelivery({ deps: services.deps, api: bot.api });
  // Security notices raised from now on go out through the queue (until now they could not).
  services.securityNotices.connect(securityNoticeSender(services.deps, delivery.notifier));
  const jobs = startBackgroundJobs({
    deps: services.deps,
    api: bot.api,
    intervalMs: config.alertIntervalMs,
    delivery,
  });
  metrics?.watchDelivery(delivery.queue);
  metrics?.watchJobsLease(() => jobs.lease.held);
  const metricsServer =
    metrics && config.metrics ? await serveMetrics(metrics, config.metrics, log) : undefined;
  const routes = await httpRoutes({ config, services, bot, draining, log });
  const updates: Updates =
    config.botMode === "webhook" && config.webhook
      ? await receiveWebhooks({ config, webhook: config.webhook, services, bot, draining, log, routes })
      : await pollUpdates({ config, services, bot, draining, log, routes });
  const shutdown = shutdownOf({
    config,
    log,
    bot,
    draining,
    jobs,
    updates,
    metricsServer,
    services,
    storeLock,
  });
  updates.polling?.catch(async (error: unknown) => {
    // Two pollers on one token: Telegram answers 409. Refuse to run rather than fight.
    if (error instanceof GrammyError && error.error_code === 409) {
      log.fatal("another instance is polling with this BOT_TOKEN; use BOT_MODE=webhook to run several");
    } else {
      log.fatal({ err: error }, "polling stopped");
    }
    await shutdown(1);
  });
  process.once("SIGTERM", () => void shutdown(0));
  process.once("SIGINT", () => void shutdown(0));
}

/** Telegram's first answer (getMe); a refused token is told on stderr, exit code 2. */
async function connectOrExit(bot: Bot<BotContext>, config: Config, log: Logger, services: Services) {
  try {
    await connectTelegram(bot, { log, apiRoot: config.telegramApiRoot });
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
    process.stderr.write(`${error.message}\n`);
    await services.close();
    process.exit(2);
  }
}

interface Serving {
  config: Config;
  services: Services;
  bot: Bot<BotContext>;
  draining: Draining;
  log: Logger;
}

/** How updates arrive, and how they stop: webhook requests or long polling. */
interface Updates {
  stop(): Promise<void>;
  /** Polling: settles when the runner stops by itself (an error). */
  polling?: Promise<void>;
}

/**
 * The routes of the bot's HTTP server besides the webhook: /readyz, and with WEBAPP_URL the Mini
 * App login page and the charts inline answers point at.
 */
async function httpRoutes({ config, services, bot, draining, log }: Serving): Promise<HttpRoute[]> {
  // The Mini App login page is served by the bot's own HTTP server, in either mode. Its code (and
  // the initData checker) is loaded only when WEBAPP_URL is set.
  const routes: HttpRoute[] = [];
  if (config.webAppUrl) {
    const { webAppRoutes } = await import("../webapp/routes.ts");
    routes.push(webAppRoutes({ deps: services.deps, botToken: config.botToken ?? "", api: bot.api }));
    // The charts inline answers point at (signed, expiring addresses under WEBAPP_URL).
    routes.push(chartPhotos(services.deps));
  }
  const readiness = instanceReadiness({
    store: services.deps.store,
    botToken: config.botToken ?? "",
    apiRoot: config.telegramApiRoot,
    shuttingDown: () => draining.active,
    log,
  });
  routes.push(readinessRoute(readiness));
  return routes;
}

async function receiveWebhooks(
  options: Serving & { webhook: { url: string; secret: string }; routes: HttpRoute[] },
): Promise<Updates> {
  const { config, webhook, services, bot, draining, log, routes } = options;
  const url = new URL(webhook.url);
  const server = await startHttpServer({
    port: config.port,
    webhook: { bot, path: url.pathname, secret: webhook.secret },
    routes,
    draining,
    onError: (error) => log.error({ err: error }, "webhook request failed"),
  }).catch((error: unknown) => cannotListen(error, config.port, services));
  await bot.api.setWebhook(webhook.url, { secret_token: webhook.secret });
  log.info({ port: server.port }, "webhook server listening");
  return {
    async stop() {
      // New webhook requests get 503 from now on (draining); the server keeps listening until the
      // updates in flight are done, then closes once their answers are out. An update that outran
      // grammY's webhook timeout (answered 200 at 10 s, still running) is waited for after.
      await drainUpdates(bot);
      await server.close();
      await drainUpdates(bot);
    },
  };
}

async function pollUpdates(options: Serving & { routes: HttpRoute[] }): Promise<Updates> {
  const { config, services, bot, draining, log, routes } = options;
  await bot.api.deleteWebhook();
  // Also in polling mode: /healthz and /readyz (and the Mini App page with WEBAPP_URL). Polling
  // needs no server: without the Mini App, a port that cannot be had costs only the health checks.
  const pages = await startHttpServer({ port: config.port, routes, draining }).catch(
    async (error: unknown) => {
      if (config.webAppUrl) return cannotListen(error, config.port, services);
      log.warn(
        { port: config.port, err: error },
        "the HTTP server could not listen on PORT, so /healthz and /readyz are off; polling goes on",
      );
      return undefined;
    },
  );
  if (pages) log.info({ port: pages.port }, "http server listening");
  const runner = run(bot, { runner: { silent: true } });
  const polling = runner.task();
  return {
    async stop() {
      if (runner.isRunning()) await runner.stop();
      await pages?.close();
      await drainUpdates(bot);
    },
    ...(polling ? { polling } : {}),
  };
}

/**
 * The shutdown, once: stop taking updates and hand the jobs over at once, finish the updates in
 * flight, stop the delivery queue, close the metrics server and the store, exit with `code`.
 */
function shutdownOf(parts: {
  config: Config;
  log: Logger;
  bot: Bot<BotContext>;
  draining: Draining;
  jobs: BackgroundJobs;
  updates: Updates;
  metricsServer: { close(): Promise<void> } | undefined;
  services: Services;
  storeLock: { release(): void } | undefined;
}): (code: number) => Promise<void> {
  const { config, log, bot, draining, jobs, updates, metricsServer, services, storeLock } = parts;
  let stopping = false;
  /** The operator's deadline passed: give the chats back to the other instances and go. */
  async function pastDeadline(): Promise<void> {
    log.error(
      { inFlight: updatesInFlight(bot), deadlineMs: config.shutdownTimeoutMs },
      "shutdown deadline passed; exiting with work unfinished",
    );
    await Promise.race([releaseChatLeases(bot).catch(() => {}), delay(1_000)]);
    process.exit(1);
  }
  // Each step runs even when one before it failed: what is left must still be let go.
  const step = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      log.error({ err: error }, `shutdown: ${what} failed`);
    }
  };
  return async (code) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    draining.start();
    log.info({ inFlight: updatesInFlight(bot), deadlineMs: config.shutdownTimeoutMs }, "shutting down");
    setTimeout(() => void pastDeadline(), config.shutdownTimeoutMs);
    const jobsHandedOver = step("handing over the jobs", () => jobs.stopTicks());
    await step("finishing the updates in flight", () => updates.stop());
    await jobsHandedOver;
    await step("stopping the delivery queue", () => jobs.stop());
    await step("closing the metrics server", async () => metricsServer?.close());
    await step("closing the store", () => services.close());
    storeLock?.release();
    log.info({ ms: Math.round(performance.now() - started) }, "shut down");
    process.exit(code);
  };
}

await main();
