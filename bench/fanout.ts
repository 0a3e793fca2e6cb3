/**
 * Fan-out of notifications through the delivery queue (src/notify/) to the Bot API double with
 * flood limits ENFORCED by the double (429 + retry_after past them), over real loopback HTTP:
 * the Notifier (profile switches, Fluent, the user's language) → DeliveryQueue → grammY Api →
 * the double. Printed: total time against the ideal (notifications / overall limit), messages
 * delivered and lost, 429s the double handed out, and any left unhandled (dropped).
 *
 * 10,000 notifications at Telegram's 30/s would take 333 s, too long for a bench run, so two
 * honest scaled runs, each ≈ 33 s ideal:
 *   real limits   1,000 notifications to 250 users (4 each), Telegram's figures: 30/s overall, 1/s per chat
 *   full count   10,000 notifications to 2,500 users (4 each), the double's limits AND the queue's
 *                raised 10×: 300/s overall, 10/s per chat (same pacing logic, ten times the clock)
 *
 * Run alone: `node bench/fanout.ts` (FANOUT_ONLY=real or FANOUT_ONLY=full for one of them).
 */
import { Api } from "grammy";
import { AlertBook } from "../src/alerts/book.ts";
import { createI18n } from "../src/bot/i18n.ts";
import { createDelivery } from "../src/notify/delivery.ts";
import { Profiles } from "../src/session/profiles.ts";
import { openStore } from "../src/store/open-store.ts";
import { Vault } from "../src/store/vault.ts";
import { ManualClock } from "../src/support/clock.ts";
import { silentLogger } from "../src/support/logger.ts";
import { startBotApiDouble } from "../src/telegram-double/index.ts";

export interface FanoutPlan {
  name: string;
  notifications: number;
  users: number;
  /** Overall messages per second, for the double and the queue. */
  globalPerSecond: number;
  /** Messages per second to one chat, for the double and the queue. */
  perChatPerSecond: number;
}

export const FANOUT_PLANS: FanoutPlan[] = [
  { name: "real limits", notifications: 1_000, users: 250, globalPerSecond: 30, perChatPerSecond: 1 },
  { name: "full count", notifications: 10_000, users: 2_500, globalPerSecond: 300, perChatPerSecond: 10 },
];

async function run(plan: FanoutPlan): Promise<string> {
  const double = await startBotApiDouble({
    limits: { globalPerSecond: plan.globalPerSecond, perChatPerSecond: plan.perChatPerSecond },
  });
  const store = await openStore("memory://");
  try {
    const userIds = Array.from({ length: plan.users }, (_, i) => 900_000 + i);
    for (const [i, id] of userIds.entries()) double.user(id, { languageCode: i % 3 === 0 ? "de" : "en" });
    const profiles = new Profiles(store);
    const delivery = createDelivery({
      deps: {
        alertBook: new AlertBook(store),
        i18n: createI18n({ defaultLocale: "en", profiles }),
        profiles,
        store,
        vault: Vault.fromBase64(Vault.generateKey()),
        clock: new ManualClock(),
        log: silentLogger,
        config: { defaultLocale: "en" },
      },
      api: new Api(double.token, { apiRoot: double.apiRoot }),
      queue: {
        globalPerSecond: plan.globalPerSecond,
        perChatIntervalMs: 1000 / plan.perChatPerSecond,
        maxInFlight: 64,
      },
    });
    const started = performance.now();
    for (let n = 0; n < plan.notifications; n++) {
      const userId = userIds[n % userIds.length] as number;
      await delivery.notifier.notify({
        userId,
        kind: "alerts",
        locale: n % 3 === 0 ? "de" : "en",
        render: (t) => ({
          text: t("alert-fired-above", {
            name: "Bitcoin",
            code: "BTC",
            level: "€60,000.00",
            price: `€60,${String(n % 1000).padStart(3, "0")}.00`,
            change: "+2%",
          }),
        }),
      });
    }
    const queuedMs = performance.now() - started;
    await delivery.notifier.queue.idle();
    const totalS = (performance.now() - started) / 1000;
    const delivered = userIds.reduce((sum, id) => sum + double.messages(id).length, 0);
    const stats = delivery.notifier.queue.stats;
    await delivery.stop();
    const ideal = Math.max(
      plan.notifications / plan.globalPerSecond,
      (Math.ceil(plan.notifications / plan.users) - 1) / plan.perChatPerSecond,
    );
    return [
      `    ${plan.name}: ${plan.notifications.toLocaleString("en")} notifications to ${plan.users.toLocaleString("en")} users, ` +
        `double enforcing ${plan.globalPerSecond}/s overall and ${plan.perChatPerSecond}/s per chat`,
      `      total ${totalS.toFixed(1)} s vs ideal ${ideal.toFixed(1)} s (+${((totalS / ideal - 1) * 100).toFixed(1)} %); ` +
        `queued in ${queuedMs.toFixed(0)} ms`,
      `      delivered ${delivered.toLocaleString("en")}, lost ${plan.notifications - delivered}; ` +
        `429s from the double ${double.stats.rateLimited} (all retried after retry_after: ${stats.rateLimited}); ` +
        `left unhandled (dropped) ${stats.failed + stats.blocked}`,
    ].join("\n");
  } finally {
    await store.close();
    await double.close();
  }
}

export async function benchFanout(plans: FanoutPlan[] = FANOUT_PLANS): Promise<string> {
  const lines = [
    "(f) Fan-out of notifications through the delivery queue to the Bot API double, limits enforced:",
  ];
  for (const plan of plans) lines.push(await run(plan));
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.env.FANOUT_ONLY;
  const plans = FANOUT_PLANS.filter((p) => !only || p.name.startsWith(only));
  console.log(await benchFanout(plans));
}
