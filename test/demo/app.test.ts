/**
 * The demo's command layer waits for the bot to be done with a line, not for a reply: a tap
 * answered by a toast (answerCallbackQuery) and an edit got no new message, and the demo held the
 * prompt 3 s waiting for one, so the next line typed meanwhile merged with what came late.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDemo } from "../../src/demo/app.ts";
import { DemoFiles } from "../../src/demo/files.ts";

const folder = mkdtempSync(join(tmpdir(), "demo-app-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the demo's command layer", () => {
  it("is done with a tap answered by a toast once the bot is, with the toast printed", async () => {
    const printed: string[] = [];
    const files = new DemoFiles(folder);
    const demo = await startDemo({
      partner: false,
      files,
      say: (t) => printed.push(t),
      out: (t) => printed.push(t),
    });
    try {
      for (const line of ["/login", "demo@sandbox.test", "demo-password-1", ":code send"])
        await demo.handle(line);
      await demo.handle("/alert btc above 65000");
      await demo.handle(":price btc 66000");
      const notice = printed.findLast((text) => text.includes("🔔 Bitcoin"));
      expect(notice).toMatch(/\[5\] 🗑 Remove this alert/);
      const started = Date.now();
      await demo.handle("#5");
      // Well under the 3 s the demo used to wait for a message that never came.
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(printed).toContain("bot> (notice) Alert removed.");
    } finally {
      await demo.close();
    }
  }, 60_000);
});
