/**
 * The import rules of the house, checked on the source by dependency-cruiser. Their one source is
 * `.dependency-cruiser.cjs` (the layers of ARCHITECTURE.md's table "Folders and what each may
 * import", and the rules beside it); test/support/import-rules.ts runs them and writes the table.
 * Beside the run on src/, small made-up trees show that the rules are not too loose to refuse
 * what the house rules forbid.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { ICruiseResult } from "dependency-cruiser";
import { beforeAll, describe, expect, it } from "vitest";
import {
  architecture,
  cruiseRules,
  figures,
  ROOT,
  rulesFile,
  violationLine,
} from "./support/import-rules.ts";

function filesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The layer a file belongs to: the one whose entry matches it longest. */
function layerOf(file: string) {
  let best: { files: string[]; length: number } | undefined;
  for (const layer of rulesFile().layers)
    for (const entry of layer.files) {
      const path = `src/${entry}`;
      const matches = entry.endsWith("/") ? file.startsWith(path) : file === path;
      if (matches && path.length > (best?.length ?? -1)) best = { files: layer.files, length: path.length };
    }
  return best;
}

describe("the import rules on src/", () => {
  let result: ICruiseResult;
  beforeAll(async () => {
    result = await cruiseRules(ROOT);
  }, 60_000);
  const violations = (circular: boolean) =>
    (result.summary.violations ?? [])
      .filter((violation) => (violation.rule.name === "no-circular") === circular)
      .map(violationLine);

  it("every import keeps its layer's rules and the rules beside them", () => {
    expect(violations(false)).toEqual([]);
  });

  it("has no import circles, type-only imports included", () => {
    expect(violations(true)).toEqual([]);
  });

  it("sees what the sources import: type-only imports and import() too, every file under src/", () => {
    const types = result.modules.flatMap((module) => module.dependencies).map((d) => d.dependencyTypes);
    expect(types.filter((t) => t.includes("type-only")).length).toBeGreaterThan(100);
    expect(types.filter((t) => t.includes("dynamic-import")).length).toBeGreaterThan(3);
    const cruised = new Set(result.modules.map((module) => module.source));
    expect(filesUnder("src").filter((file) => !cruised.has(file))).toEqual([]);
    const graph = figures(result);
    expect(graph.circularEdgesBySccs).toBe(graph.circularEdges);
  });

  it("every file under src/ belongs to a layer, and every layer names what is there", () => {
    expect(filesUnder("src").filter((file) => layerOf(file) === undefined)).toEqual([]);
    for (const layer of rulesFile().layers)
      for (const entry of layer.files) expect(existsSync(join(ROOT, "src", entry)), entry).toBe(true);
  });

  it("ARCHITECTURE.md's table is the one written from the rules (npm run import-rules)", () => {
    const { now, written } = architecture();
    expect(now).toBe(written);
  });
});

/** An edge of a made-up tree: `from` imports `to` (a path under src/ or a package). */
type Edge = readonly [from: string, to: string, ...rest: string[]];

/**
 * The rules that refuse each edge, cruised in a made-up tree holding just these files (the
 * project's node_modules and package.json beside them), with value imports or type-only ones.
 */
async function refusals(edges: readonly Edge[], typeOnly: boolean): Promise<Map<string, string[]>> {
  const dir = mkdtempSync(join(tmpdir(), "import-rules-"));
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
    copyFileSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
    const sources = new Map<string, string[]>();
    for (const [from, to] of edges) {
      if (to.startsWith("src/") && !sources.has(to)) sources.set(to, []);
      const specifier = to.startsWith("src/")
        ? `./${relative(dirname(from), to)}`.replace(/^\.\/\.\./, "..")
        : to;
      const n = sources.get(from)?.length ?? 0;
      const statement = typeOnly
        ? `import type { T${n} } from "${specifier}";`
        : `import * as v${n} from "${specifier}";`;
      sources.set(from, [...(sources.get(from) ?? []), statement]);
    }
    for (const [file, lines] of sources) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      writeFileSync(join(dir, file), [...lines, "export type T = 1;", ""].join("\n"));
    }
    const result = await cruiseRules(dir);
    const byEdge = new Map<string, string[]>();
    for (const violation of result.summary.violations ?? []) {
      const to = violation.to.match(/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? violation.to;
      const key = `${violation.from} → ${to}`;
      byEdge.set(key, [...(byEdge.get(key) ?? []), violation.rule.name]);
    }
    return byEdge;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// What the house rules forbid, each as the edge that would break it; the rules that must refuse it.
const REFUSED: ReadonlyArray<readonly [...Edge, string]> = [
  // Nothing below bot/ knows Telegram, except notify/ (and the store's grammY types).
  ["src/exchange/http.ts", "grammy", "layer exchange/"],
  ["src/orders/place.ts", "@grammyjs/conversations", "layer orders/"],
  ["src/store/adapter.ts", "grammy", "layer store/ (types only)"],
  // Data flows one way: the exchange client knows no layer above it, session/ none above it.
  ["src/exchange/http.ts", "src/store/store.ts", "layer exchange/"],
  ["src/session/sessions.ts", "src/orders/ledger.ts", "layer session/"],
  // Edges the code once had: bot/ → webapp/ (a circle), config and partner/ → market/.
  ["src/bot/bot.ts", "src/webapp/routes.ts", "layer bot/"],
  ["src/config/config.ts", "src/market/market-data-account.ts", "layer config/"],
  ["src/partner/auth.ts", "src/market/market-data-account.ts", "layer partner/"],
  ["src/market/market-data-account.ts", "otplib", "layer market/"],
  // metrics.ts: prom-client only, imported by the composition root only.
  ["src/process/metrics.ts", "src/store/store.ts", "layer process/metrics.ts"],
  ["src/bot/middleware/update-logger.ts", "src/process/metrics.ts", "composition-root"],
  ["src/orders/pipeline.ts", "prom-client", "layer orders/"],
  // bot/ reaches down, never up into the wiring (the old table's row order let it).
  ["src/bot/bot.ts", "src/process/services.ts", "composition-root"],
  ["src/bot/bot.ts", "src/process/draining.ts", "layer bot/"],
  ["src/demo/app.ts", "src/process/main.ts", "no-main"],
  // Packages stay in the layers that name them.
  ["src/session/sessions.ts", "keyv", "layer session/"],
  ["src/orders/pipeline.ts", "zod", "layer orders/"],
  // What ships resolves every import and needs no devDependency.
  ["src/orders/pipeline.ts", "fast-check", "no-dev-dependency"],
  ["src/orders/pipeline.ts", "no-such-package", "resolved"],
  // Production never reaches the sandbox, the Bot API double or the demo.
  ...["src/process/main.ts", "src/bot/bot.ts", "src/process/webhook.ts"].flatMap((from) =>
    ["src/sandbox/server.ts", "src/telegram-double/double.ts", "src/demo/main.ts"].map(
      (to) => [from, to, "not-in-production"] as const,
    ),
  ),
  // Inside bot/.
  ["src/bot/features/send.ts", "src/bot/features/trade.ts", "feature-to-feature"],
  ["src/bot/features/partner/buy.ts", "src/bot/features/balance.ts", "feature-to-feature"],
  ["src/bot/flows/wait.ts", "src/bot/features/send.ts", "flows-no-feature"],
  ["src/bot/ui/keyboards.ts", "src/bot/flows/wait.ts", "ui-keyboards-and-formatters"],
  ["src/bot/ui/keyboards.ts", "src/bot/middleware/chat-lock.ts", "ui-keyboards-and-formatters"],
  ["src/orders/pipeline.ts", "src/bot/features/send.ts", "features-from-bot-only"],
  ["src/process/jobs.ts", "src/bot/features/send.ts", "features-from-bot-only"],
];
const REFUSED_TYPES: ReadonlyArray<readonly [...Edge, string]> = [
  ["src/session/sessions.ts", "src/bot/deps.ts", "layer session/"],
  ["src/notify/delivery.ts", "src/bot/deps.ts", "layer notify/"],
];
/** Two files that import each other (dependency-cruiser reports a circle once, from one of them). */
const RING: readonly Edge[] = [
  ["src/alerts/ring-a.ts", "src/alerts/ring-b.ts"],
  ["src/alerts/ring-b.ts", "src/alerts/ring-a.ts"],
];
const refusedRing = (refused: Map<string, string[]>) =>
  RING.some(([from, to]) => refused.get(`${from} → ${to}`)?.includes("no-circular"));
const ALLOWED: readonly Edge[] = [
  ["src/notify/queue.ts", "grammy"],
  ["src/process/main.ts", "src/process/metrics.ts"],
  ["src/bot/bot.ts", "src/orders/pipeline.ts"],
  ["src/bot/features/send.ts", "src/bot/flows/enter.ts"],
  ["src/demo/main.ts", "src/sandbox/server.ts"],
  ["src/demo/app.ts", "src/process/services.ts"],
  ["src/orders/ledger.ts", "big.js"],
  ["src/store/sqlite.ts", "@keyv/sqlite"],
];
const ALLOWED_TYPES: readonly Edge[] = [
  ["src/store/adapter.ts", "grammy"],
  ["src/plans/runner.ts", "src/partner/auth.ts"],
];

describe("the import rules refuse what the house rules forbid (made-up trees)", () => {
  let values: Map<string, string[]>;
  let types: Map<string, string[]>;
  beforeAll(async () => {
    // One after the other: a cruise keeps state of its own while it runs.
    values = await refusals([...REFUSED, ...ALLOWED, ...RING], false);
    types = await refusals([...REFUSED_TYPES, ...ALLOWED_TYPES, ...RING], true);
  }, 60_000);

  it.each(REFUSED)("refuses %s → %s (%s)", (from, to, rule) => {
    expect(values.get(`${from} → ${to}`) ?? []).toContain(rule);
  });

  it.each(REFUSED_TYPES)("refuses the type-only %s → %s (%s)", (from, to, rule) => {
    expect(types.get(`${from} → ${to}`) ?? []).toContain(rule);
  });

  it("refuses a circle, of value imports or of type-only ones (no-circular)", () => {
    expect(refusedRing(values)).toBe(true);
    expect(refusedRing(types)).toBe(true);
  });

  it.each(ALLOWED)("allows %s → %s", (from, to) => {
    expect(values.get(`${from} → ${to}`) ?? []).toEqual([]);
  });

  it.each(ALLOWED_TYPES)("allows the type-only %s → %s", (from, to) => {
    expect(types.get(`${from} → ${to}`) ?? []).toEqual([]);
  });
});
