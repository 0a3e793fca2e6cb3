/**
 * A Telegram Bot API double on real HTTP: the real bot, pointed at it with `client.apiRoot`, runs
 * unchanged in tests, benchmarks and the terminal demo.
 *
 * @example
 * import { startBotApiDouble } from "./telegram-double/index.ts";
 * const double = await startBotApiDouble({ limits: false });
 * process.env.TELEGRAM_API_ROOT = double.apiRoot;
 */
export {
  BotApiDouble,
  type BotApiDoubleOptions,
  describeCall,
  type RecordedCall,
  startBotApiDouble,
} from "./double.ts";
export { BotApiError, type ErrorEnvelope } from "./errors.ts";
export { DEFAULT_GROUP_ID, FakeUser, type FakeUserOptions, type ReplyMatcher } from "./fake-user.ts";
export { type FormattedText, parseFormatted } from "./formatting.ts";
export type { RateLimits } from "./rate-limit.ts";
export type { FileSummary, ReplyMarkup, SentMessage } from "./state.ts";
export type { NewUpdate } from "./updates.ts";
