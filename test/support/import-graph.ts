/**
 * The static import graph of the project's own modules, read from the source text: what Node
 * loads when it runs one entry file. Relative specifiers are followed; package specifiers are
 * collected by package name; `node:` builtins are left out. Type-only imports count too: the
 * file they name has to be there for anyone who type-checks what ships. `await import("…")` counts
 * as well (what ships must hold it), unless only what Node loads at start-up is asked for.
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, relative, resolve } from "node:path";

export interface ImportGraph {
  /** Every project file reached, relative to the root, each with the file that first imported it. */
  files: Map<string, string | undefined>;
  /** Package names reached, each with the project file that first imported it. */
  packages: Map<string, string>;
}

// `import x from "…"`, `import { a, type b } from "…"`, `export * as n from "…"`, `import "…"`:
// the clause between the keyword and `from` holds only names, braces, commas and stars.
const STATIC = /^\s*(?:import|export)\s+(?:[\w$*{},\s]*?\s*from\s*)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s/;

/**
 * The specifiers a source file names. `atStart`: only the static imports that carry values, what
 * Node loads before the file's code runs (no `import type`, no `await import()`).
 */
export function specifiersOf(source: string, options: { atStart?: boolean } = {}): string[] {
  const matches = options.atStart
    ? [...source.matchAll(STATIC)].filter((match) => !TYPE_ONLY.test(match[0]))
    : [...source.matchAll(STATIC), ...source.matchAll(DYNAMIC)];
  return matches.map((match) => match[1] ?? "");
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** `atStart`: only what Node loads when the entry starts, before anything is imported at first use. */
export function importGraph(root: string, entry: string, options: { atStart?: boolean } = {}): ImportGraph {
  const files = new Map<string, string | undefined>([[entry, undefined]]);
  const packages = new Map<string, string>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const source = readFileSync(resolve(root, file), "utf8");
    for (const specifier of specifiersOf(source, options)) {
      if (specifier.startsWith(".")) {
        const target = relative(root, resolve(root, dirname(file), specifier));
        if (!existsSync(resolve(root, target)))
          throw new Error(`${file} imports ${specifier}, which is not there`);
        if (!files.has(target)) {
          files.set(target, file);
          queue.push(target);
        }
      } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
        const name = packageName(specifier);
        if (!packages.has(name)) packages.set(name, file);
      }
    }
  }
  return { files, packages };
}

/** How the entry reaches `file`: entry → … → file. */
export function chainTo(graph: ImportGraph, file: string): string {
  const chain: string[] = [];
  for (let at: string | undefined = file; at !== undefined; at = graph.files.get(at)) chain.unshift(at);
  return chain.join(" → ");
}
