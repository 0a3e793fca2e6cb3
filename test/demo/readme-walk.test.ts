/**
 * README.md's two demo walks, typed line by line through the demo's own command layer (app.ts,
 * what `npm run demo` runs without its terminal): every line works as written. The partner walk
 * once failed twice: a withdrawal right after adding a bank account hit its cooling-off, and
 * `:advance 24h` after `/recurring btc 25 daily 9` reported the run "missed while the bot was
 * offline", because moving the clock in one jump looked like downtime.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startDemo } from "../../src/demo/app.ts";
import { DemoFiles } from "../../src/demo/files.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The ```text blocks of README.md's "In the demo" section, as typed lines: account, then partner. */
function readmeWalks(): { account: string[]; partner: string[] } {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### In the demo"), readme.indexOf("## Configure"));
  const blocks = [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => (m[1] ?? "").trim().split("\n"));
  const [account, partner] = blocks;
  if (account === undefined || partner === undefined) throw new Error("README.md lost its demo walks");
  return { account, partner };
}

const folder = mkdtempSync(join(tmpdir(), "demo-walk-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Types the walk into a demo and returns everything it printed, as one transcript. */
async function typeWalk(lines: string[], partner: boolean): Promise<{ transcript: string; files: string }> {
  const printed: string[] = [];
  const files = new DemoFiles(join(folder, partner ? "partner" : "account"));
  files.prepare();
  const demo = await startDemo({
    partner,
    files,
    say: (text) => printed.push(text),
    out: (text) => printed.push(text),
  });
  try {
    for (const line of lines) {
      if (line === ":quit") break;
      printed.push(`you> ${line}`);
      await demo.handle(line);
    }
  } finally {
    await demo.close();
  }
  return { transcript: printed.join("\n"), files: files.folder };
}

/** What no line of a walk may get: a tap on nothing, a line the bot did not follow, a missed run. */
function expectNoStumble(transcript: string): void {
  expect(transcript).not.toMatch(/\(demo\) (There is no button|No message has buttons|Message \d+ has no)/);
  expect(transcript).not.toMatch(/did not understand|Unknown demo command/);
  expect(transcript).not.toMatch(/missed while the bot was offline/);
}

/** Every picture or file printed names a file the demo wrote. */
function expectFilesWritten(transcript: string): string[] {
  const paths = [...transcript.matchAll(/\[(?:picture|file) (\S+?)(?:, [\d.]+ KB)?\]/g)].map(
    (m) => m[1] ?? "",
  );
  for (const path of paths) expect(existsSync(path), path).toBe(true);
  return paths;
}

describe("README.md's demo walks, as written", () => {
  const walks = readmeWalks();

  it("the account walk: logs in, buys, an alert fires, and charts and a QR code are written to files", async () => {
    const { transcript } = await typeWalk(walks.account, false);
    expectNoStumble(transcript);
    expect(transcript).toMatch(/Logged in as demo@sandbox\.test/);
    expect(transcript).toMatch(/Order placed: buy BTC/);
    expect(transcript).toMatch(/bot #\d+> 🔔 Bitcoin/);
    // The group's answer to /price btc (with its chart once prices have been recorded for one).
    expect(transcript).toMatch(/group bot> (\[picture \S+, [\d.]+ KB\]\n\s+)?Bitcoin \(BTC\)/);
    // The deposit address's QR code, as a file.
    expect(expectFilesWritten(transcript).some((path) => path.endsWith("address.png"))).toBe(true);
  }, 120_000);

  it("the partner walk: signs up, withdraws after the cooling-off, and the recurring plan buys", async () => {
    const { transcript } = await typeWalk(walks.partner, true);
    expectNoStumble(transcript);
    expect(transcript).toMatch(/you@partner-demo\.test is open/);
    expect(transcript).toMatch(/accepted your withdrawal of €50\.00/);
    expect(transcript).not.toMatch(/cooling-off[^\n]*\n[^\n]*you> 480913/);
    expect(transcript).toMatch(/€25\.00 of BTC every day at 09:00 \(Europe\/Berlin\): bought/);
  }, 120_000);
});
