/**
 * Work the bot starts by itself, on a timer: session expiry warnings and auto-logout. Each tick
 * is awaited before the next is scheduled, so a slow exchange never piles ticks up.
 */
import type { Api } from "grammy";
import type { BotDeps } from "./bot/deps.ts";
import { createI18n } from "./bot/i18n.ts";
import { sendOrderNotices } from "./bot/features/trade.ts";
import { formatTime } from "./bot/ui/format.ts";
import { loginKeyboard } from "./bot/ui/keyboards.ts";
import { Ledger } from "./orders/ledger.ts";
import { reconcileAll } from "./orders/reconcile.ts";
import { checkSessions, type SessionNotice } from "./session/expiry-watch.ts";

export interface BackgroundJobs {
  /** Runs one tick now (tests and the demo call it instead of waiting). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startBackgroundJobs(options: {
  deps: BotDeps;
  api: Api;
  intervalMs: number;
  /** false: no timer, ticks only when asked (tests). */
  autoStart?: boolean;
}): BackgroundJobs {
  const { deps, api } = options;
  const i18n = createI18n({ defaultLocale: deps.config.defaultLocale, profiles: deps.profiles });

  async function notify(notice: SessionNotice): Promise<void> {
    const locale = notice.locale ?? deps.config.defaultLocale;
    const t = (key: string, vars?: Record<string, string | number>) => i18n.t(locale, key, vars);
    if (notice.kind === "expiry-warning") {
      await api.sendMessage(
        notice.userId,
        t("login-expiry-warning", { time: formatTime(notice.expiresAt, locale) }),
        {
          reply_markup: loginKeyboard((key) => (key === "button-login" ? t("login-stay-button") : t(key))),
        },
      );
    } else {
      await api.sendMessage(notice.userId, t("logout-auto", { minutes: notice.minutes }));
    }
  }

  const ledger = new Ledger(deps.store, deps.clock);
  /** Orders whose outcome is open (sent, unknown, placed): reconciled, and their owners told. */
  async function reconcileOrders(): Promise<void> {
    try {
      const notices = await reconcileAll({ ...deps, ledger });
      await sendOrderNotices(
        api,
        notices,
        (locale, key, vars) => i18n.t(locale, key, vars),
        deps.config.defaultLocale,
        deps.log,
      );
    } catch (error) {
      deps.log.error({ err: error }, "order reconciliation failed");
    }
  }

  async function tick(): Promise<void> {
    try {
      await checkSessions({ ...deps, notify });
    } catch (error) {
      deps.log.error({ err: error }, "session check failed");
    }
    await reconcileOrders();
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  if (options.autoStart !== false) {
    // At start: orders left open by a crash or a restart are reconciled at once, not a tick later.
    running = reconcileOrders();
    schedule();
  }

  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
