/**
 * The project stands on its own: comments cite its own documents (SECURITY.md, ARCHITECTURE.md,
 * README.md), never issue numbers or files outside the repository, which a reader of the code
 * does not have.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUTSIDE = /\b(?:PRODUCT\.md|DESIGN\.md|exchange-api\.md)\b|\bissue \d+\b/i;

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("citations", () => {
  it("no source cites an issue number or a document outside the repository", () => {
    const found = ["src", "test", "bench"]
      .flatMap(sources)
      .filter((file) => !file.endsWith("citations.test.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, index) => ({ line, at: `${file.slice(ROOT.length)}:${index + 1}` }))
          .filter(({ line }) => OUTSIDE.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});
