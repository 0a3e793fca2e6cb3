/**
 * A package the code reads the internals of is pinned: package.json names one exact version, and
 * that version is the one installed. Its contract test starts here, so an upgrade (a new pin) runs
 * the contract against the new version before anything else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** What package.json asks for and what node_modules holds, for a package of "dependencies". */
export function pinOf(name: string): { asked: string | undefined; installed: unknown } {
  const dependencies = json(join(ROOT, "package.json")).dependencies as Record<string, string>;
  return {
    asked: dependencies[name],
    installed: json(join(ROOT, "node_modules", name, "package.json")).version,
  };
}
