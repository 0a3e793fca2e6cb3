/**
 * A frozen refusal says what did not happen in the action's own word (bought,
 * sold, sent, withdrawn), and who can unfreeze in the mode the kind belongs to.
 */
import { describe, expect, it } from "vitest";
import { createI18n } from "../../../src/bot/i18n.ts";
import { refusalText } from "../../../src/bot/ui/order-card.ts";
import type { ActionKind } from "../../../src/orders/kinds/index.ts";
import { Profiles } from "../../../src/session/profiles.ts";
import { openStore } from "../../../src/store/open-store.ts";

const EXPECTED: Record<ActionKind, { en: string; de: string; partner: boolean }> = {
  buy: { en: "nothing was bought", de: "nichts gekauft", partner: false },
  sell: { en: "nothing was sold", de: "nichts verkauft", partner: false },
  send: { en: "nothing was sent", de: "nichts gesendet", partner: false },
  withdraw: { en: "nothing was withdrawn", de: "nichts ausgezahlt", partner: false },
  "partner-buy": { en: "nothing was bought", de: "nichts gekauft", partner: true },
  "partner-sell": { en: "nothing was sold", de: "nichts verkauft", partner: true },
  "partner-withdraw": { en: "nothing was withdrawn", de: "nichts ausgezahlt", partner: true },
};

describe("the frozen refusal", async () => {
  const i18n = createI18n({ defaultLocale: "en", profiles: new Profiles(await openStore("memory://")) });
  for (const locale of ["en", "de"] as const) {
    const t = (key: string, vars?: Record<string, string | number>) => i18n.t(locale, key, vars);
    for (const [kind, words] of Object.entries(EXPECTED) as [ActionKind, (typeof EXPECTED)[ActionKind]][]) {
      it(`${kind} (${locale}): ${words[locale]}, and who unfreezes`, () => {
        const text = refusalText(t, { kind, reason: "frozen", vars: {} }, locale);
        expect(text).toContain(words[locale]);
        const support = locale === "en" ? "Only support can open them again" : "Nur der Support";
        if (words.partner) expect(text).toContain(support);
        else expect(text).not.toContain(support);
      });
    }
  }
});
