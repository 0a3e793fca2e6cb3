import type { I18n } from "@grammyjs/i18n";
import type { AlertBook } from "../alerts/book.ts";
import type { Config } from "../config/config.ts";
import type { AccountApi } from "../exchange/account.ts";
import type { PriceHistory } from "../market/history.ts";
import type { MarketFeed } from "../market/types.ts";
import type { OrderPipeline } from "../orders/pipeline.ts";
import type { PartnerServices } from "../partner/services.ts";
import type { PlanBook } from "../plans/book.ts";
import type { Freezes } from "../safety/freezes.ts";
import type { SafetyNet } from "../safety/safety-net.ts";
import type { SecurityNotices } from "../safety/security-events.ts";
import type { PhishingPhrases } from "../session/phishing-phrase.ts";
import type { Profiles } from "../session/profiles.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Store } from "../store/store.ts";
import type { ChatReads } from "../store/update-reads.ts";
import type { Vault } from "../store/vault.ts";
import type { Clock } from "../support/clock.ts";
import type { Logger } from "../support/logger.ts";
import type { FlowContext } from "./context.ts";

/**
 * What createBot needs, passed in (never imported as singletons), so tests build the same bot
 * over the sandbox and a Bot API double.
 */
export interface BotDeps {
  config: Pick<Config, "defaultLocale" | "telegramApiRoot"> & Partial<Pick<Config, "webAppUrl">>;
  store: Store;
  vault: Vault;
  account: AccountApi;
  sessions: Sessions;
  profiles: Profiles;
  /** The anti-phishing phrase, per user (through the Vault). */
  phishing: PhishingPhrases;
  /** The shared, cached price feed (prices, inline mode, alerts). */
  market: MarketFeed;
  /** The feed's prices kept as a time series, for charts (written by the jobs' tick). */
  priceHistory: PriceHistory;
  /** The money pipeline (quotes, the one Ledger, placing, reconciliation): one for the whole app. */
  orders: OrderPipeline;
  /** Everyone's price alerts. */
  alertBook: AlertBook;
  /** Everyone's recurring plans and their runs (/recurring; run by the jobs). */
  plans: PlanBook;
  /** Security notices (a login, a saved address, a freeze…): always sent, with the phrase and Freeze. */
  securityNotices: SecurityNotices;
  /** Saved addresses, cooling-offs, the allowlist and self-set caps (src/safety/); the pipeline's guards read them. */
  safety: SafetyNet;
  /** Frozen money actions (Freeze, /freeze, the operator desk); the pipeline's guard reads them. */
  freezes: Freezes;
  /** The Fluent bundles, loaded once: bot middleware, conversations and the delivery queue share them. */
  i18n: I18n<FlowContext>;
  /** Partner mode only (EXCHANGE_MODE=partner): the partner API, user links, PINs, operators. */
  partner?: PartnerServices;
  clock: Clock;
  log: Logger;
  /**
   * The chat's per-update reads batched into one round trip (store/update-reads.ts): on Redis the
   * chat lock reads them with the lease and runs the rest of the update in their scope; on SQLite
   * the update runs in their scope and the cache's misses are read by one statement. Absent:
   * plain reads.
   */
  chatReads?: ChatReads;
}

/** The dependencies in partner mode (EXCHANGE_MODE=partner), where `partner` is always there. */
export type PartnerBotDeps = BotDeps & { partner: PartnerServices };
