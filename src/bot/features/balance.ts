import { formatAmount } from "../../money.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { Feature } from "../feature-router.ts";
import { requireLogin } from "../middleware/require-login.ts";

/** /balance: EUR balance, total, and each crypto with its EUR value (three calls, in parallel). */
export function balanceFeature(deps: Pick<BotDeps, "sessions">): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();
  composer.command("balance", requireLogin(deps), async (ctx) => {
    const locale = await ctx.i18n.getLocale();
    const [fiat, total, crypto] = await deps.sessions.use(ctx.from.id, (client) =>
      Promise.all([client.fiatBalance(), client.totalBalance(), client.cryptoBalances()]),
    );
    const lines = [
      ctx.t("balance-eur", { amount: formatAmount(fiat.balance, "eur", locale) }),
      ctx.t("balance-total", { amount: formatAmount(total.balance, "eur", locale) }),
    ];
    const held = crypto.filter((item) => item.balance.gt(0));
    if (held.length === 0) lines.push(ctx.t("balance-no-crypto"));
    for (const item of held) {
      lines.push(
        ctx.t("balance-crypto-line", {
          amount: formatAmount(item.balance, item.currency_code, locale),
          value: formatAmount(item.fiat_conversion, "eur", locale),
        }),
      );
    }
    await ctx.reply(`${ctx.t("balance-title")}\n\n${lines.join("\n")}`);
  });
  return composer;
}
