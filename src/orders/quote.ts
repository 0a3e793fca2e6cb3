/**
 * What every kind's quote has in common: the request it answers, and the refusal it gives instead
 * of a quote. Quotes return numbers (decimal strings, JSON-safe: the ledger stores them and
 * conversations pass them through `external`), never sentences: the bot words and formats them
 * for the user's language (bot/ui/order-card.ts). The reasons themselves live below the kinds
 * (refusal.ts); here they are bound to the registry's kinds.
 */
import type { ActionKind } from "./kinds/index.ts";
import type { KindQuoteResult, KindRefusal } from "./refusal.ts";

export type { OrderRequest } from "./kinds/index.ts";
export { type RefusalReason, refuse, STANDING_REASONS } from "./refusal.ts";

/** Why no quote: a reason and its figures as raw decimals and codes (formatted by the bot). */
export type QuoteRefusal<K extends string = ActionKind> = KindRefusal<K>;

export type QuoteResult<Q> = KindQuoteResult<Q, ActionKind>;
