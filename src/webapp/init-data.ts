/**
 * Telegram's `initData`: the signed proof of who opened the Mini App (SECURITY.md, rule 2). The
 * HMAC is checked by @telegram-apps/init-data-node; the age is checked here against the bot's clock
 * (the library reads the wall clock, which tests and the demo do not run on), so a stolen or
 * replayed `initData` is good for 15 minutes at most.
 *
 * @example
 * const check = checkInitData(body.initData, botToken, clock.now());
 * if (!check.ok) return answer(401);
 * await sessions.login(check.user.id, …);
 */
import { parse, sign, validate } from "@telegram-apps/init-data-node";

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
  const parsed = signedData(raw, botToken);
  const user = parsed?.user;
  if (parsed === undefined || user === undefined || !Number.isSafeInteger(user.id) || user.id <= 0) {
    return { ok: false, reason: "invalid" };
  }
  const age = now - parsed.auth_date.getTime();
  if (age > INIT_DATA_MAX_AGE_MS || age < -FUTURE_SKEW_MS) return { ok: false, reason: "stale" };
  return { ok: true, user: { id: user.id, firstName: user.first_name, languageCode: user.language_code } };
}

function signedData(raw: string, botToken: string) {
  try {
    // expiresIn 0: the library's own age check reads Date.now(); checkInitData reads the bot's clock.
    validate(raw, botToken, { expiresIn: 0 });
    return parse(raw);
  } catch {
    return undefined;
  }
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
