/**
 * /me: the account details the exchange holds (GET v1/user/info). Personal accounts show name,
 * e-mail, address and birth date; business accounts add the company's name, address, VAT and
 * registration numbers. A field the exchange leaves out, or sends empty, is simply not shown.
 */

import type { Translate } from "../../domain/translate.ts";
import type { AccountInfo } from "../../exchange/schemas.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { userText } from "../ui/user-text.ts";

export function meFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("me", requireLogin(deps), async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const info = await deps.sessions.use(ctx.from.id, (client) => client.userInfo());
    await ctx.reply(accountText(ctx.t, info, locale));
  });
  return composer;
}

/** The whole /me message; exported for tests of the formatting alone. */
export function accountText(t: Translate, info: Partial<AccountInfo>, locale: string): string {
  const personal: string[] = [];
  const add = (lines: string[], key: string, value: string | undefined) => {
    // The account holder typed these at the exchange: shown without bidi controls.
    if (value !== undefined) lines.push(t(key, { value: userText(value) }));
  };
  add(personal, "me-name", joined(" ", info.name, info.surname));
  add(personal, "me-email", present(info.email));
  add(personal, "me-address", postalAddress(info, locale));
  add(personal, "me-birth-date", birthDate(info.birth_of_date, locale));
  const type = present(info.account_type)?.toLowerCase();
  if (type === "personal" || type === "business")
    personal.push(
      t("me-account-type", { value: t(type === "personal" ? "me-type-personal" : "me-type-business") }),
    );
  else add(personal, "me-account-type", type);

  const company: string[] = [];
  add(company, "me-company-name", present(info.company_name));
  add(company, "me-company-address", present(info.company_address));
  add(company, "me-vat-number", present(info.vat_number));
  add(company, "me-registration-number", present(info.registration_number));

  if (personal.length === 0 && company.length === 0) return t("me-empty");
  const sections = [`${t("me-title")}\n\n${personal.join("\n")}`.trimEnd()];
  if (company.length > 0) sections.push(`${t("me-company-title")}\n${company.join("\n")}`);
  return sections.join("\n\n");
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function joined(separator: string, ...parts: (string | undefined)[]): string | undefined {
  const kept = parts.map(present).filter((p): p is string => p !== undefined);
  return kept.length > 0 ? kept.join(separator) : undefined;
}

/** `Hauptstraße 5, 10115 Berlin, Germany (DE)`: street_address, else address and building number. */
function postalAddress(info: Partial<AccountInfo>, locale: string): string | undefined {
  const street = present(info.street_address) ?? joined(" ", info.address, info.building_number);
  return joined(", ", street, joined(" ", info.postal_code, info.city), countryName(info.country, locale));
}

/** A two-letter code gets its name in the user's language; anything else is shown as sent. */
function countryName(code: string | undefined, locale: string): string | undefined {
  const value = present(code);
  if (value === undefined || !/^[a-z]{2}$/i.test(value)) return value;
  try {
    const name = new Intl.DisplayNames([locale], { type: "region", fallback: "none" }).of(
      value.toUpperCase(),
    );
    return name ? `${name} (${value.toUpperCase()})` : value;
  } catch {
    return value;
  }
}

/** YYYY-MM-DD as a date in the user's language; anything else is shown as sent. */
function birthDate(value: string | undefined, locale: string): string | undefined {
  const text = present(value);
  const match = text?.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (!match) return text;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2024-02-31 over into March: such a date is shown as sent.
  if (new Date(ms).getUTCDate() !== Number(match[3])) return text;
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(ms);
}
