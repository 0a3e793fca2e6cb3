/**
 * The home card's facts, gathered for either mode: the balance (read by the mode's feature and
 * handed in, as each mode reads it its own way), the market's prices of what the user holds or
 * watches (their alerts), and their open orders from the ledger. Each part that cannot be read is
 * left out and said so; the card still comes (ui/home-text.ts words it).
 *
 * @example
 * await showHome(ctx, deps, async () => ({ who: email, total, held }), "reply");
 */
import type Big from "big.js";
import { EUR } from "../../domain/currency.ts";
import { ExchangeError } from "../../exchange/errors.ts";
import type { PartnerApi } from "../../exchange/partner.ts";
import type { Sessions } from "../../session/sessions.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { partnerTotal } from "../ui/balance-text.ts";
import { editInPlace } from "../ui/edit.ts";
import { type HomeMove, homeCard } from "../ui/home-text.ts";

/** What the mode's balance read found: who is served, the total in EUR when known, the cryptos held. */
export interface HomeBalance {
  who: string;
  total?: Big;
  held: readonly string[];
}

export type HomeDeps = Pick<BotDeps, "market" | "alertBook" | "orders">;

/** Account mode: the exchange's total and the cryptos with a balance, with the user's session. */
export async function accountHomeBalance(
  sessions: Sessions,
  userId: number,
  who: string,
): Promise<HomeBalance> {
  const [total, crypto] = await sessions.use(userId, (client) =>
    Promise.all([client.totalBalance(), client.cryptoBalances()]),
  );
  const held = crypto.filter((row) => row.balance.gt(0)).map((row) => row.currency_code.toLowerCase());
  return { who, total: total.balance, held };
}

/**
 * Partner mode's home card for a served user: their name, the partner API's balances.
 */
export function showPartnerHome(
  ctx: PrivateContext,
  deps: HomeDeps & { partner: { api: PartnerApi } },
  partnerUserId: number,
  who: string,
  how: "reply" | "edit",
): Promise<void> {
  const balance = () => partnerHomeBalance(deps.partner.api, partnerUserId, who);
  // Partner mode has no price alerts: no Alerts button.
  return showHome(ctx, deps, balance, how, { who, alerts: false });
}

/** Partner mode: the partner user's balances (readable at any time), totalled as /balance totals them. */
export async function partnerHomeBalance(
  api: PartnerApi,
  partnerUserId: number,
  who: string,
): Promise<HomeBalance> {
  const { rows } = await api.userBalance(partnerUserId);
  const euros = rows.find((row) => row.currency === EUR)?.amount;
  // Euros alone are the total; with cryptos, only when each said what it is worth.
  const total = rows.every((row) => row.currency === EUR || row.amount.eq(0)) ? euros : partnerTotal(rows);
  const held = rows.filter((row) => row.currency !== EUR && row.amount.gt(0)).map((row) => row.currency);
  return { who, ...(total === undefined ? {} : { total }), held };
}

export async function showHome(
  ctx: PrivateContext,
  deps: HomeDeps,
  balance: () => Promise<HomeBalance>,
  how: "reply" | "edit",
  options: { who: string; alerts: boolean },
): Promise<void> {
  const userId = ctx.from.id;
  const [read, snapshot, alerts, open] = await Promise.all([
    // An exchange that does not answer leaves the total out, not the card.
    balance().catch((error: unknown) => {
      if (error instanceof ExchangeError) return undefined;
      throw error;
    }),
    deps.market.snapshot().catch(() => undefined),
    deps.alertBook.list(userId),
    deps.orders.ledger.open(userId),
  ]);
  const wanted = [...new Set([...(read?.held ?? []), ...alerts.map((alert) => alert.currency)])];
  const moves: HomeMove[] | undefined = snapshot?.prices.filter((p) => wanted.includes(p.currency));
  const locale = await ctx.i18n.getLocale();
  const { text, keyboard } = homeCard(
    ctx.t,
    {
      who: read?.who ?? options.who,
      ...(read?.total === undefined ? {} : { total: read.total }),
      ...(moves === undefined ? {} : { moves }),
      open,
    },
    locale,
    { alerts: options.alerts },
  );
  if (how === "edit") await editInPlace(ctx, text, keyboard);
  else await ctx.reply(text, { reply_markup: keyboard });
}
