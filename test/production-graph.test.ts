/**
 * `npm start` carries only what production runs: the sandbox exchange, the Bot API double and
 * the demo are for tests and trying the bot out, and the Docker image leaves them out. `npm start`
 * and the image run the JavaScript that `npm run build` compiles into dist/ (tsconfig.build.json),
 * so the image's tree is rebuilt here from the Dockerfile, stage by stage, and checked by running it.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { chainTo, importGraph, specifiersOf } from "./support/import-graph.ts";
import { startCommand } from "./support/start-command.ts";

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
    const graph = importGraph(ROOT, "src/process/main.ts");
    expect(graph.files.has("src/bot/bot.ts")).toBe(true);
    expect(forbiddenReached("src/process/main.ts")).toEqual([]);
  });

  it("needs only packages that `npm ci --omit=dev` installs", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const graph = importGraph(ROOT, "src/process/main.ts");
    const missing = [...graph.packages]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, file]) => `${name} (imported by ${chainTo(graph, file)})`);
    expect(missing).toEqual([]);
  });

  it("loads the Redis backend, QR codes, address and phone checks, the Mini App, charts and metrics only at first use", () => {
    // A bot on SQLite that serves /start, /help, /prices and /balance never loads these (src/support/lazy.ts);
    // prom-client only with METRICS_PORT; the chart engine at the first chart drawn.
    const files = [
      "src/store/redis.ts",
      "src/webapp/routes.ts",
      "src/webapp/init-data.ts",
      "src/process/metrics.ts",
    ];
    const packages = [
      "d3-scale",
      "d3-shape",
      "@resvg/resvg-wasm",
      "jpeg-js",
      "prom-client",
      "@keyv/redis",
      "qrcode",
      "multicoin-address-validator",
      "libphonenumber-js",
      "@telegram-apps/init-data-node",
    ];
    const all = importGraph(ROOT, "src/process/main.ts");
    const atStart = importGraph(ROOT, "src/process/main.ts", { atStart: true });
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

interface Stage {
  /** The base image as the FROM line names it. */
  image: string;
  name: string | undefined;
  /** Every instruction of the stage after its FROM, continuations joined (`USER node`, `STOPSIGNAL …`). */
  instructions: string[];
  workdir: string;
  /** `COPY [--from=stage] a b dest`: sources in the build context (or that stage), dest under workdir. */
  copies: { from: string | undefined; sources: string[]; dest: string }[];
  runs: string[];
}

/** The Dockerfile's stages with their COPY and RUN lines (a RUN's `\` continuations joined). */
function dockerStages(): Stage[] {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const stages: Stage[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) {
      stages.push({
        image: from[1] ?? "",
        name: from[2],
        instructions: [],
        workdir: "/",
        copies: [],
        runs: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) continue;
    if (line !== "" && !line.startsWith("#")) stage.instructions.push(line.replace(/\s+/g, " "));
    const workdir = /^WORKDIR\s+(\S+)$/.exec(line);
    if (workdir) stage.workdir = workdir[1] ?? "/";
    const run = /^RUN\s+(.+)$/.exec(line);
    if (run) stage.runs.push((run[1] ?? "").replace(/\s+/g, " "));
    const copy = /^COPY\s+(?:--from=(\S+)\s+)?(.+)$/.exec(line);
    if (copy) {
      const words = (copy[2] ?? "").trim().split(/\s+/);
      if (words.some((word) => word.startsWith("--")))
        throw new Error(`Dockerfile: "${line}" has flags this test does not read`);
      stage.copies.push({ from: copy[1], sources: words.slice(0, -1), dest: words.at(-1) ?? "." });
    }
  }
  return stages;
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

/**
 * Lays out each stage under `into/stage-N` (its WORKDIR there): COPY from the build context
 * (minus `.dockerignore`) or from an earlier stage, then its `npm run` lines (the build) as
 * written. The project's node_modules stands in for `npm ci`; the apt toolchain and the data
 * folder of the image's user are not needed to run it. Returns the final stage's WORKDIR.
 */
function buildImageTree(into: string): string {
  const ignored = dockerIgnored();
  const fromContext = (source: string): boolean => {
    const path = resolve(source).slice(ROOT.length).replace(/^\/+/, "");
    return !ignored.some((pattern) => path === pattern || path.startsWith(`${pattern}/`));
  };
  const roots = new Map<string, string>();
  let app = into;
  dockerStages().forEach((stage, index) => {
    const root = join(into, `stage-${index}`);
    if (stage.name !== undefined) roots.set(stage.name, root);
    app = join(root, stage.workdir);
    mkdirSync(app, { recursive: true });
    for (const { from, sources, dest } of stage.copies) {
      const base = from === undefined ? ROOT : roots.get(from);
      if (base === undefined) throw new Error(`Dockerfile: COPY --from=${from} names no earlier stage`);
      for (const source of sources) {
        const path = join(base, source);
        if (from === undefined && !fromContext(path)) continue;
        const target =
          dest.endsWith("/") || sources.length > 1 ? join(app, dest, basename(source)) : join(app, dest);
        mkdirSync(dirname(target), { recursive: true });
        cpSync(path, target, { recursive: true, filter: from === undefined ? fromContext : () => true });
      }
    }
    for (const command of stage.runs) {
      if (command.startsWith("npm ci ")) {
        symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
      } else if (command.startsWith("npm run ")) {
        const ran = spawnSync("sh", ["-c", command], { cwd: app, encoding: "utf8" });
        expect(ran.status, `RUN ${command}\n${ran.stdout}${ran.stderr}`).toBe(0);
      }
    }
  });
  return app;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

describe("the Docker image", () => {
  const tree = mkdtempSync(join(tmpdir(), "image-tree-"));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  let app = "";

  it("builds dist/ in the build stage and the final stage carries it and the locales, no sources", () => {
    app = buildImageTree(tree);
    expect(existsSync(join(app, "dist/process/main.js"))).toBe(true);
    expect(existsSync(join(app, "locales/en.ftl"))).toBe(true);
    expect(existsSync(join(app, "package.json"))).toBe(true);
    expect(existsSync(join(app, "src"))).toBe(false);
    expect(existsSync(join(app, "test"))).toBe(false);
  });

  it("dist/ holds nothing of sandbox/, telegram-double/ or demo/, and every import in it names a .js file", () => {
    const files = filesUnder(join(app, "dist"));
    expect(files).toContain("bot/bot.js");
    const folders = NOT_IN_PRODUCTION.map((folder) => folder.replace(/^src\//, ""));
    expect(files.filter((file) => folders.some((folder) => file.startsWith(folder)))).toEqual([]);
    expect(files.filter((file) => !file.endsWith(".js"))).toEqual([]);
    const graph = importGraph(app, "dist/process/main.js");
    expect(graph.files.size).toBeGreaterThan(50);
    const relativeImports = files.flatMap((file) =>
      specifiersOf(readFileSync(join(app, "dist", file), "utf8")).filter((s) => s.startsWith(".")),
    );
    expect(relativeImports.filter((specifier) => !specifier.endsWith(".js"))).toEqual([]);
  });

  it("finds the locales from dist/ as it does from src/", () => {
    const found = spawnSync(
      process.execPath,
      ["-e", 'import("./dist/bot/i18n.js").then((m) => process.stdout.write(m.LOCALES_DIR))'],
      { cwd: app, encoding: "utf8" },
    );
    expect(found.stderr).toBe("");
    expect(realpathSync(found.stdout)).toBe(realpathSync(join(app, "locales")));
  });

  it("runs npm start from that tree: without configuration it stops with the config sentence", () => {
    // npm start's first step finds no sources to compile there and lets the image's dist/ run.
    const prestart = spawnSync(process.execPath, ["scripts/prestart.ts"], { cwd: app, encoding: "utf8" });
    expect(prestart.stderr).toBe("");
    expect(prestart.status).toBe(0);
    const started = spawnSync(process.execPath, ["dist/process/main.js"], {
      cwd: app,
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(started.stderr).toBe("BOT_TOKEN is missing: set it to the token @BotFather gave you.\n");
    expect(started.status).toBe(2);
  });

  it("runs npm run rotate-secrets from that tree (its dist/, no sources): without SECRETS_KEY it says so", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const [node, ...args] = (manifest.scripts["rotate-secrets"] ?? "").split(/\s+/);
    expect(node).toBe("node");
    const run = spawnSync(process.execPath, args, {
      cwd: app,
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(run.stderr).toBe(
      "SECRETS_KEY is missing: set it to 32 random bytes in base64 (openssl rand -base64 32).\n",
    );
    expect(run.status).toBe(2);
  });

  it("runs the command npm start runs, with the environment it sets", () => {
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    const start = startCommand(ROOT);
    const cmd = /^CMD\s+(\[.*\])$/m.exec(dockerfile)?.[1] ?? "[]";
    expect(JSON.parse(cmd)).toEqual(["node", ...start.nodeFlags, start.script]);
    // ENV lines, their continuations joined: every NAME=value npm start sets is set there too.
    const envWords = [...dockerfile.replace(/\\\n/g, " ").matchAll(/^ENV\s+(.+)$/gm)].flatMap((m) =>
      (m[1] ?? "").trim().split(/\s+/),
    );
    for (const [name, value] of Object.entries(start.env)) expect(envWords).toContain(`${name}=${value}`);
  });

  it("builds every stage on one base image, pinned to the Node version package-lock.json installs", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    const node = lock.packages["node_modules/node"]?.version;
    const images = new Set(dockerStages().map((stage) => stage.image));
    expect([...images]).toEqual([
      expect.stringMatching(/^node:\d+\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/),
    ]);
    expect([...images][0]).toMatch(new RegExp(`^node:${node?.replaceAll(".", "\\.")}-`));
  });

  it("ships no toolchain and no npm cache: the run stage installs nothing and copies node_modules", () => {
    const stages = dockerStages();
    const run = stages.at(-1);
    expect(
      run?.runs.filter((command) => /\b(apt-get|apt|npm ci|npm install|gcc|g\+\+|make)\b/.test(command)),
    ).toEqual([]);
    // node_modules comes from the stage that installed the production dependencies and cleaned
    // npm's cache there.
    const copied = run?.copies.find((copy) => copy.dest.replace(/^\.\//, "") === "node_modules");
    const from = stages.find((stage) => stage.name !== undefined && stage.name === copied?.from);
    expect(from?.runs.find((command) => command.startsWith("npm ci "))).toMatch(
      /^npm ci --omit=dev --omit=optional\b.* && npm cache clean --force( && .*)?$/,
    );
    expect(copied?.sources).toEqual([`${from?.workdir}/node_modules`]);
  });

  it("leaves out with --omit=optional only what builds (node-gyp, TypeScript), nothing the bot runs", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<
        string,
        {
          dev?: boolean;
          optional?: boolean;
          devOptional?: boolean;
          dependencies?: Record<string, string>;
          optionalDependencies?: Record<string, string>;
        }
      >;
    };
    const packages = lock.packages;
    // Where Node finds `name` from the package at `from`: its own node_modules, then its parents'.
    const resolveFrom = (from: string, name: string): string | undefined => {
      for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf("/node_modules/")))) {
        const path = `${at === "" ? "" : `${at}/`}node_modules/${name}`;
        if (path in packages) return path;
        if (at === "") return undefined;
      }
    };
    const closure = (roots: string[]): Set<string> => {
      const seen = new Set<string>();
      const visit = (path: string | undefined) => {
        if (path === undefined || seen.has(path)) return;
        seen.add(path);
        const entry = packages[path];
        for (const name of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) {
          visit(resolveFrom(path, name));
        }
      };
      for (const root of roots) visit(root);
      return seen;
    };
    const buildTools = closure([
      "node_modules/node-gyp",
      "node_modules/typescript",
      ...Object.keys(packages).filter((path) => path.startsWith("node_modules/@typescript/typescript-")),
    ]);
    const omitted = Object.entries(packages)
      .filter(([path, entry]) => path !== "" && !entry.dev && (entry.optional || entry.devOptional))
      .map(([path]) => path);
    expect(omitted.length).toBeGreaterThan(0);
    expect(omitted.filter((path) => !buildTools.has(path))).toEqual([]);
  });

  it("runs as the unprivileged node user and stops on SIGTERM", () => {
    const run = dockerStages().at(-1)?.instructions ?? [];
    expect(run.filter((line) => line.startsWith("USER "))).toEqual(["USER node"]);
    expect(run.filter((line) => line.startsWith("STOPSIGNAL "))).toEqual(["STOPSIGNAL SIGTERM"]);
    // USER comes before the command it is meant for.
    expect(run.findIndex((line) => line.startsWith("USER "))).toBeLessThan(
      run.findIndex((line) => line.startsWith("CMD ")),
    );
  });
});
