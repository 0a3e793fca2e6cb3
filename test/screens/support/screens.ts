/**
 * What the catalogue keeps of each screen: the words a user reads (message text or caption, a
 * toast, an inline result, the command menu) and the labels of its buttons, under the title of the
 * step that produced it. Recorded from the Bot API double's logs, so nothing the bot sends escapes.
 */
import type { InlineKeyboardButton, KeyboardButton } from "grammy/types";
import type { BotApiDouble, ReplyMarkup, SentMessage } from "../../../src/telegram-double/index.ts";

export interface Screen {
  /** The step that showed it ("/buy → amount", "notice: order settled"). */
  title: string;
  /** What kind of thing it is: a message, an edit, a toast, a picture's caption… */
  kind: string;
  text: string;
  /** Button labels, row by row (inline or reply keyboard). */
  buttons: string[][];
  /** The language it must be in (the run's, or the one the user just switched to). */
  locale: string;
}

/** Labels of a keyboard, row by row, whatever kind it is. */
export function buttonLabels(markup: ReplyMarkup | undefined): string[][] {
  if (markup === undefined) return [];
  if ("inline_keyboard" in markup)
    return markup.inline_keyboard.map((row) => row.map((b: InlineKeyboardButton) => b.text));
  if ("keyboard" in markup)
    return markup.keyboard.map((row) => row.map((b: KeyboardButton) => (typeof b === "string" ? b : b.text)));
  return [];
}

/**
 * Collects every screen the bot shows (one double per run, so every chat is the run's) while it runs, titled by the step
 * under way. Unsubscribe with `stop()`.
 */
export class ScreenLog {
  readonly screens: Screen[] = [];
  title = "(start)";
  /** The language screens must be in now: the run's, unless a step switched it. */
  locale: string;
  #stops: Array<() => void> = [];

  constructor(double: BotApiDouble, locale: string) {
    this.locale = locale;
    this.#stops.push(
      double.messageLog.subscribe((sent: SentMessage) => {
        const kind = `${sent.kind}${sent.edited ? " (edited)" : ""}`;
        this.screens.push({
          title: this.title,
          kind,
          text: sent.text,
          buttons: buttonLabels(sent.replyMarkup),
          locale: this.locale,
        });
      }),
      double.on("call", (call) => {
        const p = call.payload;
        if (call.method === "answerCallbackQuery" && typeof p.text === "string" && p.text !== "") {
          this.screens.push({
            title: this.title,
            kind: p.show_alert ? "alert" : "toast",
            text: p.text,
            buttons: [],
            locale: this.locale,
          });
        }
        if (call.method === "answerInlineQuery" && Array.isArray(p.results)) {
          for (const result of p.results as Array<Record<string, unknown>>) {
            const content = result.input_message_content as { message_text?: string } | undefined;
            const text = [result.title, result.description, content?.message_text, result.caption]
              .filter((part): part is string => typeof part === "string")
              .join("\n");
            const markup = result.reply_markup as ReplyMarkup | undefined;
            this.screens.push({
              title: this.title,
              kind: "inline result",
              text: stripTags(text),
              buttons: buttonLabels(markup),
              locale: this.locale,
            });
          }
        }
        // The menu is set once per language: each run keeps its own language's.
        if (call.method === "setMyCommands" && Array.isArray(p.commands) && p.language_code === this.locale) {
          const lines = (p.commands as Array<{ command: string; description: string }>).map(
            (c) => `/${c.command} ${c.description}`,
          );
          this.screens.push({
            title: this.title,
            kind: "command menu",
            text: lines.join("\n"),
            buttons: [],
            locale: this.locale,
          });
        }
      }),
    );
  }

  stop(): void {
    for (const stop of this.#stops) stop();
  }
}

/** Inline results carry HTML as the bot wrote it; the user reads it without tags. */
function stripTags(text: string): string {
  return text
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** The screens as Markdown, for review: one section per screen, its buttons below. */
export function screensMarkdown(
  heading: string,
  locale: string,
  screens: readonly Screen[],
  findings: ReadonlyArray<{ screen: number; finding: { rule: string; offending: string } }> = [],
): string {
  const parts = [`# ${heading}\n\n${screens.length} screens.\n`];
  screens.forEach((screen, index) => {
    const buttons = screen.buttons.map((row) => row.map((label) => `[${label}]`).join(" ")).join("\n");
    const flagged = findings
      .filter((f) => f.screen === index)
      .map((f) => `> ⚠️ ${f.finding.rule}: ${f.finding.offending}`)
      .join("\n");
    parts.push(
      `## ${index + 1}. ${screen.title} — ${screen.kind}${screen.locale === locale ? "" : ` (in ${screen.locale})`}\n\n\`\`\`text\n${screen.text}\n\`\`\`\n${buttons ? `\n${buttons}\n` : ""}${flagged ? `\n${flagged}\n` : ""}`,
    );
  });
  return parts.join("\n");
}
