/**
 * Every environment variable the code reads is explained where an operator or a new user looks:
 * `.env.example` and the README. `src/config/` is the only reader for `npm start` (its names are the
 * upper-case string literals and the upper-case keys of its schemas); the demo and the sandbox read a
 * few of their own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
/** The operating system's, not ours. */
const SYSTEM = new Set(["USER", "PATH", "HOME", "CI"]);

function configVariables(): string[] {
  const files = readdirSync(join(ROOT, "src/config"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `src/config/${f}`);
  return files.flatMap((f) =>
    [...read(f).matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"|^\s*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\??:/gm)].map(
      (m) => m[1] ?? m[2] ?? "",
    ),
  );
}

function toolVariables(): string[] {
  const files = [
    ...readdirSync(join(ROOT, "src/demo")).map((f) => `src/demo/${f}`),
    "src/sandbox/main.ts",
  ].filter((f) => f.endsWith(".ts"));
  return files.flatMap((f) =>
    [...read(f).matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] ?? ""),
  );
}

describe("environment variables", () => {
  const variables = [...new Set([...configVariables(), ...toolVariables()])].filter((v) => !SYSTEM.has(v));

  it("finds the variables it checks", () => {
    expect(variables).toEqual(expect.arrayContaining(["BOT_TOKEN", "SECRETS_KEY", "DEMO_LANGUAGE"]));
  });

  it.each(variables)("%s is in .env.example and the README", (variable) => {
    const named = new RegExp(`\\b${variable}\\b`);
    expect(read(".env.example"), ".env.example").toMatch(named);
    expect(read("README.md"), "README.md").toMatch(named);
  });
});
