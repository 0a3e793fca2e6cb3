/**
 * ARCHITECTURE.md's table "Folders and what each may import", read as rules: the one source of
 * the import rules `test/layers.test.ts` checks on the code.
 *
 * How a row reads (write new rows in these forms, or the parser throws):
 * - **folder**: backticked paths; the first starts with `src/`, the others may leave it out
 *   (`src/process/main.ts`, `services.ts`). A folder ends with `/`; a trailing `*` takes every path that
 *   starts so (`src/metrics*`). A file belongs to the row whose path matches it longest.
 * - **its job**: prose; "every folder may import it" (or "them") opens the row's paths to all rows.
 * - **may import**, one of:
 *   - `—`: nothing of the project, none of the packages the table names;
 *   - "everything": anything;
 *   - "everything in production (never `a/`, `b/`)": anything but those;
 *   - "everything above … except `a/`, `b/`": the paths of the rows above it, any package;
 *   - a comma-separated list (commas inside parentheses do not split), each item led by one
 *     backticked path (`exchange/`, `money.ts`) or package (`grammy`, `@grammyjs/*`); an item
 *     that says "type only" or "types only" allows `import type` only; the rest is commentary.
 * A package the table names anywhere in "may import" is fenced: only rows that name it (or the
 * "everything" forms) may import it. Packages it never names (big.js, zod, pino…) are free.
 */
import { readFileSync } from "node:fs";

/** A path of the project (`src/…`, prefix when it ends with `/` or `*`) or a package (`pkg`, `@scope/*`). */
export interface Target {
  kind: "path" | "package";
  /** Exact name, or a prefix when `prefix`. */
  name: string;
  prefix: boolean;
}

export interface Allowed extends Target {
  typeOnly: boolean;
}

export interface Row {
  /** The paths the row governs (the folder column). */
  paths: Target[];
  /** Every row may import this row's paths. */
  open: boolean;
  may:
    | { kind: "list"; allowed: Allowed[] }
    | { kind: "everything"; also: Target[]; never: Target[] }
    | { kind: "above"; also: Target[]; never: Target[] };
  /** The row's folder cell, for messages. */
  label: string;
}

const TABLE_HEADING = "## Folders and what each may import";

function target(token: string, asPath: boolean): Target {
  const prefix = token.endsWith("*") || token.endsWith("/");
  const bare = token.endsWith("*") ? token.slice(0, -1) : token;
  const isPath = asPath || (!bare.startsWith("@") && (/\.ts$/.test(bare) || bare.endsWith("/")));
  if (!isPath) return { kind: "package", name: bare, prefix };
  return { kind: "path", name: bare.startsWith("src/") ? bare : `src/${bare}`, prefix };
}

function tokens(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
}

/** Splits at commas that are not inside parentheses. */
function items(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth--;
    if (char === "," && depth === 0) {
      out.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim() !== "") out.push(current.trim());
  return out;
}

function mayImport(cell: string, label: string): Row["may"] {
  const text = cell.trim();
  if (text === "—") return { kind: "list", allowed: [] };
  if (text.startsWith("everything")) {
    const cut = /\b(?:except|never)\b/.exec(text)?.index ?? text.length;
    // Named before "except": allowed anyway, but named, so a package there is fenced.
    const also = tokens(text.slice(0, cut)).map((t) => target(t, false));
    const never = tokens(text.slice(cut)).map((t) => target(t, true));
    return { kind: /^everything above\b/.test(text) ? "above" : "everything", also, never };
  }
  return {
    kind: "list",
    allowed: items(text).map((item) => {
      const first = tokens(item)[0];
      if (first === undefined) throw new Error(`${label}: "${item}" names no backticked path or package`);
      return { ...target(first, false), typeOnly: /\btypes? only\b/.test(item) };
    }),
  };
}

/** The rows of the table, in order. */
export function importTable(markdownFile: string): Row[] {
  const lines = readFileSync(markdownFile, "utf8").split("\n");
  const start = lines.indexOf(TABLE_HEADING);
  if (start === -1) throw new Error(`no "${TABLE_HEADING}" in ${markdownFile}`);
  const table: string[][] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]?.trim() ?? "";
    if (line.startsWith("|"))
      table.push(
        line
          .slice(1, -1)
          .split("|")
          .map((cell) => cell.trim()),
      );
    else if (table.length > 0) break;
  }
  const [header, separator, ...body] = table;
  const folderAt = header?.indexOf("folder") ?? -1;
  const jobAt = header?.indexOf("its job") ?? -1;
  const mayAt = header?.indexOf("may import") ?? -1;
  if (folderAt === -1 || jobAt === -1 || mayAt === -1 || separator === undefined)
    throw new Error(`the table under "${TABLE_HEADING}" needs the columns folder, its job, may import`);
  return body.map((cells) => {
    const label = cells[folderAt] ?? "";
    const paths = tokens(label).map((t) => target(t, true));
    if (paths.length === 0) throw new Error(`a row of the table names no folder: ${cells.join(" | ")}`);
    return {
      paths,
      label,
      open: /\bevery folder may import (?:it|them)\b/i.test(cells[jobAt] ?? ""),
      may: mayImport(cells[mayAt] ?? "", label),
    };
  });
}

export function covers(t: Target, name: string): boolean {
  return t.prefix ? name.startsWith(t.name) : name === t.name;
}

/** The row that governs a project file: the one whose path matches it longest. */
export function rowOf(rows: readonly Row[], file: string): Row | undefined {
  let best: { row: Row; length: number } | undefined;
  for (const row of rows)
    for (const path of row.paths)
      if (covers(path, file) && path.name.length > (best?.length ?? -1))
        best = { row, length: path.name.length };
  return best?.row;
}

/** The packages the table names in "may import": only the rows that name them may import them. */
export function fencedPackages(rows: readonly Row[]): Target[] {
  return rows
    .flatMap((row) => (row.may.kind === "list" ? row.may.allowed : row.may.also))
    .filter((t) => t.kind === "package");
}

/**
 * Why `file` may not import `to` (a root-relative path or a package name), or undefined when it
 * may. `typeOnly`: the import carries types only.
 */
export function refusal(
  rows: readonly Row[],
  file: string,
  to: { kind: "path" | "package"; name: string; typeOnly: boolean },
): string | undefined {
  const row = rowOf(rows, file);
  if (row === undefined) return `${file} has no row in the table`;
  const index = rows.indexOf(row);
  if (to.kind === "path") {
    const owner = rowOf(rows, to.name);
    if (owner === row) return undefined; // a folder imports itself
    if (owner?.open) return undefined;
  }
  const fence = fencedPackages(rows);
  const may = row.may;
  const named = (list: readonly Target[]) => list.some((t) => t.kind === to.kind && covers(t, to.name));
  const says = `${file} imports ${to.name}; the row ${row.label} does not allow it`;
  switch (may.kind) {
    case "everything":
      return named(may.never) ? says : undefined;
    case "above": {
      if (named(may.never)) return says;
      if (to.kind === "package") return undefined;
      const owner = rowOf(rows, to.name);
      return owner !== undefined && rows.indexOf(owner) < index ? undefined : `${says} (not a row above it)`;
    }
    case "list": {
      const allowed = may.allowed.find((t) => t.kind === to.kind && covers(t, to.name));
      if (allowed === undefined) {
        if (to.kind === "package" && !fence.some((t) => covers(t, to.name))) return undefined;
        return says;
      }
      return allowed.typeOnly && !to.typeOnly ? `${says} (types only)` : undefined;
    }
  }
}
