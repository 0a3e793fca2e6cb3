import { describe, expect, it } from "vitest";
import { commandEntities } from "../../src/telegram-double/formatting.ts";
import { BotApiError, parseFormatted } from "../support/chat.ts";

function refusal(source: string, mode: string): string {
  try {
    parseFormatted(source, mode);
  } catch (error) {
    if (error instanceof BotApiError) return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("parse_mode as Telegram applies it", () => {
  it("HTML: strips tags, decodes entities and reports entity offsets in UTF-16 units", () => {
    expect(
      parseFormatted('€ <b>1 &lt; 2</b> <a href="https://x.io">link</a> &amp; <i></i>ok', "HTML"),
    ).toEqual({
      text: "€ 1 < 2 link & ok",
      entities: [
        { type: "bold", offset: 2, length: 5 },
        { type: "text_link", offset: 8, length: 4, url: "https://x.io" },
      ],
    });
    expect(parseFormatted("<pre><code>x</code></pre>", "HTML").entities.map((e) => e.type)).toEqual([
      "pre",
      "code",
    ]);
    expect(parseFormatted('<pre><code class="language-ts">x</code></pre>', "HTML").entities).toEqual([
      { type: "pre", offset: 0, length: 1, language: "ts" },
    ]);
  });

  it("HTML: refuses unknown, unclosed and crossed tags", () => {
    expect(refusal("<div>x</div>", "HTML")).toBe(
      `Bad Request: can't parse entities: Unsupported start tag "div" at byte offset 0`,
    );
    expect(refusal("<b>x", "HTML")).toMatch(/Can't find end tag corresponding to start tag "b"/);
    expect(refusal("<b><i>x</b></i>", "HTML")).toMatch(
      /Unmatched end tag at byte offset 7, expected "<\/i>", found "<\/b>"/,
    );
    expect(refusal("x</b>", "HTML")).toMatch(/Unexpected end tag/);
    expect(refusal("a <b", "HTML")).toMatch(/Unclosed start tag/);
  });

  it("MarkdownV2: escapes, entities and reserved characters", () => {
    expect(parseFormatted("*Total:* 1\\.5 BTC \\(fee\\) [site](https://x.io)", "MarkdownV2")).toEqual({
      text: "Total: 1.5 BTC (fee) site",
      entities: [
        { type: "bold", offset: 0, length: 6 },
        { type: "text_link", offset: 21, length: 4, url: "https://x.io" },
      ],
    });
    expect(refusal("100!", "MarkdownV2")).toMatch(/Character '!' is reserved/);
    expect(refusal("*open", "MarkdownV2")).toMatch(/Can't find end of Bold entity at byte offset 0/);
  });

  it("plain text stays as it is", () => {
    expect(parseFormatted("<b>not html</b>", undefined)).toEqual({ text: "<b>not html</b>", entities: [] });
  });

  it("marks commands, including /cmd@botname, as bot_command entities", () => {
    expect(commandEntities("/price@sandbox_exchange_bot btc")).toEqual([
      { type: "bot_command", offset: 0, length: 27 },
    ]);
    expect(commandEntities("not/a command")).toEqual([]);
  });
});
