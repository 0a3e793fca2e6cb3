/**
 * The import rules of ARCHITECTURE.md, checked on the source. The rules between folders are read
 * from its table "Folders and what each may import" (test/support/import-table.ts says how a row
 * reads): the table is their one source, so a new folder or edge is a new row or word there. The
 * rules inside bot/ (no feature imports another feature…) are the prose under the table.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsIn, packageName, specifiersOf } from "./support/import-graph.ts";
import { importTable, refusal, rowOf } from "./support/import-table.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const rows = importTable(join(ROOT, "ARCHITECTURE.md"));

function filesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Every import of a file under `folder`: project files as root-relative paths, packages by name. */
function importsOf(folder: string): { file: string; target: string }[] {
  return filesUnder(folder).flatMap((file) =>
    specifiersOf(readFileSync(join(ROOT, file), "utf8")).map((specifier) => ({
      file,
      target: specifier.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier,
    })),
  );
}

/** The imports of `folder` that reach any of `forbidden` (folders or package names). */
function violations(folder: string, forbidden: readonly string[]): string[] {
  return importsOf(folder)
    .filter(({ target }) => forbidden.some((f) => target === f || target.startsWith(`${f}/`)))
    .map(({ file, target }) => `${file} imports ${target}`);
}

/** What `file` imports, as the table's rules take it: a project path or a package, type-only or not. */
function edgesOf(file: string) {
  return importsIn(readFileSync(join(ROOT, file), "utf8"))
    .filter(({ specifier }) => !specifier.startsWith("node:"))
    .map(({ specifier, typeOnly }) =>
      specifier.startsWith(".")
        ? { kind: "path" as const, name: relative(ROOT, resolve(ROOT, dirname(file), specifier)), typeOnly }
        : { kind: "package" as const, name: packageName(specifier), typeOnly },
    );
}

describe("ARCHITECTURE.md's import table", () => {
  it("is read: every row names a folder or file that is there", () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows)
      for (const path of row.paths)
        expect(
          path.prefix && !path.name.endsWith("/") ? true : existsSync(join(ROOT, path.name)),
          path.name,
        ).toBe(true);
  });

  it("every file under src/ has its row", () => {
    const without = filesUnder("src").filter((file) => rowOf(rows, file) === undefined);
    expect(without).toEqual([]);
  });

  it("every import in src/ is one its row allows", () => {
    const refused = filesUnder("src").flatMap((file) =>
      edgesOf(file).flatMap((to) => refusal(rows, file, to) ?? []),
    );
    expect(refused).toEqual([]);
  });

  it("says no to the edges the house rules forbid (the table is not too loose to catch them)", () => {
    const refused = (file: string, name: string, typeOnly = false) =>
      refusal(rows, file, { kind: name.startsWith("src/") ? "path" : "package", name, typeOnly });
    // Nothing below bot/ knows Telegram, except notify/ (and the store's grammY types).
    expect(refused("src/exchange/http.ts", "grammy")).toBeDefined();
    expect(refused("src/orders/place.ts", "@grammyjs/conversations")).toBeDefined();
    expect(refused("src/session/sessions.ts", "src/bot/deps.ts", true)).toBeDefined();
    expect(refused("src/store/adapter.ts", "grammy")).toBeDefined();
    expect(refused("src/store/adapter.ts", "grammy", true)).toBeUndefined();
    expect(refused("src/notify/queue.ts", "grammy")).toBeUndefined();
    // Data flows one way: the exchange client knows no layer above it, session/ none above it.
    expect(refused("src/exchange/http.ts", "src/store/store.ts")).toBeDefined();
    expect(refused("src/session/sessions.ts", "src/orders/ledger.ts")).toBeDefined();
    // Edges the code once had: notify/ → bot/, bot/ → webapp/ (a circle), config and partner/ → market/.
    expect(refused("src/notify/delivery.ts", "src/bot/deps.ts", true)).toBeDefined();
    expect(refused("src/bot/bot.ts", "src/webapp/routes.ts")).toBeDefined();
    expect(refused("src/config/config.ts", "src/market/market-data-account.ts")).toBeDefined();
    expect(refused("src/partner/auth.ts", "src/market/market-data-account.ts")).toBeDefined();
    expect(refused("src/market/market-data-account.ts", "otplib")).toBeDefined();
    // metrics.ts: prom-client only, imported by the composition root only.
    expect(refused("src/process/metrics.ts", "src/store/store.ts")).toBeDefined();
    expect(refused("src/bot/middleware/update-logger.ts", "src/process/metrics.ts")).toBeDefined();
    expect(refused("src/orders/pipeline.ts", "prom-client")).toBeDefined();
    expect(refused("src/process/main.ts", "src/process/metrics.ts")).toBeUndefined();
    // Production never reaches the sandbox, the Bot API double or the demo.
    for (const file of ["src/process/main.ts", "src/bot/bot.ts", "src/process/webhook.ts"])
      for (const test of ["src/sandbox/server.ts", "src/telegram-double/double.ts", "src/demo/main.ts"])
        expect(refused(file, test), `${file} → ${test}`).toBeDefined();
    // The rows below: bot/ may import them all, the demo anything.
    expect(refused("src/bot/bot.ts", "src/orders/pipeline.ts")).toBeUndefined();
    expect(refused("src/demo/main.ts", "src/sandbox/server.ts")).toBeUndefined();
  });
});

describe("the rules inside bot/", () => {
  it("no feature imports another feature; flows/ imports no feature; ui/ no feature, flow or middleware", () => {
    const crossing = importsOf("src/bot/features").filter(({ target }) =>
      target.startsWith("src/bot/features/"),
    );
    expect(crossing.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
    expect(violations("src/bot/flows", ["src/bot/features"])).toEqual([]);
    expect(violations("src/bot/ui", ["src/bot/features", "src/bot/flows", "src/bot/middleware"])).toEqual([]);
  });

  it("only bot/ and the composition root import features", () => {
    const outside = ["src/notify", "src/alerts", "src/orders", "src/session", "src/market", "src/store"];
    for (const folder of outside) expect(violations(folder, ["src/bot/features"]), folder).toEqual([]);
    const root = ["src/process/jobs.ts", "src/process/services.ts", "src/process/main.ts"].flatMap((file) =>
      specifiersOf(readFileSync(join(ROOT, file), "utf8"))
        .filter((specifier) => specifier.includes("/features/"))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(root).toEqual([]);
  });
});
