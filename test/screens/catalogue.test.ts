/**
 * The screen catalogue: every command, flow step, card, notice, refusal and operator
 * desk screen of both modes, driven against the sandbox in every locale of `locales/`, written to
 * `test-artifacts/screens/<mode>-<locale>.md` for review, and checked on every screen for raw API
 * codes, dates and numbers not in the locale's format, words of another language, talk about our
 * implementation or the exchange's documentation, times without a zone and buttons over 30
 * characters. A sentence of `locales/en.ftl` the catalogue never makes the bot say, or a command
 * it never sends, fails too: a new screen cannot be skipped.
 *
 * The four runs (mode × locale) go at once; each is a harness of its own.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { knownCommandsOf } from "../../src/bot/bot.ts";
import { OPERATOR_COMMANDS } from "../../src/bot/commands.ts";
import { startHarness } from "../support/harness.ts";
import { ACCOUNT_SCENARIOS } from "./scenarios/account.ts";
import type { Scenario } from "./scenarios/common.ts";
import { OPERATOR, PARTNER_SCENARIOS } from "./scenarios/partner.ts";
import { Driver } from "./support/driver.ts";
import { catalogueLocales, messageIds, recordLookups } from "./support/keys.ts";
import { checkScreen, type Finding } from "./support/rules.ts";
import { type Screen, ScreenLog, screensMarkdown } from "./support/screens.ts";
import { UNREACHABLE } from "./support/unreachable.ts";

const LOCALES = catalogueLocales();
const MODES = ["account", "partner"] as const;
type Mode = (typeof MODES)[number];
const SCENARIOS: Record<Mode, Scenario[]> = { account: ACCOUNT_SCENARIOS, partner: PARTNER_SCENARIOS };
const ARTIFACTS = join(import.meta.dirname, "../../test-artifacts/screens");

interface Run {
  mode: Mode;
  locale: string;
  screens: Screen[];
  findings: Array<{ screen: number; finding: Finding }>;
  /** Scenarios that could not finish, with why. */
  errors: string[];
  commandsSent: Set<string>;
  /** What the mode registers: every command its features take, the operator desk's too. */
  registered: string[];
}

/** Message ids rendered by any run, in any locale. */
const rendered = new Set<string>();

async function catalogue(mode: Mode, locale: string): Promise<Run> {
  // A flood limit a scenario can reach (a burst of 300 updates at once), never a step's pace. The
  // limit counts real time; each step waits for the bot to be quiet (12 ms and more), so at most
  // about 25 steps fit in the window, while a long tour would pass 100 in a couple of seconds.
  const floodLimit = { max: 40, windowMs: 400 };
  const h = await startHarness(
    // As the demo and a deployment run it: the operator's market-data account feeds prices and charts.
    mode === "partner"
      ? { mode, partner: { operatorIds: [OPERATOR] }, marketData: true, floodLimit }
      : { marketData: true, floodLimit },
  );
  const log = new ScreenLog(h.telegram, locale);
  const d = new Driver(h, log, locale);
  recordLookups(h.deps.i18n, rendered, (id) => d.stepKeys.push(id));
  const errors: string[] = [];
  try {
    for (const scenario of SCENARIOS[mode]) {
      try {
        await scenario.run(d, h);
      } catch (error) {
        errors.push(`${scenario.name}: ${error instanceof Error ? error.message : String(error)}`);
        await d.settle().catch(() => {});
      }
    }
  } finally {
    log.stop();
    await d.stop();
    await h.stop();
  }
  const registered = [...knownCommandsOf(h.bot), ...(mode === "partner" ? OPERATOR_COMMANDS : [])];
  const findings = log.screens.flatMap((screen, index) =>
    checkScreen(screen, LOCALES).map((finding) => ({ screen: index, finding })),
  );
  const run = {
    mode,
    locale,
    screens: log.screens,
    findings,
    errors,
    commandsSent: d.commandsSent,
    registered,
  };
  writeRun(run);
  return run;
}

function writeRun(run: Run): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  const heading = `Screens: ${run.mode} mode, ${run.locale}`;
  writeFileSync(
    join(ARTIFACTS, `${run.mode}-${run.locale}.md`),
    screensMarkdown(heading, run.locale, run.screens, run.findings),
  );
}

/** Findings grouped by rule, one line each: what the assertion message shows. */
function report(run: Run): string {
  const byRule = new Map<string, string[]>();
  for (const { screen, finding } of run.findings) {
    const title = run.screens[screen]?.title ?? "?";
    const lines = byRule.get(finding.rule) ?? [];
    lines.push(`  #${screen + 1} ${title} ⟶ ${finding.offending}`);
    byRule.set(finding.rule, lines);
  }
  const failing = new Set(run.findings.map((f) => f.screen)).size;
  if (failing === 0) return "";
  return [
    `${failing} of ${run.screens.length} screens break a rule (${run.mode}-${run.locale}.md):`,
    ...[...byRule].flatMap(([rule, lines]) => [`${rule} (${lines.length}):`, ...lines]),
  ].join("\n");
}

const runs: Run[] = [];

describe("the screen catalogue", () => {
  beforeAll(async () => {
    // CATALOGUE_RUNS=account-en,partner-de runs only those (while writing a scenario).
    const only = process.env.CATALOGUE_RUNS?.split(",");
    const all = await Promise.all(
      MODES.flatMap((mode) =>
        LOCALES.filter((locale) => only === undefined || only.includes(`${mode}-${locale}`)).map((locale) =>
          catalogue(mode, locale),
        ),
      ),
    );
    runs.push(...all);
    writeSummary(all);
  }, 600_000);

  for (const mode of MODES) {
    for (const locale of LOCALES) {
      const run = () => {
        const found = runs.find((r) => r.mode === mode && r.locale === locale);
        if (found === undefined) throw new Error(`no run ${mode}-${locale}`);
        return found;
      };
      it(`${mode} mode, ${locale}: every scenario runs to its end`, () => {
        expect(run().errors.join("\n\n")).toBe("");
      });
      it(`${mode} mode, ${locale}: no screen breaks a rule`, () => {
        expect(run().screens.length).toBeGreaterThan(0);
        expect(report(run())).toBe("");
      });
      it(`${mode} mode, ${locale}: every command the mode registers is sent`, () => {
        const missing = run().registered.filter((command) => !run().commandsSent.has(command));
        expect(missing).toEqual([]);
      });
    }
  }

  it("every sentence of locales/en.ftl is shown by some screen, or is excepted with a reason", () => {
    const unreached = messageIds("en").filter((id) => !rendered.has(id) && !Object.hasOwn(UNREACHABLE, id));
    expect(unreached).toEqual([]);
  });

  it("the exceptions are still sentences of en.ftl, and still unreached", () => {
    const ids = new Set(messageIds("en"));
    const stale = Object.keys(UNREACHABLE).filter((id) => !ids.has(id) || rendered.has(id));
    expect(stale).toEqual([]);
  });
});

/** Screens and failing screens per run and rule, for the lead and the closing note. */
function writeSummary(all: readonly Run[]): void {
  const lines = [
    "# Screen catalogue: summary",
    "",
    "| run | screens | failing screens | by rule |",
    "|---|---|---|---|",
  ];
  for (const run of all) {
    const rules = new Map<string, Set<number>>();
    for (const { screen, finding } of run.findings) {
      const set = rules.get(finding.rule) ?? new Set();
      set.add(screen);
      rules.set(finding.rule, set);
    }
    const byRule = [...rules].map(([rule, screens]) => `${rule}: ${screens.size}`).join("; ");
    const failing = new Set(run.findings.map((f) => f.screen)).size;
    lines.push(`| ${run.mode}-${run.locale} | ${run.screens.length} | ${failing} | ${byRule} |`);
  }
  const unreached = messageIds("en").filter((id) => !rendered.has(id) && !Object.hasOwn(UNREACHABLE, id));
  lines.push(
    "",
    `Message ids of en.ftl never rendered: ${unreached.length}`,
    "",
    ...unreached.map((id) => `- ${id}`),
  );
  for (const run of all) {
    lines.push("", `## ${run.mode}-${run.locale}`, "", report(run) || "no findings", "");
    if (run.errors.length > 0)
      lines.push("Scenarios that did not finish:", ...run.errors.map((e) => `- ${e}`));
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, "summary.md"), `${lines.join("\n")}\n`);
}
