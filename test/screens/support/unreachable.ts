/**
 * Sentences of the locale files the catalogue cannot make the bot say, each with why. Keep it
 * short: a sentence that some state of the sandbox (its fault switches included) can bring about
 * belongs in a scenario instead.
 */

/**
 * The Mini App's login page is HTML in a browser, not a chat screen: its words are resolved once
 * when the bot starts (before the catalogue can watch), its errors answer the page's own requests.
 * test/webapp/ checks the page.
 */
const WEB_PAGE = "the Mini App login page (a browser page, not a chat screen)";

/**
 * A partner feature re-reads the user's link after the KYC gate found it; only a store that loses
 * the link in between (no chat unlinks a user) makes these answer.
 */
const LINK_LOST = "partner mode: the link store losing a signed-up user between the gate and the feature";

export const UNREACHABLE: Record<string, string> = {
  // The digest goes out from the jobs' tick, which reads prices first: once the feed has any it
  // serves the last ones, so the digest's "no prices" needs a feed that never answered at a digest hour.
  "digest-prices-unavailable": "a digest hour reached while the market feed has never answered",
  // The sandbox, as the API reference describes, lists an account the moment it is added.
  "partner-banks-added-unlisted": "a partner API that does not list a bank account right after adding it",
  "partner-not-linked": LINK_LOST,
  "partner-order-not-signed-up": LINK_LOST,
  "webapp-title": WEB_PAGE,
  "webapp-intro": WEB_PAGE,
  "webapp-email": WEB_PAGE,
  "webapp-password": WEB_PAGE,
  "webapp-code": WEB_PAGE,
  "webapp-submit": WEB_PAGE,
  "webapp-done": WEB_PAGE,
  "webapp-not-from-telegram": WEB_PAGE,
  "webapp-failed": WEB_PAGE,
  "webapp-bad-email-or-password": WEB_PAGE,
  "webapp-bad-code-format": WEB_PAGE,
  "webapp-wrong-code": WEB_PAGE,
  "webapp-wrong-credentials": WEB_PAGE,
  // Account mode.
  "alert-guide-kind":
    "dead branch: the guided /alert asks only about currencies the market lists, each with its price",
  "export-too-large": "a statement over Telegram's 50 MB file limit: hundreds of thousands of transactions",
  "me-empty": "the exchange always reports at least the account type: no account has an empty profile",
  "limits-empty": "the exchange always lists its five limits",
  "prices-empty": "the exchange's price list is never empty while it answers",
  "trade-refused-fee":
    "a sell worth less than its fee: the exchange's minimum sell is worth more than the fee",
  "market-no-source":
    "only without MARKET_DATA_* and nobody logged in; the catalogue runs as deployed, with a market-data account",
  "inline-no-source":
    "only without MARKET_DATA_* and nobody logged in; the catalogue runs as deployed, with a market-data account",
  "recurring-off": "only with the operator's RECURRING_MAX_PLANS=0 (the catalogue runs the default)",
  "security-delay-minutes":
    "only with an UNFREEZE_DELAY_MINUTES that is not whole hours (the catalogue runs the default)",
};
