/**
 * A kind's name decides nothing outside its descriptor (src/orders/kinds/). Code that compares a
 * kind with a name, switches on it, falls back to one or lists kinds by hand misses a new kind
 * without a word from the compiler (a new outflow kind once passed the allowlist that way); it
 * asks the kind's facts instead (family, destination, cap, flow, words: orders/kinds/kind.ts).
 *
 * What is left alone: a feature building its own kind's request (`{ kind: "send", … }`, checked by
 * the compiler), a kind named as an argument, and the typed card tables below, which the compiler
 * checks for completeness over every kind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ACTION_KINDS } from "../../src/orders/kinds/index.ts";

const ROOT = join(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");

type Rule = "compared" | "switched" | "fallback" | "listed" | "table-key";

/** Where a kind's name may stand, and why. Keep it short: each entry is a place the compiler checks. */
const ALLOWED: readonly { file: string; rule: Rule; why: string }[] = [
  {
    file: "src/bot/ui/order-card.ts",
    rule: "table-key",
    why: "CARDS is typed over every kind, WORDS over every card-words key: a missing entry does not compile",
  },
  {
    file: "src/bot/ui/quote-card.ts",
    rule: "table-key",
    why: "SUMMARIES and FEE_TOLD_WHEN_SETTLED are typed over every kind",
  },
  {
    file: "src/plans/runner.ts",
    rule: "compared",
    why: "a plan's run is a partner buy by definition; the placed action is narrowed to read its quote",
  },
];

interface Finding {
  line: number;
  rule: Rule;
  text: string;
}

/** Comments blanked (line numbers kept): a comment may name kinds freely. */
function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .replace(
      /(^|[^:"'`\\])\/\/[^\n]*/g,
      (comment, before: string) => before + " ".repeat(comment.length - 1),
    );
}

/** A quoted name of `names` (group 2). */
const literalOf = (names: readonly string[]) =>
  `(["'])(${names.map((n) => n.replace(/[-]/g, "\\-")).join("|")})\\1`;

const lineAt = (source: string, index: number) => source.slice(0, index).split("\n").length;

/** The places in `source` where one of `names` is used to decide on a kind. */
function kindNameFindings(source: string, names: readonly string[]): Finding[] {
  const code = withoutComments(source);
  const partner = names.filter((n) => n.startsWith("partner-"));
  const findings: Finding[] = [];
  const add = (index: number, rule: Rule, text: string) =>
    findings.push({ line: lineAt(code, index), rule, text: text.trim() });
  // An action's, request's or refusal's `.kind` against any kind's name; a variable called `kind`
  // only against a partner kind's (account kinds' names are also trade sides, cap names, API types).
  const subjects = [
    { subject: String.raw`\.kind\b\)?`, literal: literalOf(names) },
    { subject: String.raw`(?<![.\w])kind\b\)?`, literal: literalOf(partner) },
  ];
  for (const { subject, literal } of subjects) {
    for (const pattern of [
      new RegExp(`${subject}\\s*[!=]==?\\s*${literal}`, "g"),
      new RegExp(`${literal}\\s*[!=]==?\\s*[\\w.?]*${subject}`, "g"),
    ]) {
      for (const match of code.matchAll(pattern)) add(match.index, "compared", match[0]);
    }
    for (const match of code.matchAll(new RegExp(`${subject}\\s*(?:\\?\\?|\\|\\|)\\s*${literal}`, "g"))) {
      add(match.index, "fallback", match[0]);
    }
  }
  const literal = literalOf(names);
  for (const match of code.matchAll(/switch\s*\([^()]*\.kind\)\s*\{/g)) {
    let depth = 0;
    let end = match.index + match[0].length - 1;
    for (; end < code.length; end++) {
      if (code[end] === "{") depth++;
      if (code[end] === "}" && --depth === 0) break;
    }
    const body = code.slice(match.index, end);
    for (const label of body.matchAll(new RegExp(`case\\s+${literal}\\s*:`, "g"))) {
      add(match.index + label.index, "switched", label[0]);
    }
  }
  for (const match of code.matchAll(/\[([^[\]]*)\]/g)) {
    const inside = [...(match[1] ?? "").matchAll(new RegExp(literal, "g"))].map((m) => m[2]);
    if (inside.length >= 2 && inside.some((n) => partner.includes(n ?? "")))
      add(match.index, "listed", match[0]);
  }
  for (const match of code.matchAll(new RegExp(`(?<!case\\s*)${literalOf(partner)}\\s*:`, "g"))) {
    add(match.index, "table-key", match[0]);
  }
  return findings;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Today's guards.ts before kinds carried their facts: the allowlist decided by name. */
const OLD_ALLOWLIST = `
      if (request.kind !== "send" && request.kind !== "withdraw" && request.kind !== "partner-withdraw") {
        return undefined;
      }
  switch (request.kind) {
    case "send":
      return \`send:\${request.currency}\`;
    case "withdraw":
    case "partner-withdraw":
      return "withdraw";
  }
  if (request.kind !== "sell" && request.kind !== "partner-sell") return new Big(request.amount);
`;

describe("kind names", () => {
  it("finds a kind decided by its name, as the allowlist once did", () => {
    const rules = kindNameFindings(OLD_ALLOWLIST, ACTION_KINDS).map((f) => f.rule);
    expect(rules.filter((rule) => rule === "compared")).toHaveLength(5);
    expect(rules.filter((rule) => rule === "switched")).toHaveLength(3);
    const other = `const words = ORDER_WORDS[action?.kind ?? "buy"]; first(["buy", "partner-buy"]);
      const sides = { "partner-buy": "buy" }; build({ kind: "send", currency }); latest(userId, "buy");`;
    expect(kindNameFindings(other, ACTION_KINDS).map((f) => f.rule)).toEqual([
      "fallback",
      "listed",
      "table-key",
    ]);
  });

  it("decides nothing by a kind's name outside src/orders/kinds/ and the typed card tables", () => {
    const found: string[] = [];
    for (const path of sourceFiles(SRC)) {
      const file = relative(ROOT, path).split("\\").join("/");
      if (file.startsWith("src/orders/kinds/")) continue;
      for (const finding of kindNameFindings(readFileSync(path, "utf8"), ACTION_KINDS)) {
        if (ALLOWED.some((allowed) => allowed.file === file && allowed.rule === finding.rule)) continue;
        found.push(`${file}:${finding.line} ${finding.rule}: ${finding.text}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("keeps each allowed place in use (an entry nothing needs goes)", () => {
    for (const allowed of ALLOWED) {
      const rules = kindNameFindings(readFileSync(join(ROOT, allowed.file), "utf8"), ACTION_KINDS);
      expect(
        rules.map((finding) => finding.rule),
        allowed.file,
      ).toContain(allowed.rule);
    }
  });
});
