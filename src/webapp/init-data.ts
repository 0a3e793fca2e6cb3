/**
 * Telegram's `initData`: the signed proof of who opened the Mini App (SECURITY.md, rule 2). The
 * check is Telegram's own (core.telegram.org/bots/webapps, "Validating data received via the Mini
 * App"): the HMAC-SHA-256 `hash` over every other field, keyed by the bot token, compared in
 * constant time. The `signature` field (Ed25519, for third parties who lack the token) is not
 * required: older clients do not send it, and @telegram-apps/init-data-node's `parse` refused
 * those. When present it is covered by the hash like any field. The age is checked against the
 * bot's clock, so a stolen or replayed `initData` is good for 15 minutes at most.
 *
 * @example
 * const check = checkInitData(body.initData, botToken, clock.now());
 * if (!check.ok) return answer(401);
 * await sessions.login(check.user.id, …);
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { sign } from "@telegram-apps/init-data-node";

export const INIT_DATA_MAX_AGE_MS = 15 * 60_000;
/** A client clock a little ahead of ours is not an attack. */
const FUTURE_SKEW_MS = 60_000;

export interface InitDataUser {
  id: number;
  firstName: string;
  languageCode: string | undefined;
}

export type InitDataCheck = { ok: true; user: InitDataUser } | { ok: false; reason: "invalid" | "stale" };

export function checkInitData(raw: unknown, botToken: string, now: number): InitDataCheck {
  if (typeof raw !== "string" || raw === "" || raw.length > 4096) return { ok: false, reason: "invalid" };
  const fields = signedFields(raw, botToken);
  const authDate = fields?.get("auth_date");
  const user = userOf(fields?.get("user"));
  if (authDate === undefined || !/^\d{1,12}$/.test(authDate) || user === undefined) {
    return { ok: false, reason: "invalid" };
  }
  const age = now - Number(authDate) * 1000;
  if (age > INIT_DATA_MAX_AGE_MS || age < -FUTURE_SKEW_MS) return { ok: false, reason: "stale" };
  return { ok: true, user };
}

/** The fields (but `hash`) when `hash` is this bot's HMAC over them; undefined otherwise. */
function signedFields(raw: string, botToken: string): Map<string, string> | undefined {
  const fields = new Map<string, string>();
  let hash: string | undefined;
  for (const [key, value] of new URLSearchParams(raw)) {
    // A repeated field would make what is checked and what is read two different things.
    if (fields.has(key) || (key === "hash" && hash !== undefined)) return undefined;
    if (key === "hash") hash = value;
    else fields.set(key, value);
  }
  if (hash === undefined || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
  // data_check_string: "key=value" of every received field but hash, sorted, joined by "\n".
  const dataCheckString = [...fields]
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const secretKey = createHmac("sha256", "WebAppData").update(botToken).digest();
  const expected = createHmac("sha256", secretKey).update(dataCheckString).digest();
  return timingSafeEqual(expected, Buffer.from(hash, "hex")) ? fields : undefined;
}

/** Telegram's WebAppUser, as far as the bot reads it. */
function userOf(json: string | undefined): InitDataUser | undefined {
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { id, first_name: firstName, language_code: languageCode } = parsed as Record<string, unknown>;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0 || typeof firstName !== "string") {
    return undefined;
  }
  return { id, firstName, languageCode: typeof languageCode === "string" ? languageCode : undefined };
}

/**
 * `initData` as Telegram would sign it for this user at `at`: for the demo's ready-made link and
 * for tests (the bot itself only checks).
 */
export function signInitData(
  user: { id: number; firstName: string; languageCode?: string },
  botToken: string,
  at: number,
): string {
  return sign(
    {
      user: {
        id: user.id,
        first_name: user.firstName,
        ...(user.languageCode ? { language_code: user.languageCode } : {}),
      },
    },
    botToken,
    new Date(at),
  );
}

/** The page's address with `initData` in the fragment, the way Telegram opens a Mini App. */
export function webAppLink(pageUrl: string, initData: string, themeParams?: Record<string, string>): string {
  const fragment = new URLSearchParams({ tgWebAppData: initData, tgWebAppVersion: "8.0" });
  if (themeParams) fragment.set("tgWebAppThemeParams", JSON.stringify(themeParams));
  return `${pageUrl}#${fragment.toString()}`;
}
