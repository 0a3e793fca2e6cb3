/**
 * What a recorded Bot API call looks like and how long a test waits for one: shared by the double
 * (double.ts) and the users it drives (fake-user.ts), which reach the double through a port of
 * their own instead of importing it back.
 */

/**
 * How long a test waits for the bot by default. Generous: it only matters when something is
 * wrong, and a loaded CI machine can take seconds for one reply.
 */
export const DEFAULT_WAIT_MS = 10_000;

/** One Bot API call as the double saw it, recorded when it was answered. */
export interface RecordedCall {
  /** Position in `calls`. */
  seq: number;
  /** The method name as the bot spelled it in the URL. */
  method: string;
  /** The parameters; JSON-in-form fields decoded, uploaded files as `{filename, size, mime}`. */
  payload: Record<string, unknown>;
  /** When the call arrived (ms since the epoch, by `limitsClock`). */
  at: number;
  /** The chat it was about, when there is one (for answerCallbackQuery: the chat of the tapped message). */
  chatId?: number;
  /** The user it answered (answerCallbackQuery, answerInlineQuery). */
  userId?: number;
  ok: boolean;
  result?: unknown;
  error?: { error_code: number; description: string; parameters?: { retry_after?: number } };
}
