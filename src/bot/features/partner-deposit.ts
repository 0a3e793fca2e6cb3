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
 */
import { InputFile } from "grammy";
import { type Big, parseAmount } from "../../money.ts";
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";
import { Feature } from "../feature-router.ts";
import { partnerUserOf } from "../flows/partner-user.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { fieldMessages, findField } from "../ui/fields.ts";
import { giroCodePayload, giroCodePng } from "../ui/girocode.ts";

/** The GiroCode text of deposit instructions, or undefined when they do not allow one. */
export function depositGiroCode(instructions: unknown, amount?: Big): string | undefined {
  const currency = findField(instructions, ["currency_code", "currency"]);
  if (currency !== undefined && currency.toLowerCase() !== "eur") return undefined;
  const iban = findField(instructions, ["iban", "account_iban"]);
  const name = findField(instructions, [
    "beneficiary",
    "beneficiary_name",
    "account_holder",
    "holder",
    "recipient",
  ]);
  if (iban === undefined || name === undefined) return undefined;
  return giroCodePayload({
    iban,
    name,
    bic: findField(instructions, ["swift_bic", "bic", "swift"]),
    amount,
    reference: findField(instructions, ["reference", "reference_number", "payment_reference", "remittance"]),
  });
}

export function partnerDepositFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("deposit", async (ctx) => {
    const typed = ctx.match.trim();
    let amount: Big | undefined;
    if (typed !== "") {
      const parsed = parseAmount(typed, "eur");
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
    const title = ctx.t("partner-deposit-title");
    const empty = ctx.t("partner-deposit-none");
    for (const text of fieldMessages(ctx.t, title, instructions, locale, { copyable: true, empty })) {
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
