/**
 * /transactions and /tx in partner mode: the partner user's transactions, five per page with
 * Prev/Next buttons that edit the same message (`ptx:<page>`), and `/tx 123` with every field the
 * exchange sent, both through the field renderer (ui/fields.ts, ui/paged-fields.ts).
 */
import { ExchangeError } from "../../exchange/errors.ts";
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";
import { Feature } from "../feature-router.ts";
import { partnerUserOf } from "../flows/partner-user.ts";
import { editInPlace } from "../ui/edit.ts";
import { fieldMessages } from "../ui/fields.ts";
import { MAX_FIELDS_PAGE, pagedFields, pageQuery } from "../ui/paged-fields.ts";

const CALLBACK = "ptx";

export function partnerTransactionsFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  const { api } = deps.partner;

  async function page(ctx: PrivateContext, userId: number, number: number) {
    const locale = await ctx.i18n.getLocale();
    const rows = await api.userTransactions(userId, pageQuery(number));
    return pagedFields(ctx.t, rows, locale, {
      page: number,
      callback: CALLBACK,
      title: ctx.t("partner-transactions-title"),
      empty: ctx.t("partner-transactions-none"),
    });
  }

  composer.command("transactions", async (ctx) => {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const { text, keyboard } = await page(ctx, id, 0);
    await ctx.reply(`${text}\n\n${ctx.t("partner-transactions-hint")}`, {
      parse_mode: "HTML",
      reply_markup: keyboard,
    });
  });

  composer.callbackQuery(/^ptx:(\d{1,5})$/, async (ctx) => {
    await ctx.answerCallbackQuery();
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const { text, keyboard } = await page(ctx, id, Math.min(Number(ctx.match[1]), MAX_FIELDS_PAGE));
    await editInPlace(ctx, text, keyboard);
  });

  composer.command("tx", async (ctx) => {
    const typed = ctx.match.trim().replace(/^#/, "");
    const txId = /^\d{1,15}$/.test(typed) ? Number(typed) : 0;
    if (!Number.isSafeInteger(txId) || txId <= 0) {
      await ctx.reply(ctx.t("partner-tx-bad-id"));
      return;
    }
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const locale = await ctx.i18n.getLocale();
    let tx: unknown;
    try {
      tx = await api.userTransaction(id, txId);
    } catch (error) {
      if (error instanceof ExchangeError && error.kind === "not-found") {
        await ctx.reply(ctx.t("partner-tx-not-found", { id: String(txId) }));
        return;
      }
      throw error;
    }
    const title = ctx.t("partner-tx-title", { id: String(txId) });
    for (const text of fieldMessages(ctx.t, title, tx, locale, { empty: ctx.t("partner-tx-empty") })) {
      await ctx.reply(text, { parse_mode: "HTML" });
    }
  });
  return composer;
}
