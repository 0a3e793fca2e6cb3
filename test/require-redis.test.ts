/**
 * CI cannot skip Redis: .ci/run sets REQUIRE_REDIS=1, and with it a missing redis-server fails the
 * Redis tests instead of skipping them; without it they are skipped with a printed reason.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const support = fileURLToPath(new URL("./support/redis.ts", import.meta.url));

/** What redisAvailable() does in a fresh process with this environment. */
function probe(env: Record<string, string>): string {
  const script = `import { redisAvailable } from ${JSON.stringify(support)};
    try { console.log(redisAvailable() ? "run" : "skip"); } catch (error) { console.log("fail: " + error.message); }`;
  const { PATH, HOME } = process.env;
  const result = spawnSync(process.execPath, ["--no-warnings", "--input-type=module", "-e", script], {
    env: { PATH: PATH ?? "", HOME: HOME ?? "", ...env },
    encoding: "utf8",
  });
  return result.stdout.trim();
}

describe("REQUIRE_REDIS", () => {
  it("turns a missing redis-server from a skip into a failure", () => {
    const missing = { REDIS_SERVER: "/nonexistent/redis-server" };
    expect(probe(missing)).toBe("skip");
    expect(probe({ ...missing, REQUIRE_REDIS: "1" })).toMatch(/^fail: REQUIRE_REDIS=1, and no redis-server/);
  });

  it("is set by .ci/run", () => {
    const ci = readFileSync(fileURLToPath(new URL("../.ci/run", import.meta.url)), "utf8");
    expect(ci).toMatch(/^export REQUIRE_REDIS=1$/m);
  });
});
