import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { AccountApi } from "../exchange/account.ts";
import type { Logger } from "../logger.ts";
import type { MarketFeed } from "../market/types.ts";
import type { PhishingPhrases } from "../session/phishing-phrase.ts";
import type { Profiles } from "../session/profiles.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";

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
  clock: Clock;
  log: Logger;
}
