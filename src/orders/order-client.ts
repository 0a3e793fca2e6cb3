/**
 * What a kind's quote, POST and reconciliation are handed to ask the exchange with: the user's own
 * account session (account kinds) or the partner API with the linked partner user (partner
 * kinds). Below the kinds (kinds/ import it; it imports no kind), so the registry and the
 * {@link OrderClients} that find a client by a kind's `api` (clients.ts) form no import circle.
 *
 * @example
 * post: (client, action) => partnerOf(client).api.buy(partnerOf(client).partnerUserId, order),
 */
import type { AccountSession } from "../exchange/account.ts";
import type { PartnerApi } from "../exchange/partner.ts";

export interface PartnerClient {
  api: PartnerApi;
  /** The partner user the Telegram user was linked to at sign-up. */
  partnerUserId: number;
}

export type OrderClient = { account: AccountSession } | { partner: PartnerClient };

/** The account session of an account kind's client (a programming error otherwise). */
export function accountOf(client: OrderClient): AccountSession {
  if (!("account" in client)) throw new Error("This kind of order needs the user's own session.");
  return client.account;
}

/** The partner client of a partner kind's client (a programming error otherwise). */
export function partnerOf(client: OrderClient): PartnerClient {
  if (!("partner" in client)) throw new Error("This kind of order needs the partner API.");
  return client.partner;
}
