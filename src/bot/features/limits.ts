/**
 * /limits: for each limit type (GET v1/limits), what was used today against the daily ceiling and
 * this month against the monthly one, each with a text progress bar.
 *
 * Units: fiat limits are in EUR. For the crypto limits (crypto_deposit, crypto_withdrawal)
 * the exchange's API reference does not say what unit they are counted in, so their numbers are shown as
 * plain numbers, with a note saying so, rather than guessed to be euros. Codes the spec does not
 * list are shown the same way, under their code.
 */
import type Big from "big.js";
import { LIMIT_TYPES, type LimitRecord } from "../../exchange/schemas.ts";
import { formatAmount, formatNumber } from "../../money.ts";
import type { Translate } from "../../translate.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { LIMIT_TYPE_KEYS, limitBlockText } from "../ui/limit-block.ts";

/** Limit types whose amounts are known to be EUR. */
const EUR_LIMITS: ReadonlySet<string> = new Set(["fiat_deposit", "fiat_withdrawal", "credit_card_buy"]);

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
  const parts = [t("limits-title"), ...blocks];
  if (sorted.some((record) => !EUR_LIMITS.has(record.limit.code))) parts.push(t("limits-unit-note"));
  return parts.join("\n\n");
}

function limitBlock(t: Translate, record: LimitRecord, locale: string): string {
  const { code, daily, monthly } = record.limit;
  const inEur = EUR_LIMITS.has(code);
  const amount = (value: Big) => (inEur ? formatAmount(value, "eur", locale) : formatNumber(value, locale));
  const key = LIMIT_TYPE_KEYS.get(code);
  const title = key === undefined ? code : t(key);
  const view = {
    title: inEur ? title : t("limits-title-no-unit", { title }),
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
