/**
 * `npm run demo`: the whole bot in the terminal. The sandbox exchange and a Bot API double run in
 * this process; the real bot (createBot, the same wiring as production) talks to both over
 * loopback HTTP. You type as the Telegram user; the bot's messages are printed with numbered
 * buttons. No Telegram token, no exchange account.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { run } from "@grammyjs/runner";
import { createBot, drainUpdates } from "../bot/bot.ts";
import { registerCommands } from "../bot/commands.ts";
import { OffsetClock } from "../clock.ts";
import { securityNoticeSender, startBackgroundJobs } from "../jobs.ts";
import { createLogger } from "../logger.ts";
import { DEFAULT_MARKET_TTL_MS } from "../market/feed.ts";
import { startSandbox } from "../sandbox/server.ts";
import { createServices } from "../services.ts";
import { Vault } from "../store/vault.ts";
import { DEFAULT_GROUP_ID, startBotApiDouble } from "../telegram-double/index.ts";
import { signInitData, webAppLink } from "../webapp/init-data.ts";
import { webAppRoutes } from "../webapp/routes.ts";
import { webAppLoginPageUrl } from "../webapp-paths.ts";
import { type HttpRoute, startHttpServer } from "../webhook.ts";
import { type DemoCommandContext, HELP, handleDemoCommand } from "./commands.ts";
import { demoPartnerConfig, PARTNER_STEPS } from "./partner.ts";
import { DemoTerminal } from "./terminal.ts";
import { describeBotCall, type Printed } from "./transcript.ts";

const terminal = new DemoTerminal(process.stdout, process.stdin.isTTY === true);
const out = (text = "") => terminal.out(text);
const DEMO_USER_ID = 4242;

async function main(): Promise<void> {
  const partnerMode = process.argv.includes("--partner");
  const clock = new OffsetClock();
  const log = createLogger((process.env.LOG_LEVEL as "warn" | undefined) ?? "warn", process.stderr);
  const sandbox = await startSandbox({ clock });
  const telegram = await startBotApiDouble({ clock });
  const folder = mkdtempSync(join(tmpdir(), "exchange-bot-demo-"));
  // The bot's HTTP server on loopback serves the Mini App login page (WEBAPP_URL in production).
  let webAppRoute: HttpRoute | undefined;
  const pages = await startHttpServer({
    port: Number(process.env.DEMO_WEBAPP_PORT ?? 0),
    host: "127.0.0.1",
    routes: [(req, res, path) => webAppRoute?.(req, res, path) ?? false],
  });
  const services = await createServices(
    {
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl: `sqlite://${join(folder, "demo.sqlite")}`,
      secretsKey: Vault.generateKey(),
      defaultLocale: "en",
      telegramApiRoot: telegram.apiRoot,
      webAppUrl: pages.url,
      // The operator's market-data account: prices and inline cards work before anyone logs in.
      marketData: { ...sandbox.demo },
      // EXCHANGE_MODE=partner with the sandbox's partner token; the demo user is the operator.
      ...(partnerMode ? { partner: demoPartnerConfig(sandbox, DEMO_USER_ID) } : {}),
    },
    { clock, log },
  );
  const bot = createBot(services.deps, { token: telegram.token, apiRoot: telegram.apiRoot });
  await bot.init();
  webAppRoute = webAppRoutes({ deps: services.deps, botToken: telegram.token, api: bot.api });
  await registerCommands(bot.api, { ...services.deps, log });
  const runner = run(bot, { runner: { silent: true } });
  const jobs = startBackgroundJobs({ deps: services.deps, api: bot.api, intervalMs: 5_000 });
  services.securityNotices.connect(securityNoticeSender(services.deps, jobs.notifier));

  const firstName = process.env.USER ?? "Demo";
  const languageCode = process.env.DEMO_LANGUAGE ?? "en";
  const me = telegram.user(DEMO_USER_ID, { firstName, languageCode });
  // Signed with the double's bot token, as Telegram signs initData with the real one.
  const webAppLogin = () =>
    webAppLink(
      webAppLoginPageUrl(pages.url),
      signInitData({ id: me.id, firstName, languageCode }, telegram.token, clock.now()),
    );

  out("┌─ Exchange bot demo ─────────────────────────────────────────────");
  out(`│ Sandbox exchange: ${sandbox.url}`);
  if (partnerMode) for (const line of PARTNER_STEPS) out(line);
  else {
    out(`│ Log in with  e-mail: ${sandbox.demo.email}   password: ${sandbox.demo.password}`);
    out("│ Or log in in your browser, as the Mini App does in Telegram (:webapp for a fresh link):");
    out(`│   ${webAppLogin()}`);
    out("│ Type :code for a fresh 2FA code, #N to tap button N, :help for more.");
    out("│ Start with /start, or /login.");
  }
  out("└──────────────────────────────────────────────────────────────────");

  let buttons: NonNullable<Printed["buttons"]> = [];
  telegram.on("call", (call) => {
    if (call.chatId === DEFAULT_GROUP_ID && call.method === "sendMessage" && call.ok) {
      // The double's HTML parser would be overkill here: the demo only shows the words.
      terminal.say(`group bot> ${String(call.payload.text ?? "").replace(/<[^>]+>/g, "")}`);
      return;
    }
    if (call.chatId !== me.id) return;
    const result = call.result as { message_id?: number } | undefined;
    const message = me.messages().find((m) => m.messageId === result?.message_id);
    const printed = describeBotCall(call, message);
    if (!printed) return;
    if (printed.buttons) buttons = printed.buttons;
    terminal.say(printed.lines.map((line, i) => (i === 0 ? `bot> ${line}` : `     ${line}`)).join("\n"));
  });

  const context: DemoCommandContext = {
    sandbox,
    telegram,
    me,
    clock,
    // Notices go out through the delivery queue: wait for them, so the transcript reads in order.
    tick: () => jobs.tick().then(() => jobs.notifier.queue.idle()),
    marketTtlMs: DEFAULT_MARKET_TTL_MS,
    buttons: () => buttons,
    webAppLink: webAppLogin,
    print: out,
    partnerUserId: async () => services.deps.partner?.users.partnerIdOf(me.id),
  };

  const shutdown = async () => {
    await runner.stop();
    await drainUpdates(bot);
    await jobs.stop();
    await services.close();
    await pages.close();
    await telegram.close();
    await sandbox.close();
    rmSync(folder, { recursive: true, force: true });
  };

  // terminal: false leaves echo to the terminal itself, so bot output never garbles the typed line.
  const lines = createInterface({ input: process.stdin, terminal: false });
  terminal.prompt();
  for await (const raw of lines) {
    const line = raw.trim();
    terminal.typed(line);
    if (line === ":quit" || line === ":q") break;
    try {
      if (line.startsWith(":") || line.startsWith("#")) {
        await handleDemoCommand(line, context);
        // A tap usually gets a message too: wait for it briefly, as for a typed message.
        if (line.startsWith("#")) await me.waitForReply(undefined, 3_000).catch(() => undefined);
      } else if (line) {
        await me.send(line);
        // Most messages get an answer: wait for it (briefly), so answers print in order.
        await me.waitForReply(undefined, 3_000).catch(() => undefined);
      }
      // Let the bot answer before the next line, so the transcript reads in order.
      await telegram.waitUntilIdle({ quietMs: 150, timeoutMs: 15_000 }).catch(() => undefined);
    } catch (error) {
      out(`(demo) ${error instanceof Error ? error.message : String(error)}`);
    }
    terminal.prompt();
  }
  // Leaving the loop closes readline but not a terminal's stdin, which would keep the process alive.
  process.stdin.destroy();
  out("Bye.");
  await shutdown();
}

export { HELP };

await main();
