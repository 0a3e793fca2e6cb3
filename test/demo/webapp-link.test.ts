/** The demo's way to the Mini App login page: `:webapp`, and a tap on a Log in button. */
import { describe, expect, it } from "vitest";
import { type DemoCommandContext, handleDemoCommand } from "../../src/demo/commands.ts";
import { describeBotCall } from "../../src/demo/transcript.ts";
import type { RecordedCall, SentMessage } from "../../src/telegram-double/index.ts";
import { checkInitData, signInitData, webAppLink } from "../../src/webapp/init-data.ts";

const TOKEN = "123456:demo-token-for-the-double-xyz";
const NOW = Date.parse("2026-11-22T10:00:00Z");

function context(buttons: NonNullable<ReturnType<DemoCommandContext["buttons"]>>["buttons"]): {
  ctx: DemoCommandContext;
  printed: string[];
} {
  const printed: string[] = [];
  const link = () =>
    webAppLink("http://127.0.0.1:9/webapp/login", signInitData({ id: 4242, firstName: "Demo" }, TOKEN, NOW));
  const ctx = {
    buttons: () => ({ messageId: 5, buttons }),
    webAppLink: link,
    print: (text: string) => printed.push(text),
  };
  // Only what these two commands touch; the rest of the context is never reached.
  return { ctx: ctx as Partial<DemoCommandContext> as DemoCommandContext, printed };
}

describe("the demo's login page link", () => {
  it(":webapp prints a link whose fragment carries initData signed for the demo user", async () => {
    const { ctx, printed } = context([]);
    await handleDemoCommand(":webapp", ctx);
    const link = /http:\/\/\S+/.exec(printed[0] ?? "")?.[0] ?? "";
    const initData = new URLSearchParams(new URL(link).hash.slice(1)).get("tgWebAppData") ?? "";
    expect(checkInitData(initData, TOKEN, NOW)).toMatchObject({ ok: true, user: { id: 4242 } });
  });

  it("shows a web_app button as opening the login page, and a tap on it prints the link", async () => {
    const message = {
      messageId: 5,
      kind: "text",
      text: "Welcome",
      replyMarkup: {
        inline_keyboard: [[{ text: "🔐 Log in", web_app: { url: "http://127.0.0.1:9/webapp/login" } }]],
      },
    } as Partial<SentMessage> as SentMessage;
    const call = { ok: true, method: "sendMessage" } as Partial<RecordedCall> as RecordedCall;
    const printed = describeBotCall(call, message);
    expect(printed?.lines).toContain("   [1] 🔐 Log in (opens the login page)");
    const { ctx, printed: lines } = context(printed?.buttons ?? []);
    await handleDemoCommand("#1", ctx);
    expect(lines[0]).toMatch(/Open it in your browser: http:\/\/127\.0\.0\.1:9\/webapp\/login#tgWebAppData=/);
  });
});
