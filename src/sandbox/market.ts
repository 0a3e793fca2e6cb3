/**
 * Prices that move by themselves, deterministically: the same sandbox instant always gives the
 * same price, so tests that advance a ManualClock see reproducible numbers, and the demo sees a
 * market that breathes without any timer running.
 *
 * A price is a level times a drift factor (a small sum of slow sines, within about ±3.5 %).
 * `setPrice` pins a currency at a price from that instant on (the drift stops for it), because
 * tests of alerts need a price that stays where they put it; `setPrice(…, { drift: true })` moves
 * the level instead, and the drift continues around the new price. Each change is kept with its
 * time, so the price 24 h ago, and the 24 h change, stay true to what was quoted then.
 */
import Big from "big.js";

export interface CurrencyInfo {
  code: string;
  name: string;
  /** Decimals of the EUR price (cents for most, more for coins worth less than a euro). */
  priceDecimals: number;
  /** EUR price at level 1. */
  basePrice: string;
  /** Relative size of the drift: a stablecoin barely moves. */
  volatility: number;
}

export const FIAT = { code: "eur", name: "Euro" } as const;

export const CURRENCIES: readonly CurrencyInfo[] = [
  { code: "btc", name: "Bitcoin", priceDecimals: 2, basePrice: "60000", volatility: 1 },
  { code: "eth", name: "Ethereum", priceDecimals: 2, basePrice: "3000", volatility: 1.2 },
  { code: "ltc", name: "Litecoin", priceDecimals: 2, basePrice: "80", volatility: 1.1 },
  { code: "xrp", name: "XRP", priceDecimals: 4, basePrice: "0.5", volatility: 1.3 },
  { code: "usdc", name: "USD Coin", priceDecimals: 4, basePrice: "0.92", volatility: 0.02 },
];

const DAY_MS = 24 * 60 * 60 * 1000;

type Segment = { from: number; kind: "drift"; level: Big } | { from: number; kind: "pinned"; price: Big };

export class Market {
  readonly #segments = new Map<string, Segment[]>();
  readonly #byCode = new Map<string, CurrencyInfo>();

  constructor() {
    for (const info of CURRENCIES) {
      this.#byCode.set(info.code, info);
      this.#segments.set(info.code, [{ from: Number.NEGATIVE_INFINITY, kind: "drift", level: new Big(1) }]);
    }
  }

  currencies(): readonly CurrencyInfo[] {
    return CURRENCIES;
  }

  info(code: string): CurrencyInfo | undefined {
    return this.#byCode.get(code);
  }

  /** The EUR price of one unit at this sandbox instant. */
  price(code: string, atMs: number): Big {
    const info = this.#require(code);
    const segment = this.#segmentAt(code, atMs);
    if (segment.kind === "pinned") return segment.price;
    const factor = new Big(driftFactor(info, atMs).toFixed(10));
    return new Big(info.basePrice)
      .times(segment.level)
      .times(factor)
      .round(info.priceDecimals, Big.roundHalfUp);
  }

  /** Percent change against the price 24 h earlier, two decimals. */
  change24h(code: string, atMs: number): Big {
    const now = this.price(code, atMs);
    const before = this.price(code, atMs - DAY_MS);
    if (before.eq(0)) return new Big(0);
    return now.minus(before).div(before).times(100).round(2, Big.roundHalfUp);
  }

  setPrice(code: string, eurPrice: Big, atMs: number, options: { drift?: boolean } = {}): void {
    const info = this.#require(code);
    if (eurPrice.lte(0)) throw new RangeError("A price must be above zero.");
    const segments = this.#segments.get(code) ?? [];
    // A later change replaces anything set for the same or a later instant (the clock never goes back).
    while (segments.length > 1 && (segments.at(-1)?.from ?? 0) >= atMs) segments.pop();
    if (options.drift) {
      const factor = new Big(driftFactor(info, atMs).toFixed(10));
      const level = eurPrice.div(new Big(info.basePrice).times(factor));
      segments.push({ from: atMs, kind: "drift", level });
    } else {
      segments.push({ from: atMs, kind: "pinned", price: eurPrice });
    }
  }

  #segmentAt(code: string, atMs: number): Segment {
    const segments = this.#segments.get(code) ?? [];
    for (let i = segments.length - 1; i >= 0; i--) {
      const segment = segments[i];
      if (segment && segment.from <= atMs) return segment;
    }
    const first = segments[0];
    if (!first) throw new Error(`no price history for ${code}`);
    return first;
  }

  #require(code: string): CurrencyInfo {
    const info = this.#byCode.get(code);
    if (!info) throw new RangeError(`Unknown currency: ${code}`);
    return info;
  }
}

/**
 * Periods of 6 h, 97 min and 13 min, phase-shifted per currency so the coins do not move in step.
 * Floats are fine here: this invents a market, it does not do arithmetic on anyone's money.
 */
function driftFactor(info: CurrencyInfo, atMs: number): number {
  const phase = info.code.split("").reduce((sum, char) => sum + char.charCodeAt(0), 0);
  const t = atMs / 60_000;
  const wave =
    0.02 * Math.sin((2 * Math.PI * t) / 360 + phase) +
    0.01 * Math.sin((2 * Math.PI * t) / 97 + phase * 1.7) +
    0.005 * Math.sin((2 * Math.PI * t) / 13 + phase * 2.3);
  return 1 + wave * info.volatility;
}
