/**
 * Turns what the bot did (Bot API calls recorded by the double) into lines for the terminal:
 * messages with numbered buttons, edits, photos and files (with the path the demo wrote them to),
 * deletions and button toasts.
 */
import type { RecordedCall, SentMessage } from "../telegram-double/index.ts";

export interface Printed {
  lines: string[];
  /** The buttons, numbered from 1, of the message that was just shown (if it had any). */
  buttons?: { label: string; messageId: number; data?: string; url?: string; webApp?: string }[];
}

/** `saved`: where the demo wrote the message's picture or file, when it did. */
export function describeBotCall(
  call: RecordedCall,
  message: SentMessage | undefined,
  saved?: string,
): Printed | undefined {
  if (!call.ok) return undefined;
  switch (call.method) {
    case "sendMessage":
    case "sendPhoto":
    case "sendDocument":
    case "editMessageText":
    case "editMessageCaption":
    case "editMessageMedia":
    case "editMessageReplyMarkup": {
      if (message === undefined) return undefined;
      const edited = call.method.startsWith("edit");
      const lines: string[] = [];
      if (message.kind === "photo" || message.kind === "document") {
        const what = message.kind === "photo" ? "picture" : "file";
        const name =
          saved ?? message.file?.filename ?? (typeof message.media === "string" ? message.media : "?");
        const size = message.file ? `, ${Math.round(message.file.size / 102.4) / 10} KB` : "";
        lines.push(`[${what} ${name}${size}]`);
      }
      if (message.text) lines.push(...message.text.split("\n"));
      const buttons = inlineButtons(message);
      buttons.forEach((button, index) => {
        const opens = button.webApp ? " (opens the login page)" : "";
        lines.push(`   [${index + 1}] ${button.label}${button.url ? ` → ${button.url}` : ""}${opens}`);
      });
      if (edited) lines[0] = `(edited) ${lines[0] ?? ""}`;
      // A notice sent without a sound (its kind set to silent, or quiet hours) says so.
      if (call.payload?.disable_notification === true) lines[0] = `(silent) ${lines[0] ?? ""}`;
      return { lines, ...(buttons.length > 0 ? { buttons } : {}) };
    }
    case "deleteMessage":
      return { lines: ["(the bot deleted a message of yours, as it does with passwords and codes)"] };
    case "answerCallbackQuery": {
      const text = call.payload.text;
      return typeof text === "string" && text ? { lines: [`(notice) ${text}`] } : undefined;
    }
    default:
      return undefined;
  }
}

function inlineButtons(message: SentMessage): NonNullable<Printed["buttons"]> {
  const markup = message.replyMarkup;
  if (!markup || !("inline_keyboard" in markup)) return [];
  return markup.inline_keyboard.flat().map((button) => ({
    label: button.text,
    messageId: message.messageId,
    ...("callback_data" in button && button.callback_data ? { data: button.callback_data } : {}),
    ...("url" in button && button.url ? { url: button.url } : {}),
    ...("web_app" in button && button.web_app ? { webApp: button.web_app.url } : {}),
  }));
}
