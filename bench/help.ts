/**
 * (a) /help through the whole stack against a bare grammY bot answering the same text through the
 * same Bot API double: one at a time (latency) and 200 in flight (throughput), and the ratio.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { I18n } from "@grammyjs/i18n";
import { LOCALES_DIR } from "../src/bot/i18n.ts";
import { Vault } from "../src/store/vault.ts";
import { type BotProcess, startBotProcess } from "./lib/child.ts";
import { summarizeProfile } from "./lib/cpu-profile.ts";
import { drive, type Env, makeUsers } from "./lib/env.ts";
import { int, type LatencySummary, mib, ms, rate, ratio, summarize, table } from "./lib/stats.ts";

export const HELP_PLAN = { users: 200, warmup: 400, sequential: 500, concurrent: 2_000, inFlight: 200 };

interface Figures {
  sequential: LatencySummary & { throughput: number };
  concurrent: LatencySummary & { throughput: number };
  /** CPU time of the bot process per update, during the concurrent run. */
  botCpuMsPerUpdate: number;
  /** CPU use of this process (double + driver) during the concurrent run, in cores. */
  driverCores: number;
  /** CPU use of the bot process during the concurrent run, in cores. */
  botCores: number;
  idleRss: number;
  rss: number;
}

const verdict = (what: string, cost: number) =>
  `${what} ${ratio(cost)} (${cost <= 2 ? "within" : "OUTSIDE"} 2x)`;

/** The English /help text, rendered as the bot's i18n renders it. */
export function englishHelpText(): string {
  const i18n = new I18n({ defaultLocale: "en", fluentBundleOptions: { useIsolating: false } });
  i18n.loadLocalesDirSync(LOCALES_DIR);
  return i18n.t("en", "help-text");
}

export async function benchHelp(env: Env, options: { profile?: boolean } = {}): Promise<string> {
  const helpText = englishHelpText();
  const expect = (text: string) => text === helpText;
  const folder = mkdtempSync(join(tmpdir(), "bench-help-"));
  const { telegram, sandbox } = env;
  const common = { token: telegram.token, apiRoot: telegram.apiRoot, botInfo: telegram.botInfo };

  const profiles: string[] = [];
  const measure = async (bot: BotProcess, firstUserId: number, name: string): Promise<Figures> => {
    const idle = await bot.memory();
    const users = makeUsers(env, firstUserId, HELP_PLAN.users);
    const text = "/help";
    await drive(env, { users, total: HELP_PLAN.warmup, concurrency: HELP_PLAN.inFlight, text, expect });
    const seq = await drive(env, { users, total: HELP_PLAN.sequential, concurrency: 1, text, expect });
    const botBefore = await bot.memory();
    const driverBefore = process.cpuUsage();
    const conc = await drive(env, {
      users,
      total: HELP_PLAN.concurrent,
      concurrency: HELP_PLAN.inFlight,
      text,
      expect,
    });
    const driverCpu = process.cpuUsage(driverBefore);
    const after = await bot.memory();
    const botCpuUs = after.cpuUs - botBefore.cpuUs;
    if (options.profile) {
      // An extra run, profiled, so that the profiler's cost is not in the figures above.
      await bot.profileStart();
      await drive(env, { users, total: HELP_PLAN.concurrent, concurrency: HELP_PLAN.inFlight, text, expect });
      profiles.push(
        summarizeProfile(
          await bot.profileStop(),
          `CPU profile of the ${name} bot process (${int(HELP_PLAN.concurrent)} /help, ${HELP_PLAN.inFlight} in flight)`,
        ),
      );
    }
    return {
      sequential: { ...summarize(seq.latenciesMs), throughput: seq.throughput },
      concurrent: { ...summarize(conc.latenciesMs), throughput: conc.throughput },
      botCpuMsPerUpdate: botCpuUs / 1000 / HELP_PLAN.concurrent,
      botCores: botCpuUs / 1000 / conc.elapsedMs,
      driverCores: (driverCpu.user + driverCpu.system) / 1000 / conc.elapsedMs,
      idleRss: idle.rss,
      rss: after.rss,
    };
  };

  let bare: Figures;
  let whole: Figures;
  try {
    const bareBot = await startBotProcess({ kind: "bare", ...common, helpText });
    bare = await measure(bareBot, 10_000, "bare");
    await bareBot.stop();

    const wholeBot = await startBotProcess({
      kind: "whole",
      ...common,
      exchange: { url: sandbox.url, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      storeUrl: `sqlite://${join(folder, "bot.sqlite")}`,
      secretsKey: Vault.generateKey(),
    });
    whole = await measure(wholeBot, 20_000, "whole-stack");
    await wholeBot.stop();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  const row = (name: string, f: Figures) => [
    name,
    ms(f.sequential.p50),
    ms(f.sequential.p99),
    rate(f.sequential.throughput),
    rate(f.concurrent.throughput),
    ms(f.concurrent.p50),
    ms(f.concurrent.p99),
    ms(f.botCpuMsPerUpdate),
    `${f.botCores.toFixed(2)} / ${f.driverCores.toFixed(2)}`,
    `${mib(f.idleRss)} → ${mib(f.rss)}`,
  ];
  const r = (a: number, b: number) => ratio(a / b);
  const out = [
    table(
      `(a) /help: whole stack vs bare grammY bot — ${HELP_PLAN.users} users, warm-up ${HELP_PLAN.warmup}, ` +
        `${HELP_PLAN.sequential} one at a time, ${int(HELP_PLAN.concurrent)} with ${HELP_PLAN.inFlight} in flight`,
      [
        "bot",
        "seq p50",
        "seq p99",
        "seq upd/s",
        "conc upd/s",
        "conc p50",
        "conc p99",
        "bot CPU/upd",
        "cores bot/double",
        "bot RSS start → end",
      ],
      [
        row("bare grammY", bare),
        row("whole stack", whole),
        [
          "whole / bare",
          r(whole.sequential.p50, bare.sequential.p50),
          r(whole.sequential.p99, bare.sequential.p99),
          r(bare.sequential.throughput, whole.sequential.throughput),
          r(bare.concurrent.throughput, whole.concurrent.throughput),
          r(whole.concurrent.p50, bare.concurrent.p50),
          r(whole.concurrent.p99, bare.concurrent.p99),
          r(whole.botCpuMsPerUpdate, bare.botCpuMsPerUpdate),
          "",
          r(whole.rss, bare.rss),
        ],
      ],
    ),
    "  Ratios are cost ratios: time whole/bare, and for upd/s bare/whole (above 1 = the whole stack is slower).",
    "  bot CPU/upd: the bot process's CPU time per update in the concurrent run. cores bot/double: CPU use",
    "  during that run of the bot process and of this one (double + driver); 1.00 = one core saturated.",
    `  Target, whole stack within 2x of the bare bot: ${verdict("one-at-a-time p50", whole.sequential.p50 / bare.sequential.p50)}; ` +
      `${verdict("throughput", bare.concurrent.throughput / whole.concurrent.throughput)}; ` +
      `${verdict("bot CPU per update", whole.botCpuMsPerUpdate / bare.botCpuMsPerUpdate)}.`,
  ];
  return [...out, ...profiles].join("\n");
}
