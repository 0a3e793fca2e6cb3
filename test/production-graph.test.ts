/**
 * `npm start` carries only what production runs: the sandbox exchange, the Bot API double and
 * the demo are for tests and trying the bot out, and the Docker image leaves them out. Node runs
 * the TypeScript sources as they are (type stripping, no build step), so the image is the source
 * tree minus what `.dockerignore` drops, and here it is checked by running it.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { chainTo, importGraph, specifiersOf } from "./support/import-graph.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NOT_IN_PRODUCTION = ["src/sandbox/", "src/telegram-double/", "src/demo/"];

function forbiddenReached(entry: string): string[] {
  const graph = importGraph(ROOT, entry);
  return [...graph.files.keys()]
    .filter((file) => NOT_IN_PRODUCTION.some((folder) => file.startsWith(folder)))
    .map((file) => chainTo(graph, file));
}

describe("npm start's import graph", () => {
  it("reads every form of import the sources use", () => {
    const source = [
      'import { a, type B } from "./a.ts";',
      'import type {\n  C,\n  D,\n} from "./c.ts";',
      'export * from "./e.ts";',
      'export { f } from "./f.ts";',
      'import "./g.ts";',
      'const h = await import("./h.ts");',
      "export function i() { return 'from'; }",
      'const j = lazy(() => import("some-package/max"));',
      'export type { K } from "./k.ts";',
    ].join("\n");
    expect(specifiersOf(source).sort()).toEqual([
      "./a.ts",
      "./c.ts",
      "./e.ts",
      "./f.ts",
      "./g.ts",
      "./h.ts",
      "./k.ts",
      "some-package/max",
    ]);
    // What Node loads before the code runs: no type-only imports, nothing imported at first use.
    expect(specifiersOf(source, { atStart: true }).sort()).toEqual(["./a.ts", "./e.ts", "./f.ts", "./g.ts"]);
  });

  it("finds the test-only folders when they are reached (the demo reaches all of them)", () => {
    const reached = forbiddenReached("src/demo/main.ts").join("\n");
    expect(reached).toContain("src/sandbox/server.ts");
    expect(reached).toContain("src/telegram-double/index.ts");
  });

  it("holds nothing of sandbox/, telegram-double/ or demo/", () => {
    const graph = importGraph(ROOT, "src/main.ts");
    expect(graph.files.has("src/bot/bot.ts")).toBe(true);
    expect(forbiddenReached("src/main.ts")).toEqual([]);
  });

  it("needs only packages that `npm ci --omit=dev` installs", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const graph = importGraph(ROOT, "src/main.ts");
    const missing = [...graph.packages]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, file]) => `${name} (imported by ${chainTo(graph, file)})`);
    expect(missing).toEqual([]);
  });

  it("loads the Redis backend, QR codes, address and phone checks and the Mini App only at first use", () => {
    // A bot on SQLite that serves /start, /help, /prices and /balance never loads these (src/lazy.ts).
    const files = ["src/store/redis.ts", "src/webapp/routes.ts", "src/webapp/init-data.ts"];
    const packages = [
      "@keyv/redis",
      "qrcode",
      "multicoin-address-validator",
      "libphonenumber-js",
      "@telegram-apps/init-data-node",
    ];
    const all = importGraph(ROOT, "src/main.ts");
    const atStart = importGraph(ROOT, "src/main.ts", { atStart: true });
    expect(files.filter((file) => !all.files.has(file))).toEqual([]);
    expect(packages.filter((name) => !all.packages.has(name))).toEqual([]);
    expect(files.filter((file) => atStart.files.has(file)).map((file) => chainTo(atStart, file))).toEqual([]);
    expect(
      packages
        .filter((name) => atStart.packages.has(name))
        .map((name) => `${name} (imported by ${chainTo(atStart, atStart.packages.get(name) ?? "")})`),
    ).toEqual([]);
  });
});

/** `COPY a b dest` lines of the Dockerfile's final stage: sources in the build context, dest under WORKDIR. */
function dockerCopies(): { sources: string[]; dest: string }[] {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  return [...dockerfile.matchAll(/^COPY\s+(?!--)(.+)$/gm)].map((match) => {
    const words = (match[1] ?? "").trim().split(/\s+/);
    return { sources: words.slice(0, -1), dest: words.at(-1) ?? "." };
  });
}

/** `.dockerignore` as plain paths; a pattern with wildcards would need more than this reads. */
function dockerIgnored(): string[] {
  const lines = readFileSync(join(ROOT, ".dockerignore"), "utf8").split("\n");
  const patterns = lines.map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
  for (const pattern of patterns) {
    if (/[*?[!]/.test(pattern)) throw new Error(`.dockerignore: "${pattern}" is more than a plain path`);
  }
  return patterns.map((pattern) => pattern.replace(/^\/+|\/+$/g, ""));
}

/** The files the image gets, laid out under `app` as WORKDIR /app. */
function buildImageTree(app: string): void {
  const ignored = dockerIgnored();
  const kept = (source: string): boolean => {
    const path = resolve(source).slice(ROOT.length).replace(/^\/+/, "");
    return !ignored.some((pattern) => path === pattern || path.startsWith(`${pattern}/`));
  };
  for (const { sources, dest } of dockerCopies()) {
    for (const source of sources) {
      if (!kept(join(ROOT, source))) continue;
      const into = dest.endsWith("/") || sources.length > 1 ? join(app, dest, source) : join(app, dest);
      mkdirSync(dirname(into), { recursive: true });
      cpSync(join(ROOT, source), into, { recursive: true, filter: kept });
    }
  }
}

describe("the Docker image", () => {
  const app = mkdtempSync(join(tmpdir(), "image-tree-"));
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it("copies the sources without the sandbox, the Bot API double or the demo", () => {
    buildImageTree(app);
    expect(existsSync(join(app, "src/main.ts"))).toBe(true);
    expect(existsSync(join(app, "locales/en.ftl"))).toBe(true);
    for (const folder of NOT_IN_PRODUCTION) expect(existsSync(join(app, folder)), folder).toBe(false);
    expect(existsSync(join(app, "test"))).toBe(false);
  });

  it("loads all of npm start from that tree: without configuration it stops with the config sentence", () => {
    // The image installs its own production dependencies; the project's stand in for them here.
    symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
    const started = spawnSync(process.execPath, ["src/main.ts"], {
      cwd: app,
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(started.stderr).toBe("BOT_TOKEN is missing: set it to the token @BotFather gave you.\n");
    expect(started.status).toBe(2);
  });
});
