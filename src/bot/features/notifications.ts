/**
 * The notifications menu, opened from /settings (🔔): per kind (price alerts, order updates,
 * session expiry, the daily digest) on / silent / off, the digest's hour, quiet hours and the time
 * zone both are read in. What the choices do happens in notify/notifier.ts (modes, quiet hours)
 * and src/digest.ts; this only records them in the profile.
 *
 * Quiet hours and the digest run on the user's own clock: the first choice that needs it asks for
 * the time zone (flows/time-zone.ts, a city or an offset) and is saved once the zone is known.
 * The menu edits itself; after the question it comes again as a new message. `/notifications`
 * opens it too (partner mode has no /settings, and its digest carries the portfolio).
 */

import { DAY_MINUTES } from "../../notify/quiet-hours.ts";
import {
  NOTIFY_KINDS,
  type NotifyKind,
  type NotifyMode,
  type QuietHours,
  type UserProfile,
  withMode,
} from "../../session/profiles.ts";
import { isTimeZone } from "../../time-zone.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { flowTimeZone } from "../flows/time-zone.ts";
import { flowUserId } from "../flows/user.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { editInPlace } from "../ui/edit.ts";
import { notificationsKeyboard, notificationsText } from "../ui/notifications-menu.ts";

/** The conversation that asks for the time zone, then saves the choice that needed it. */
export const NOTIFICATIONS_FLOW = "notifications";

type NotificationsDeps = Pick<BotDeps, "profiles" | "clock">;

/** A choice in the menu (also the flow's argument: JSON, kept while the question waits). */
export type MenuChange =
  | { kind: "mode"; which: NotifyKind; mode: NotifyMode }
  | { kind: "hour"; hour: number }
  | { kind: "quiet"; hours: QuietHours | undefined }
  | { kind: "zone" };

const MODES: Record<string, NotifyMode> = { "1": "on", s: "silent", "0": "off" };

export function applyMenuChange(profile: UserProfile, change: MenuChange): UserProfile {
  if (change.kind === "mode") return withMode(profile, change.which, change.mode);
  if (change.kind === "hour") return { ...profile, digestHour: change.hour };
  if (change.kind === "quiet") return { ...profile, quietHours: change.hours };
  // The time zone is saved by its own step (flows/time-zone.ts).
  return profile;
}

/** Whether the change runs on the user's own clock (then a time zone is needed first). */
function needsZone(change: MenuChange): boolean {
  if (change.kind === "mode") return change.which === "digest" && change.mode !== "off";
  if (change.kind === "quiet") return change.hours !== undefined;
  return change.kind === "hour";
}

async function menu(deps: NotificationsDeps, ctx: PrivateContext | FlowContext, userId: number) {
  const profile = await deps.profiles.get(userId);
  return {
    text: notificationsText(ctx.t, profile, deps.clock.now()),
    keyboard: notificationsKeyboard(ctx.t, profile),
  };
}

function notificationsFlow(deps: NotificationsDeps) {
  return async function notifications(
    conversation: Flow,
    ctx: FlowContext,
    change: MenuChange,
  ): Promise<void> {
    const userId = flowUserId(ctx);
    const zone = await flowTimeZone(conversation, ctx, deps, { ask: change.kind === "zone" });
    if (zone === undefined) return;
    const { text, keyboard } = await externalCall(conversation, async () => {
      await deps.profiles.update(userId, (profile) => applyMenuChange(profile, change));
      const shown = await menu(deps, ctx, userId);
      return { text: shown.text, keyboard: shown.keyboard.inline_keyboard };
    });
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: { inline_keyboard: keyboard } });
  };
}

/** The `NOTIFICATIONS_FLOW` conversation, installed by bot.ts. */
export function notificationsConversation(deps: NotificationsDeps): FlowSpec {
  return { id: NOTIFICATIONS_FLOW, steps: notificationsFlow(deps), timeoutMs: 5 * 60_000 };
}

export function notificationsFeature(deps: NotificationsDeps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  async function choose(ctx: PrivateContext, change: MenuChange): Promise<void> {
    await ctx.answerCallbackQuery();
    const zone = (await deps.profiles.get(ctx.from.id)).timeZone;
    if (change.kind === "zone" || (needsZone(change) && (zone === undefined || !isTimeZone(zone)))) {
      await enterFlow(ctx, NOTIFICATIONS_FLOW, change);
      return;
    }
    await deps.profiles.update(ctx.from.id, (profile) => applyMenuChange(profile, change));
    const { text, keyboard } = await menu(deps, ctx, ctx.from.id);
    await editInPlace(ctx, text, keyboard);
  }

  // Partner mode has no /settings: the menu answers its own command in both modes.
  composer.command("notifications", async (ctx) => {
    const { text, keyboard } = await menu(deps, ctx, ctx.from.id);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });
  composer.callbackQuery(CALLBACK.notifyMenu.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { text, keyboard } = await menu(deps, ctx, ctx.from.id);
    await editInPlace(ctx, text, keyboard);
  });
  composer.callbackQuery(CALLBACK.settingsNotify.pattern, async (ctx) => {
    const which = NOTIFY_KINDS.find((k) => k === ctx.match[1]);
    const mode = MODES[ctx.match[2] ?? ""];
    if (which === undefined || mode === undefined) return ctx.answerCallbackQuery();
    await choose(ctx, { kind: "mode", which, mode });
  });
  composer.callbackQuery(CALLBACK.notifyDigestHour.pattern, async (ctx) => {
    const hour = Number(ctx.match[1]);
    if (!(hour >= 0 && hour < 24)) return ctx.answerCallbackQuery();
    await choose(ctx, { kind: "hour", hour });
  });
  composer.callbackQuery(CALLBACK.notifyQuiet.pattern, async (ctx) => {
    if (ctx.match[1] === undefined) return choose(ctx, { kind: "quiet", hours: undefined });
    const from = Number(ctx.match[1]);
    const to = Number(ctx.match[2]);
    if (!(from < DAY_MINUTES && to < DAY_MINUTES && from !== to)) return ctx.answerCallbackQuery();
    await choose(ctx, { kind: "quiet", hours: { from, to } });
  });
  composer.callbackQuery(CALLBACK.notifyZone.data(), (ctx) => choose(ctx, { kind: "zone" }));
  return composer;
}
