/**
 * The daily digest, sent by the jobs' tick at the hour each user picked, in their own time zone:
 * the prices they watch (their alerts' currencies, what they traded in the last day and, in
 * partner mode, what they hold; Bitcoin and Ether when that is nothing) with the day's change,
 * the alerts that fired and the orders that settled in the last 24 hours, and in partner mode
 * (where balances can be read at any time) the portfolio's value and its change since the last
 * digest. Once per user and local day across instances: a store claim (`digest-sent:<user>:<day>`)
 * decides who sends it. It goes through the Notifier (kind `digest`: its mode, quiet hours) and so
 * through the delivery queue, under Telegram's broadcast limits.
 *
 * @example
 * const digest = new DailyDigest(deps);
 * await digest.run(notifier); // in each tick
 */
import Big from "big.js";
import { FiredLog } from "../../alerts/fired-log.ts";
import type { BotDeps } from "../../bot/deps.ts";
import { type DigestData, digestText } from "../../bot/ui/digest-text.ts";
import { EUR } from "../../domain/currency.ts";
import { localTime } from "../../domain/time-zone.ts";
import type { MarketPrice } from "../../market/types.ts";
import type { Notifier } from "../../notify/notifier.ts";

const DAY_MS = 24 * 60 * 60_000;
/** How many hours after the user's hour a digest not yet sent still goes out. */
const CATCH_UP_HOURS = 3;
/** What a digest shows when the user watches nothing. */
const DEFAULT_WATCH = ["btc", "eth"];
const sentKey = (userId: number, day: string) => `digest-sent:${userId}:${day}`;
const portfolioKey = (userId: number) => `digest-portfolio:${userId}`;

export type DigestDeps = Pick<
  BotDeps,
  "profiles" | "alertBook" | "market" | "orders" | "store" | "clock" | "log" | "partner"
>;

export class DailyDigest {
  readonly #deps: DigestDeps;
  readonly fired: FiredLog;
  /** The day each user's digest was claimed (by anyone), so later ticks skip the claim. */
  readonly #claimed = new Map<number, string>();

  constructor(deps: DigestDeps) {
    this.#deps = deps;
    this.fired = new FiredLog(deps.store);
  }

  /** Sends today's digest to every subscriber whose hour has come; returns how many this call sent. */
  async run(notifier: Pick<Notifier, "notify">): Promise<number> {
    const { profiles, store, clock, log } = this.#deps;
    const now = clock.now();
    let sent = 0;
    for (const { userId, profile } of await profiles.digestSubscribers()) {
      try {
        const zone = profile.timeZone ?? "UTC";
        const local = localTime(zone, now);
        // At the hour, or up to a few hours late (a restart, a deploy): not whenever it is past it,
        // or switching the digest on at night would send one at once.
        const late = local.hour - profile.digestHour;
        if (late < 0 || late >= CATCH_UP_HOURS) continue;
        const day = `${local.year}-${String(local.month).padStart(2, "0")}-${String(local.day).padStart(2, "0")}`;
        if (this.#claimed.get(userId) === day) continue;
        // Gathered before the claim: a failure here leaves the day's digest to the next tick.
        const data = await this.gather(userId, zone, now);
        const first = await store.setIfAbsent(sentKey(userId, day), now, 3 * DAY_MS);
        // Claimed by someone: later ticks of this instance skip the user until the next day.
        if (this.#claimed.size > 100_000) this.#claimed.clear();
        this.#claimed.set(userId, day);
        if (!first) continue;
        try {
          await notifier.notify({
            userId,
            kind: "digest",
            render: (t, locale) => ({ text: digestText(t, data, locale) }),
          });
        } catch (error) {
          await store.delete(sentKey(userId, day));
          this.#claimed.delete(userId);
          throw error;
        }
        sent++;
      } catch (error) {
        log.warn({ err: error, userId }, "daily digest failed for a user");
      }
    }
    return sent;
  }

  /** The digest's figures for one user at `now`. */
  async gather(userId: number, zone: string, now: number): Promise<DigestData> {
    const { alertBook, market, orders } = this.#deps;
    const [alerts, fired, finished, snapshot] = await Promise.all([
      alertBook.list(userId),
      this.fired.since(userId, now - DAY_MS),
      orders.ledger.finishedSince(userId, now - DAY_MS),
      // Without prices (the exchange unreachable) the digest still tells the rest. The feed may
      // throw before it returns a promise (nothing cached to fall back on).
      (async () => market.snapshot())().catch(() => undefined),
    ]);
    const settled = finished.filter((action) => action.state === "settled");
    const prices = snapshot?.prices ?? [];
    const portfolio = await this.#portfolio(userId, prices).catch(() => undefined);
    const watched = new Set([
      ...alerts.map((a) => a.currency),
      ...fired.map((f) => f.currency),
      ...settled.map((a) => a.currency),
      ...(portfolio?.held ?? []),
    ]);
    watched.delete(EUR);
    const wanted = watched.size > 0 ? watched : new Set(DEFAULT_WATCH);
    return {
      zone,
      prices: snapshot === undefined ? undefined : prices.filter((p) => wanted.has(p.currency)),
      fired,
      settled,
      ...(portfolio ? { portfolio: { value: portfolio.value, before: portfolio.before } } : {}),
    };
  }

  /**
   * Partner mode: the user's balances valued at the feed's prices (the exchange's own EUR value
   * where the feed has none), remembered for tomorrow's change. Undefined outside partner mode,
   * for a user without a partner account, or when a balance cannot be valued.
   */
  async #portfolio(
    userId: number,
    prices: readonly MarketPrice[],
  ): Promise<{ value: string; before: string | undefined; held: string[] } | undefined> {
    const partner = this.#deps.partner;
    if (partner === undefined) return undefined;
    const partnerUserId = await partner.users.partnerIdOf(userId);
    if (partnerUserId === undefined) return undefined;
    const { rows } = await partner.api.userBalance(partnerUserId);
    let value = new Big(0);
    for (const row of rows) {
      const price = prices.find((p) => p.currency === row.currency)?.price;
      const worth =
        row.currency === EUR ? row.amount : price !== undefined ? row.amount.times(price) : row.eur;
      if (worth === undefined) return undefined;
      value = value.plus(worth);
    }
    const store = this.#deps.store;
    const before = await store.get<string>(portfolioKey(userId));
    await store.set(portfolioKey(userId), value.toFixed(2), 3 * DAY_MS);
    const held = rows.filter((r) => r.amount.gt(0)).map((r) => r.currency);
    return { value: value.toFixed(2), before, held };
  }
}
