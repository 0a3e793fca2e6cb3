/**
 * The demo without its terminal: the sandbox exchange, the Bot API double and the real bot (the
 * same wiring as production) in this process, one typed line at a time, and what the bot says as
 * printable lines. main.ts puts a terminal around it; test/demo/ drives it with the README's walks.
 *
 * @example
 * const demo = await startDemo({ partner: false, files, say: console.log, out: console.log });
 * for (const line of demo.banner) console.log(line);
 * await demo.handle("/start"); // resolves once the bot is done answering
 * await demo.close();
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "@grammyjs/runner";
import { createBot, drainUpdates } from "../bot/bot.ts";
import { registerCommands } from "../bot/commands.ts";
import { chartPhotos } from "../bot/flows/price-chart.ts";
import { DEFAULT_MARKET_TTL_MS } from "../market/feed.ts";
import { type BackgroundJobs, securityNoticeSender, startBackgroundJobs } from "../process/jobs.ts";
import { createServices, type Services } from "../process/services.ts";
import { type HttpRoute, startHttpServer } from "../process/webhook.ts";
import { startSandbox } from "../sandbox/server.ts";
import { Vault } from "../store/vault.ts";
import { OffsetClock } from "../support/clock.ts";
import { createLogger, type Logger } from "../support/logger.ts";
import { webAppLoginPageUrl } from "../support/webapp-paths.ts";
import { DEFAULT_GROUP_ID, type RecordedCall, startBotApiDouble } from "../telegram-double/index.ts";
import { signInitData, webAppLink } from "../webapp/init-data.ts";
import { webAppRoutes } from "../webapp/routes.ts";
import { type DemoCommandContext, handleDemoCommand } from "./commands.ts";
import type { DemoFiles } from "./files.ts";
import { demoPartnerConfig, PARTNER_STEPS } from "./partner.ts";
import { describeBotCall, type Printed } from "./transcript.ts";

export const DEMO_USER_ID = 4242;

export interface DemoOptions {
  partner: boolean;
  files: DemoFiles;
  firstName?: string;
  languageCode?: string;
  webAppPort?: number;
  log?: Logger;
  /** What the bot says, as lines ready to print (it may speak at any time: a notice). */
  say(text: string): void;
  /** A line of the demo's own, in answer to a `:` command. */
  out(text: string): void;
}

export interface Demo {
  /** The box printed at start: the login or the partner walk, and where files go. */
  banner: string[];
  /** One line as typed: to the bot, or a demo command; resolves when the bot is done answering. */
  handle(line: string): Promise<void>;
  /** Stops everything and removes the temporary store. */
  close(): Promise<void>;
}

type Buttons = NonNullable<Printed["buttons"]>;

export async function startDemo(options: DemoOptions): Promise<Demo> {
  const clock = new OffsetClock();
  const log = options.log ?? createLogger("silent", process.stderr);
  const sandbox = await startSandbox({ clock });
  const telegram = await startBotApiDouble({ clock });
  const folder = mkdtempSync(join(tmpdir(), "exchange-bot-demo-"));
  // The bot's HTTP server on loopback serves the Mini App login page and the charts inline answers
  // point at (WEBAPP_URL in production).
  let webAppRoute: HttpRoute | undefined;
  let chartRoute: HttpRoute | undefined;
  const pages = await startHttpServer({
    port: options.webAppPort ?? 0,
    host: "127.0.0.1",
    routes: [
      (req, res, path) => webAppRoute?.(req, res, path) ?? false,
      (req, res, path) => chartRoute?.(req, res, path) ?? false,
    ],
  });
  const services = await demoServices({
    sandbox,
    telegram,
    folder,
    webAppUrl: pages.url,
    options,
    clock,
    log,
  });
  const bot = createBot(services.deps, { token: telegram.token, apiRoot: telegram.apiRoot });
  await bot.init();
  webAppRoute = webAppRoutes({ deps: services.deps, botToken: telegram.token, api: bot.api });
  chartRoute = chartPhotos(services.deps);
  await registerCommands(bot.api, { ...services.deps, log });
  const runner = run(bot, { runner: { silent: true } });
  const jobs = startBackgroundJobs({ deps: services.deps, api: bot.api, intervalMs: 5_000 });
  services.securityNotices.connect(securityNoticeSender(services.deps, jobs.notifier));

  const firstName = options.firstName ?? "Demo";
  const languageCode = options.languageCode ?? "en";
  const me = telegram.user(DEMO_USER_ID, { firstName, languageCode });
  // Signed with the double's bot token, as Telegram signs initData with the real one.
  const webAppLogin = () =>
    webAppLink(
      webAppLoginPageUrl(pages.url),
      signInitData({ id: me.id, firstName, languageCode }, telegram.token, clock.now()),
    );
  const banner = bannerOf(options, sandbox, webAppLogin);

  // Private chat: each message's buttons by message id, for #N (the newest) and #M.N.
  const buttons = new Map<number, Buttons>();
  const unsubscribe = telegram.on("call", transcriptPrinter({ telegram, me, options, buttons }));

  const context = commandContext({
    sandbox,
    telegram,
    me,
    clock,
    jobs,
    services,
    options,
    buttons,
    webAppLogin,
  });

  return {
    banner,
    async handle(line) {
      if (line.startsWith(":") || line.startsWith("#")) await handleDemoCommand(line, context);
      else if (line) await me.send(line);
      await settle(telegram, jobs, runner);
    },
    async close() {
      unsubscribe();
      await runner.stop();
      await drainUpdates(bot);
      await jobs.stop();
      await services.close();
      await pages.close();
      await telegram.close();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Telegram = Awaited<ReturnType<typeof startBotApiDouble>>;

/** The production services over the sandbox, the double and a store in a temporary folder. */
function demoServices(parts: {
  sandbox: Sandbox;
  telegram: Telegram;
  folder: string;
  webAppUrl: string;
  options: DemoOptions;
  clock: OffsetClock;
  log: Logger;
}): Promise<Services> {
  const { sandbox, telegram, folder, options } = parts;
  return createServices(
    {
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl: `sqlite://${join(folder, "demo.sqlite")}`,
      secretsKey: Vault.generateKey(),
      defaultLocale: "en",
      telegramApiRoot: telegram.apiRoot,
      webAppUrl: parts.webAppUrl,
      // The operator's market-data account: prices and inline cards work before anyone logs in.
      marketData: { ...sandbox.demo },
      // EXCHANGE_MODE=partner with the sandbox's partner token; the demo user is the operator.
      ...(options.partner ? { partner: demoPartnerConfig(sandbox, DEMO_USER_ID) } : {}),
    },
    { clock: parts.clock, log: parts.log },
  );
}

/** What the demo's `:` and `#` commands reach: the sandbox, the double, the clock, the jobs' tick. */
function commandContext(parts: {
  sandbox: Sandbox;
  telegram: Telegram;
  me: DemoCommandContext["me"];
  clock: OffsetClock;
  jobs: BackgroundJobs;
  services: Services;
  options: DemoOptions;
  buttons: Map<number, Buttons>;
  webAppLogin: () => string;
}): DemoCommandContext {
  const { sandbox, telegram, me, clock, jobs, services, options, buttons, webAppLogin } = parts;
  return {
    sandbox,
    telegram,
    me,
    clock,
    // Notices go out through the delivery queue: wait for them, so the transcript reads in order.
    tick: () => jobs.tick().then(() => jobs.notifier.queue.idle()),
    marketTtlMs: DEFAULT_MARKET_TTL_MS,
    buttons: (messageId) => {
      const id = messageId ?? Math.max(-1, ...buttons.keys());
      const held = buttons.get(id);
      return held === undefined ? undefined : { messageId: id, buttons: held };
    },
    dueTimes: async () => {
      const plans = await services.deps.plans.all();
      return plans.flatMap((plan) => services.deps.plans.dueAt(plan) ?? []);
    },
    savePicture: async (url, name) => {
      const response = await fetch(url).catch(() => undefined);
      if (!response?.ok) return undefined;
      return options.files.save(name, new Uint8Array(await response.arrayBuffer()));
    },
    webAppLink: webAppLogin,
    print: options.out,
    partnerUserId: async () => services.deps.partner?.users.partnerIdOf(me.id),
  };
}

/** The box printed at start: the login or the partner walk, and where files go. */
function bannerOf(options: DemoOptions, sandbox: Sandbox, webAppLogin: () => string): string[] {
  return [
    "┌─ Exchange bot demo ─────────────────────────────────────────────",
    `│ Sandbox exchange: ${sandbox.url}`,
    `│ Pictures and files the bot sends are written to ${options.files.shown()}/`,
    ...(options.partner
      ? PARTNER_STEPS
      : [
          `│ Log in with  e-mail: ${sandbox.demo.email}   password: ${sandbox.demo.password}`,
          "│ Or log in in your browser, as the Mini App does in Telegram (:webapp for a fresh link):",
          `│   ${webAppLogin()}`,
          "│ Type :code for a fresh 2FA code, #N to tap button N, :help for more.",
          "│ Start with /start, or /login.",
        ]),
    "└──────────────────────────────────────────────────────────────────",
  ];
}

/**
 * What the bot says in the demo user's chat and the group, printed as it happens; each message's
 * buttons kept for #N, its picture or file written out.
 */
function transcriptPrinter(parts: {
  telegram: Telegram;
  me: { id: number };
  options: DemoOptions;
  buttons: Map<number, Buttons>;
}): (call: RecordedCall) => void {
  const { telegram, me, options, buttons } = parts;
  // Where each message's picture or file was written, printed again with its edits.
  const saved = new Map<string, string>();
  return (call) => {
    const inGroup = call.chatId === DEFAULT_GROUP_ID;
    if (!inGroup && call.chatId !== me.id) return;
    if (!call.ok) return;
    if (!inGroup && call.method === "deleteMessage") buttons.delete(Number(call.payload.message_id));
    const result = call.result as { message_id?: number } | undefined;
    const message = telegram.messages(call.chatId ?? me.id).find((m) => m.messageId === result?.message_id);
    const key = `${call.chatId}:${message?.messageId}`;
    const bytes = message?.file?.bytes;
    if (message && bytes && ["sendPhoto", "sendDocument", "editMessageMedia"].includes(call.method)) {
      saved.set(key, options.files.save(message.file?.filename ?? "file", bytes));
    }
    const printed = describeBotCall(call, message, saved.get(key));
    if (!printed) return;
    let who = inGroup ? "group bot>" : "bot>";
    if (!inGroup && message) {
      if (printed.buttons) {
        buttons.set(message.messageId, printed.buttons);
        who = `bot #${message.messageId}>`;
      } else buttons.delete(message.messageId);
    }
    const pad = " ".repeat(who.length + 1);
    options.say(printed.lines.map((line, i) => (i === 0 ? `${who} ${line}` : `${pad}${line}`)).join("\n"));
  };
}

/**
 * Until the bot is done with what it was sent: every update handled (a conversation may wait on
 * the exchange between two messages), the notices queued by it sent, and Telegram quiet a moment.
 */
async function settle(telegram: Telegram, jobs: BackgroundJobs, runner: { size(): number }): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    await telegram.waitUntilIdle({ quietMs: 150, timeoutMs: 15_000 }).catch(() => undefined);
    await jobs.notifier.queue.idle();
    if (runner.size() === 0) {
      await telegram.waitUntilIdle({ quietMs: 50, timeoutMs: 5_000 }).catch(() => undefined);
      if (runner.size() === 0) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
