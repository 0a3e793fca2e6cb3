/**
 * `initData` built by hand as a Telegram client sends it, following core.telegram.org/bots/webapps
 * ("Validating data received via the Mini App"), not by the library the bot's demo signs with: the
 * fields URL-encoded, `hash` the HMAC-SHA-256 over the others keyed by the bot token. No
 * `signature` field unless the caller adds one (older clients send none).
 *
 * @example
 * const initData = telegramInitData({ user: JSON.stringify({ id: 42, first_name: "Ada" }), auth_date: "1795521167" }, token);
 */
import { createHmac } from "node:crypto";

export function telegramInitData(fields: Record<string, string>, token: string): string {
  const dataCheckString = Object.entries(fields)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const secretKey = createHmac("sha256", "WebAppData").update(token).digest();
  const hash = createHmac("sha256", secretKey).update(dataCheckString).digest("hex");
  return new URLSearchParams({ ...fields, hash }).toString();
}

/** The fields of a Mini App opened by `user` at `at` (ms), as Telegram fills them. */
export function initDataFields(user: object, at: number): Record<string, string> {
  return {
    query_id: "AAHdF6IQAAAAAN0XohDhrOrc",
    user: JSON.stringify(user),
    auth_date: String(Math.floor(at / 1000)),
  };
}
