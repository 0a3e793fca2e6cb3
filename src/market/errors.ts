/**
 * Why the market feed has no prices to give. The bot turns it into a sentence (`market-no-source`,
 * `market-unavailable`); inline mode into an empty result list with a button to open the bot.
 *
 * @example
 * try { await feed.snapshot(); }
 * catch (error) {
 *   if (error instanceof MarketUnavailableError && error.reason === "no-source") reply(t("market-no-source"));
 * }
 */
export class MarketUnavailableError extends Error {
  override readonly name = "MarketUnavailableError";
  /**
   * `no-source`: nobody is logged in and no market-data account is configured (MARKET_DATA_*);
   * `exchange`: the exchange could not be asked and there is no earlier answer to fall back on.
   */
  readonly reason: "no-source" | "exchange";
  constructor(reason: "no-source" | "exchange", options?: { cause?: unknown }) {
    super(
      reason === "no-source"
        ? "No market data source: nobody is logged in and MARKET_DATA_EMAIL is not set."
        : "The exchange could not be asked for prices and there is no earlier answer.",
      options,
    );
    this.reason = reason;
  }
}
