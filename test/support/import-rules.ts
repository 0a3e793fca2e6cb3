/**
 * The import rules of `.dependency-cruiser.cjs` (their one source), run and written out:
 * - `cruiseRules(root)`: dependency-cruiser's `cruise()` over `src/` with those rules, as the CLI
 *   runs them (test/layers.test.ts);
 * - `rulesSection()`: ARCHITECTURE.md's table "Folders and what each may import" and the rules
 *   beside it, written from the layers; `npm run import-rules` puts it into ARCHITECTURE.md, and
 *   test/layers.test.ts fails when the file says something else;
 * - `npm run import-rules -- --figures`: the import graph's figures (files, edges, circles), with
 *   and without the type-only imports.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseResult, type IDependency, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const ARCHITECTURE = join(ROOT, "ARCHITECTURE.md");

export interface Item {
  path?: string;
  package?: string;
  note?: string;
  typesOnly?: boolean;
}

export interface Layer {
  files: string[];
  open?: boolean;
  job: string;
  may: Item[] | "everything" | "everything in production";
}

export interface Rule {
  name: string;
  comment: string;
}

interface RulesFile {
  layers: Layer[];
  rules: Rule[];
  notInProduction: string[];
}

/** The layers and rules as `.dependency-cruiser.cjs` holds them (not enumerable: the CLI refuses extra keys). */
export function rulesFile(): RulesFile {
  const required: unknown = createRequire(import.meta.url)(CONFIG);
  return required as RulesFile;
}

/** A violation as one line: `rule: from → to`. */
export function violationLine(violation: IViolation): string {
  const cycle = violation.cycle?.map((step) => step.name).join(" → ");
  return `${violation.rule.name}: ${violation.from} → ${cycle ?? violation.to}`;
}

/** Cruises `files` (relative to `baseDir`) with the rules, as `npx depcruise` does. */
export async function cruiseRules(baseDir: string, files: string[] = ["src"]): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(CONFIG);
  const { output } = await cruise(files, { ...options, baseDir, outputType: "json" });
  return typeof output === "string" ? (JSON.parse(output) as ICruiseResult) : output;
}

const shortPath = (path: string) => `\`${path}\``;

function itemText(item: Item): string {
  const name = item.path ?? item.package ?? "";
  return `\`${name}\`${item.typesOnly ? " types only" : ""}${item.note ? ` (${item.note})` : ""}`;
}

function mayText(layer: Layer, notInProduction: readonly string[]): string {
  if (layer.may === "everything") return "everything";
  if (layer.may === "everything in production")
    return `everything in production (never ${notInProduction.map(shortPath).join(", ")})`;
  return layer.may.length === 0 ? "—" : layer.may.map(itemText).join(", ");
}

const BEGIN = "<!-- import-rules: begin -->";
const WRITTEN_BY =
  "<!-- Written by `npm run import-rules` from .dependency-cruiser.cjs: change the rules there. -->";
const END = "<!-- import-rules: end -->";

/** What ARCHITECTURE.md holds between its import-rules markers. */
export function rulesSection(): string {
  const { layers, rules, notInProduction } = rulesFile();
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = layers.map((layer) => {
    const folder = layer.files.map((file, i) => shortPath(i === 0 ? `src/${file}` : file)).join(", ");
    const open = layer.open ? `. Every folder may import ${layer.files.length > 1 ? "them" : "it"}` : "";
    return `| ${folder} | ${cell(layer.job + open)} | ${cell(mayText(layer, notInProduction))} |`;
  });
  return [
    BEGIN,
    WRITTEN_BY,
    "",
    "| folder | its job | may import |",
    "|---|---|---|",
    ...rows,
    "",
    "Beside the table, everywhere:",
    "",
    ...rules.map((rule) => `- \`${rule.name}\`: ${rule.comment}`),
    "",
    END,
  ].join("\n");
}

/** ARCHITECTURE.md as it is, and as it would be with the section written anew. */
export function architecture(): { now: string; written: string } {
  const now = readFileSync(ARCHITECTURE, "utf8");
  const begin = now.indexOf(BEGIN);
  const end = now.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`ARCHITECTURE.md has no import-rules markers (${BEGIN})`);
  return { now, written: now.slice(0, begin) + rulesSection() + now.slice(end + END.length) };
}

const isLocal = (dependency: IDependency) => dependency.resolved.startsWith("src/");
const isTypeOnly = (dependency: IDependency) => dependency.dependencyTypes.includes("type-only");

/** Edges between files under src/ that lie on a circle (both ends in one strongly connected part). */
function circularEdges(edges: ReadonlyArray<readonly [string, string]>): number {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const part = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  let parts = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (!part.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) === index.get(node)) {
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        part.set(top, parts);
        if (top === node) break;
      }
      parts++;
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return edges.filter(([from, to]) => part.get(from) === part.get(to)).length;
}

/** The import graph's figures: files under src/, edges between them, those on circles. */
export function figures(result: ICruiseResult) {
  const modules = result.modules.filter((module) => module.source.startsWith("src/"));
  const all = modules.flatMap((module) =>
    module.dependencies.filter(isLocal).map((dependency) => ({ from: module.source, dependency })),
  );
  const values = all.filter(({ dependency }) => !isTypeOnly(dependency));
  return {
    files: modules.length,
    edges: all.length,
    circularEdges: all.filter(({ dependency }) => dependency.circular).length,
    circularEdgesBySccs: circularEdges(
      all.map(({ from, dependency }) => [from, dependency.resolved] as const),
    ),
    edgesWithoutTypeOnly: values.length,
    circularEdgesWithoutTypeOnly: circularEdges(
      values.map(({ from, dependency }) => [from, dependency.resolved] as const),
    ),
  };
}

if (import.meta.main) {
  if (process.argv.includes("--figures")) {
    const graph = figures(await cruiseRules(ROOT));
    console.log(
      [
        `files under src/: ${graph.files}`,
        `edges between them: ${graph.edges}, on circles: ${graph.circularEdges}`,
        `without the type-only imports: ${graph.edgesWithoutTypeOnly} edges, on circles: ${graph.circularEdgesWithoutTypeOnly}`,
      ].join("\n"),
    );
  } else {
    const { now, written } = architecture();
    if (written !== now) writeFileSync(ARCHITECTURE, written);
    console.log(
      written === now
        ? "ARCHITECTURE.md: the import rules were already written."
        : "ARCHITECTURE.md: written.",
    );
  }
}
