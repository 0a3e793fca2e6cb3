/**
 * The import rules of ARCHITECTURE.md ("Folders and what each may import"), checked on the source:
 * data flows one way (bot → flows → orders / session → exchange), nothing below bot/ knows
 * Telegram except notify/, and no feature imports another feature.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { specifiersOf } from "./support/import-graph.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

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

const ABOVE_EXCHANGE = ["src/store", "src/session", "src/orders", "src/market", "src/alerts", "src/notify"];
const TELEGRAM = ["grammy", "@grammyjs/conversations", "@grammyjs/i18n", "@grammyjs/runner", "src/bot"];

describe("the layers of ARCHITECTURE.md", () => {
  it("exchange/ knows no store, session, orders, market, alerts, notify or Telegram", () => {
    expect(violations("src/exchange", [...ABOVE_EXCHANGE, ...TELEGRAM])).toEqual([]);
  });

  it("store/ knows no exchange, session, orders or bot (grammY's StorageAdapter type only)", () => {
    const found = violations("src/store", [
      "src/exchange",
      "src/session",
      "src/orders",
      "src/bot",
      "src/notify",
    ]);
    expect(found).toEqual([]);
    const grammy = importsOf("src/store").filter(({ target }) => target === "grammy");
    for (const { file } of grammy) {
      expect(readFileSync(join(ROOT, file), "utf8")).toMatch(/import type \{[^}]*\} from "grammy"/);
    }
  });

  it("session/, orders/, market/ and alerts/ know nothing of Telegram or of notify/", () => {
    for (const folder of ["src/session", "src/orders", "src/market", "src/alerts"]) {
      expect(violations(folder, [...TELEGRAM, "src/notify"]), folder).toEqual([]);
    }
  });

  it("session/ does not reach up into orders/, market/ or alerts/", () => {
    expect(violations("src/session", ["src/orders", "src/market", "src/alerts"])).toEqual([]);
  });

  it("nothing in production imports the sandbox, the Bot API double or the demo", () => {
    const production = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((entry) => !["sandbox", "telegram-double", "demo"].includes(entry.name))
      .map((entry) => `src/${entry.name}`);
    for (const folder of production.filter((path) => !path.endsWith(".ts"))) {
      expect(violations(folder, ["src/sandbox", "src/telegram-double", "src/demo"]), folder).toEqual([]);
    }
  });

  it("no feature imports another feature; flows/ imports no feature; ui/ no feature, flow or middleware", () => {
    const crossing = importsOf("src/bot/features").filter(({ target }) =>
      target.startsWith("src/bot/features/"),
    );
    expect(crossing.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
    expect(violations("src/bot/flows", ["src/bot/features"])).toEqual([]);
    expect(violations("src/bot/ui", ["src/bot/features", "src/bot/flows", "src/bot/middleware"])).toEqual([]);
  });

  it("metrics.ts knows only prom-client, and only the composition root imports it", () => {
    const own = specifiersOf(readFileSync(join(ROOT, "src/metrics.ts"), "utf8"));
    expect(own).toEqual(["prom-client"]);
    const root = ["src/main.ts", "src/services.ts", "src/jobs.ts", "src/webhook.ts", "src/readiness.ts"];
    const importers = filesUnder("src")
      .filter((file) => file !== "src/metrics.ts")
      .filter((file) =>
        specifiersOf(readFileSync(join(ROOT, file), "utf8")).some(
          (specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)) === "src/metrics.ts",
        ),
      );
    expect(importers.filter((file) => !root.includes(file))).toEqual([]);
    const outside = importsOf("src").filter(
      ({ file, target }) => target === "prom-client" && file !== "src/metrics.ts",
    );
    expect(outside.map(({ file }) => file)).toEqual([]);
  });

  it("only bot/ and the composition root import features", () => {
    const outside = ["src/notify", "src/alerts", "src/orders", "src/session", "src/market", "src/store"];
    for (const folder of outside) expect(violations(folder, ["src/bot/features"]), folder).toEqual([]);
    const root = ["src/jobs.ts", "src/services.ts", "src/main.ts"].flatMap((file) =>
      specifiersOf(readFileSync(join(ROOT, file), "utf8"))
        .filter((specifier) => specifier.includes("/features/"))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(root).toEqual([]);
  });
});
