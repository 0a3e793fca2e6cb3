/**
 * The Mini App's `initData` check is Telegram's documented one (the HMAC `hash`): an `initData`
 * with no `signature` field, as older Telegram clients send it, is accepted when its hash is right;
 * a wrong hash, another bot's, a changed or repeated field, and a stale or future `auth_date` are
 * not. The `initData` here is built by hand (test/support/init-data.ts, from Telegram's text), not by
 * the library the bot's demo signs with, so the check is held to Telegram's rules, not to the library.
 */
import { describe, expect, it } from "vitest";
import { checkInitData, INIT_DATA_MAX_AGE_MS, signInitData } from "../../src/webapp/init-data.ts";
import { initDataFields, telegramInitData as signedByHand } from "../support/init-data.ts";

const TOKEN = "123456789:TEST-token-of-this-bot-for-init-data";
const NOW = Date.parse("2026-11-22T10:00:00Z");
const ADA = { id: 4242, first_name: "Ada", language_code: "de" };

const telegramInitData = (fields: Record<string, string>, token = TOKEN) => signedByHand(fields, token);
const fieldsAt = (at: number, user: object = ADA) => initDataFields(user, at);

describe("checkInitData", () => {
  it("accepts initData without a signature field when its hash is right", () => {
    const initData = telegramInitData(fieldsAt(NOW));
    expect(initData).not.toContain("signature");
    expect(checkInitData(initData, TOKEN, NOW)).toEqual({
      ok: true,
      user: { id: 4242, firstName: "Ada", languageCode: "de" },
    });
  });

  it("accepts initData with a signature field (today's clients), the hash covering it", () => {
    const initData = telegramInitData({ ...fieldsAt(NOW), signature: "c2lnbmVkLWJ5LXRlbGVncmFt" });
    expect(checkInitData(initData, TOKEN, NOW)).toMatchObject({ ok: true, user: { id: 4242 } });
    // The signature is one of the signed fields: changed, the hash no longer matches.
    const changed = initData.replace("signature=c2lnbmVk", "signature=Zm9yZ2Vk");
    expect(checkInitData(changed, TOKEN, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("accepts what the demo's link carries (signed with the library's sign)", () => {
    const initData = signInitData({ id: 7, firstName: "Bo", languageCode: "en" }, TOKEN, NOW);
    expect(checkInitData(initData, TOKEN, NOW)).toEqual({
      ok: true,
      user: { id: 7, firstName: "Bo", languageCode: "en" },
    });
  });

  it("refuses a wrong hash, another bot's, a changed or repeated field, and a missing user or hash", () => {
    const good = telegramInitData(fieldsAt(NOW));
    const hash = new URLSearchParams(good).get("hash") ?? "";
    const flipped = hash.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    const refused = [
      good.replace(hash, flipped),
      good.replace(`hash=${hash}`, `hash=${hash.toUpperCase()}`),
      good.replace(`&hash=${hash}`, ""),
      telegramInitData(fieldsAt(NOW), "987654321:ANOTHER-bot-token-entirely-here"),
      good.replace("%22id%22%3A4242", "%22id%22%3A4243"),
      `${good}&user=${encodeURIComponent(JSON.stringify({ id: 1, first_name: "Eve" }))}`,
      `${good}&hash=${hash}`,
      telegramInitData({ query_id: "q", auth_date: String(NOW / 1000) }),
      telegramInitData(fieldsAt(NOW, { id: -5, first_name: "Eve" })),
      telegramInitData(fieldsAt(NOW, { id: 5 })),
      telegramInitData({ ...fieldsAt(NOW), auth_date: "yesterday" }),
    ];
    for (const initData of refused) {
      expect(checkInitData(initData, TOKEN, NOW), initData).toEqual({ ok: false, reason: "invalid" });
    }
    expect(checkInitData(undefined, TOKEN, NOW)).toEqual({ ok: false, reason: "invalid" });
    expect(checkInitData("x".repeat(5000), TOKEN, NOW)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses initData older than 15 minutes or from the future, by the bot's clock", () => {
    const old = telegramInitData(fieldsAt(NOW - INIT_DATA_MAX_AGE_MS - 1_000));
    expect(checkInitData(old, TOKEN, NOW)).toEqual({ ok: false, reason: "stale" });
    const future = telegramInitData(fieldsAt(NOW + 5 * 60_000));
    expect(checkInitData(future, TOKEN, NOW)).toEqual({ ok: false, reason: "stale" });
    const recent = telegramInitData(fieldsAt(NOW - INIT_DATA_MAX_AGE_MS + 1_000));
    expect(checkInitData(recent, TOKEN, NOW).ok).toBe(true);
  });
});
