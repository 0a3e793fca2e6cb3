import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { requireLogin } from "../middleware/require-login.ts";
import { Feature } from "../runtime/feature-router.ts";
import { balanceLines } from "../ui/balance-text.ts";

/** /balance: EUR balance, total, and each crypto with its EUR value (three calls, in parallel). */
export function balanceFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("balance", requireLogin(deps), async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const [fiat, total, crypto] = await deps.sessions.use(ctx.from.id, (client) =>
      Promise.all([client.fiatBalance(), client.totalBalance(), client.cryptoBalances()]),
    );
    const rows = crypto.map((item) => ({
      currency: item.currency_code.toLowerCase(),
      amount: item.balance,
      eur: item.fiat_conversion,
    }));
    const lines = balanceLines(ctx.t, { eur: fiat.balance, total: total.balance, crypto: rows }, locale);
    await ctx.reply(`${ctx.t("balance-title")}\n\n${lines.join("\n")}`);
  });
  return composer;
}
