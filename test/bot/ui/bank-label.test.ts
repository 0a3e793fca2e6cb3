/**
 * A bank account's button label keeps to 28 characters (its
 * buttons put an icon and a space before it), always with the IBAN's last four digits; a long
 * bank name is cut with "…". Sentences and lists keep the longer label.
 */
import { describe, expect, it } from "vitest";
import {
  BANK_BUTTON_LABEL_MAX,
  type BankView,
  bankButtonLabel,
  bankLabel,
  pickTyped,
} from "../../../src/bot/ui/bank-view.ts";

const IBAN = "DE89370400440532013000";
const length = (text: string) =>
  [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;

describe("a bank account's button label", () => {
  it("keeps a short name whole, with the IBAN's last four digits", () => {
    expect(bankButtonLabel({ name: "West Bank", iban: "GB82WEST12345698765432" })).toBe(
      "West Bank · •• 5432",
    );
    expect(bankButtonLabel({ name: "Sandbox Sparkasse", iban: IBAN })).toBe("Sandbox Sparkasse · •• 3000");
  });

  it("cuts a long name with … and keeps the last digits, within 30 characters with its icon", () => {
    for (const name of [
      "Sandbox Partnerbank",
      "Sparkasse 🏦🏦 Köln-Bonn Mitte Nord",
      "Deutsche Kreditbank Aktiengesellschaft Berlin",
      "👨‍👩‍👧‍👦".repeat(20),
    ]) {
      const label = bankButtonLabel({ name, iban: IBAN });
      expect(label).toMatch(/… · •• 3000$/);
      expect(length(label)).toBeLessThanOrEqual(BANK_BUTTON_LABEL_MAX);
      for (const icon of ["🏦", "🗑", "⏳", "👁"]) expect(length(`${icon} ${label}`)).toBeLessThanOrEqual(30);
    }
    expect(bankButtonLabel({ name: "Sandbox Partnerbank", iban: IBAN })).toBe("Sandbox Partnerba… · •• 3000");
  });

  it("is still read back as a typed choice, as is the longer label of lists", () => {
    const banks: BankView[] = [
      { id: 1, name: "Sandbox Partnerbank", iban: IBAN, bic: "", reference: "", state: "verified" },
      { id: 2, name: "West Bank", iban: "GB82WEST12345698765432", bic: "", reference: "", state: "verified" },
    ];
    expect(pickTyped(bankButtonLabel(banks[0] as BankView), banks)?.id).toBe(1);
    expect(pickTyped(bankLabel(banks[1] as BankView), banks)?.id).toBe(2);
  });
});
