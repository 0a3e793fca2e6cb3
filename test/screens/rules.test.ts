/**
 * The catalogue's rules on their own: the examples of unfinished screens we met are caught, and screens as they
 * should be (real lines of both locales) raise nothing.
 */
import { describe, expect, it } from "vitest";
import { checkScreen } from "./support/rules.ts";

const LOCALES = ["de", "en"];

function findings(text: string, locale: string, buttons: string[][] = []) {
  return checkScreen({ title: "t", kind: "text", text, buttons, locale }, LOCALES).map(
    (f) => `${f.rule}: ${f.offending}`,
  );
}

describe("the screen rules", () => {
  it("catch the issue's examples", () => {
    expect(findings("Status: active\nIdentitätsprüfung: passed", "de")).toEqual([
      "another language: active",
      "another language: passed",
    ]);
    expect(findings("Erweiterte Prüfung: not_required", "de")).toContain("raw code: not_required");
    expect(findings("Art: fiat_withdraw", "de")).toContain("raw code: fiat_withdraw");
    expect(findings("Pair: btceur", "en")).toEqual(["raw code: btceur"]);
    expect(findings("Currency: btc\nAmount: 100", "en")).toEqual(["raw code: btc"]);
    expect(findings("Kind: partner-buy", "en")).toEqual(["raw code: partner-buy"]);
    expect(findings("Tageslimit für sell", "de")).toEqual(["another language: sell"]);
    expect(findings("Am 29.11.2026 (2026-11-29)", "de")).toEqual([
      "not formatted for the locale: 2026-11-29",
    ]);
    expect(findings("Heute: 1,000.00 €", "de")).toEqual(["not formatted for the locale: 1,000.00"]);
    expect(findings("Today: 1.000,50 €", "en")).toEqual(["not formatted for the locale: 1.000,50"]);
    expect(
      findings("(*) The exchange gives these limits as plain numbers, without a unit.", "en"),
    ).toHaveLength(3);
    expect(findings("The exchange says:\nNumber: 4", "en")).toEqual([
      "implementation talk: The exchange says:",
    ]);
    expect(findings("Your session lasts until 7:53 AM.", "en")).toEqual([
      "time without zone: Your session lasts until 7:53 AM.",
    ]);
    expect(findings("Pick one", "en", [["🛡 Safety: allowlist, cooling-off, limits"]])).toEqual([
      "button over 30 characters: [🛡 Safety: allowlist, cooling-off, limits] (40)",
    ]);
  });

  it("raise nothing on finished screens of both locales", () => {
    const fine: Array<[string, string, string[][]?]> = [
      ["💶 Euro: 1.000,00 €\n• 0,01 BTC ≈ 600,00 €\nKurse vom 22.11.2026, 10:00 UTC", "de"],
      ["💶 Euro: €1,000.00\n• 0.01 BTC ≈ €600.00\nRates of Nov 22, 2026, 10:00 AM UTC", "en"],
      ["Type @sandbox_exchange_bot btc in any chat for a price card. Try /buy btc 100.", "en"],
      ["Dein Anti-Phishing-Satz ist gesetzt. Zeitzone: Europe/Berlin, 09:00 Europe/Berlin", "de"],
      ["Nächste Ausführung: Di., 24. Nov. 2026, 09:00 Berlin", "de"],
      ["Next run: Tue, Nov 24, 2026, 9:00 AM Lisbon", "en"],
      ["00:00 (America/New York) · Bitcoin reached €65,000.00", "en"],
      ["✅ Unfrozen. Bitcoin, IBAN, PIN and 2FA are fine.", "en"],
      ["I do not know the currency “dogecoin”.", "en"],
      ["Choose your language:", "en", [["English", "Deutsch"]]],
      ["Wähle deine Sprache:", "de", [["English", "Deutsch"]]],
      ["Adresse: rLHzPsX6oXkzU2qL12kHCH8G8cnZv1rBJh", "de"],
    ];
    for (const [text, locale, buttons] of fine) expect(findings(text, locale, buttons), text).toEqual([]);
  });
});
