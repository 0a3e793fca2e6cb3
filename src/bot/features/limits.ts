/**
 * /limits: for each limit type (GET v1/limits), what was used today against the daily ceiling and
 * this month against the monthly one, each with a text progress bar.
 *
 * Units: every limit in the one currency orders/limit-left.ts reads them in (`limitCurrency`),
 * the same the send and withdraw cards count against. A type the spec does not list gets a
 * neutral title, never its code.
 */
import type Big from "big.js";
import { formatAmount } from "../../domain/money.ts";
import type { Translate } from "../../domain/translate.ts";
import { LIMIT_TYPES, type LimitRecord } from "../../exchange/schemas.ts";
import { limitCurrency } from "../../orders/limit-left.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { LIMIT_TYPE_KEYS, limitBlockText } from "../ui/limit-block.ts";

export function limitsFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("limits", requireLogin(deps), async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const records = await deps.sessions.use(ctx.from.id, (client) => client.limits());
    await ctx.reply(limitsText(ctx.t, records, locale));
  });
  return composer;
}

export function limitsText(t: Translate, records: readonly LimitRecord[], locale: string): string {
  if (records.length === 0) return t("limits-empty");
  const sorted = [...records].sort((a, b) => order(a.limit.code) - order(b.limit.code));
  const blocks = sorted.map((record) => limitBlock(t, record, locale));
  return [t("limits-title"), ...blocks].join("\n\n");
}

function limitBlock(t: Translate, record: LimitRecord, locale: string): string {
  const { code, daily, monthly } = record.limit;
  const amount = (value: Big) => formatAmount(value, limitCurrency(code), locale);
  const key = LIMIT_TYPE_KEYS.get(code);
  const view = {
    title: t(key ?? "limits-type-other"),
    daily,
    dayUsed: record.spent.day_used,
    monthly,
    monthUsed: record.spent.month_used,
  };
  return limitBlockText(t, view, amount, locale);
}

function order(code: string): number {
  const index = (LIMIT_TYPES as readonly string[]).indexOf(code);
  return index === -1 ? LIMIT_TYPES.length : index;
}
