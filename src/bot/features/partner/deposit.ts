/**
 * /deposit in partner mode: the deposit instructions as the exchange gives them, every value
 * copyable (`<code>`), and, where the fields allow it, an EPC "GiroCode" picture of the transfer
 * that a banking app scans (ui/girocode.ts). `/deposit 250` puts 250 € into the code.
 *
 * Tolerant reading of the unspecified payload: the IBAN is the first field named `iban` (or
 * `account_iban`); the BIC `swift_bic`, `bic` or `swift`; the beneficiary `beneficiary`,
 * `beneficiary_name`, `account_holder`, `holder` or `recipient` (never the bank's name); the
 * reference `reference`, `reference_number`, `payment_reference` or `remittance`, at any depth.
 * No IBAN or no beneficiary, or a currency other than EUR: no code, the text alone.
 *
 * The text names the usual fields in the user's language (exchange/partner-read.ts reads them, by the
 * same names as the code), says in its own words where the reference goes (the exchange's note
 * about it is taken as said), and shows every other field below, named and formatted.
 */
import { InputFile } from "grammy";
import { type Big, parseAmount } from "../../../domain/money.ts";
import type { Translate } from "../../../domain/translate.ts";
import type { PartnerDeposit } from "../../../exchange/partner-schemas.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { PrivateContext } from "../../context.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { amountRefusalText } from "../../ui/amount.ts";
import { chunkBlocks } from "../../ui/chunks.ts";
import { fieldLabel, fieldLines, fieldValue } from "../../ui/fields.ts";
import { escapeHtml } from "../../ui/format.ts";
import { giroCodePayload, giroCodePng } from "../../ui/girocode.ts";

/** The deposit instructions' text (HTML): the transfer's details, copyable, then the rest. */
export function depositText(t: Translate, instructions: PartnerDeposit, locale: string): string[] {
  const { view, rest } = instructions;
  const copy = (text: string) => `<code>${escapeHtml(text)}</code>`;
  const details: [string, string | undefined, boolean][] = [
    ["beneficiary", view.beneficiary, true],
    ["iban", view.iban, true],
    ["bic", view.bic, true],
    ["bank_name", view.bank, false],
    ["reference", view.reference, true],
  ];
  const lines = details.flatMap(([name, value, copyable]) =>
    value === undefined
      ? []
      : [
          `<b>${escapeHtml(fieldLabel(t, name))}</b>: ${copyable ? copy(value) : escapeHtml(fieldValue(t, name, value, locale))}`,
        ],
  );
  if (view.currency !== "eur") {
    lines.push(`<b>${escapeHtml(fieldLabel(t, "currency"))}</b>: ${escapeHtml(view.currency.toUpperCase())}`);
  }
  const parts = [t(view.currency === "eur" ? "partner-deposit-title" : "partner-deposit-title-other")];
  if (lines.length > 0) parts.push(lines.join("\n"));
  if (view.reference !== undefined) parts.push(t("partner-deposit-reference-note"));
  if (rest !== undefined) parts.push(fieldLines(t, rest, locale, { copyable: true }).join("\n"));
  if (parts.length === 1) parts.push(t("partner-deposit-none"));
  return chunkBlocks(parts);
}

/** The GiroCode text of deposit instructions, or undefined when they do not allow one. */
export function depositGiroCode(instructions: PartnerDeposit, amount?: Big): string | undefined {
  const { view } = instructions;
  if (view.currency !== "eur" || view.iban === undefined || view.beneficiary === undefined) return undefined;
  return giroCodePayload({
    iban: view.iban,
    name: view.beneficiary,
    bic: view.bic,
    amount,
    reference: view.reference,
  });
}

export function partnerDepositFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("deposit", async (ctx) => {
    const typed = ctx.match.trim();
    let amount: Big | undefined;
    if (typed !== "") {
      const parsed = parseAmount(typed, "eur", await ctx.i18n.getLocale());
      if (!parsed.ok) {
        await ctx.reply(amountRefusalText(ctx.t, parsed));
        return;
      }
      amount = parsed.value;
    }
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const locale = await ctx.i18n.getLocale();
    const instructions = await deps.partner.api.depositInstructions(id);
    for (const text of depositText(ctx.t, instructions, locale)) {
      await ctx.reply(text, { parse_mode: "HTML" });
    }
    const payload = depositGiroCode(instructions, amount);
    if (payload === undefined) return;
    await ctx.replyWithPhoto(new InputFile(await giroCodePng(payload), "girocode.png"), {
      caption: ctx.t("partner-deposit-girocode"),
    });
  });
  return composer;
}
