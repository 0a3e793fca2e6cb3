/**
 * The notifications menu, opened from /settings (🔔): per kind (price alerts, order updates,
 * session expiry, the daily digest) on / silent / off, the digest's hour, quiet hours and the time
 * zone both are read in. What the choices do happens in notify/notifier.ts (modes, quiet hours)
 * and src/process/digest.ts; this only records them in the profile.
 *
 * Quiet hours and the digest run on the user's own clock: the first choice that needs it asks for
 * the time zone (flows/time-zone.ts, a city or an offset) and is saved once the zone is known.
 * The menu edits itself; after the question it comes again as a new message. `/notifications`
 * opens it too (partner mode has no /settings, and its digest carries the portfolio).
 *
 * Quiet hours of one's own choosing are asked hour by hour ("Other hours…": from, then to;
 * buttons of common hours, any other typed), the time zone with a question that takes a city or an
 * offset. Both can be typed at once too: `/notifications quiet 22 7` (or `off`), `/notifications
 * zone Berlin`; `/notifications quiet` and `/notifications zone` alone ask.
 */

import { isTimeZone, localTime, offsetLabel, parseTimeZone } from "../../domain/time-zone.ts";
import { DAY_MINUTES } from "../../notify/quiet-hours.ts";
import {
  type NotifyKind,
  type NotifyMode,
  type QuietHours,
  type UserProfile,
  withMode,
} from "../../session/profiles.ts";
import type { Flow, FlowContext, PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { enterFlow } from "../flows/enter.ts";
import { externalCall } from "../flows/external.ts";
import { askStep, tapped } from "../flows/guided.ts";
import { flowTimeZone } from "../flows/time-zone.ts";
import { flowUserId } from "../flows/user.ts";
import { flowButtons } from "../flows/wait.ts";
import type { FlowSpec } from "../runtime/conversations.ts";
import { Feature } from "../runtime/feature-router.ts";
import { CALLBACK, FLOW_BUTTONS } from "../ui/callback-data.ts";
import { editInPlace } from "../ui/edit.ts";
import { zoneName } from "../ui/format.ts";
import {
  notificationsKeyboard,
  notificationsText,
  QUIET_FROM_HOURS,
  QUIET_TO_HOURS,
} from "../ui/notifications-menu.ts";
import { hourKeyboard, hourLabel } from "../ui/plan-guide.ts";
import { readHour } from "../ui/plan-input.ts";

/** The conversation that asks for the time zone, then saves the choice that needed it. */
export const NOTIFICATIONS_FLOW = "notifications";

type NotificationsDeps = Pick<BotDeps, "profiles" | "clock">;

/** A choice in the menu (also the flow's argument: JSON, kept while the question waits). */
export type MenuChange =
  | { kind: "mode"; which: NotifyKind; mode: NotifyMode }
  | { kind: "hour"; hour: number }
  | { kind: "quiet"; hours: QuietHours | undefined }
  /** Quiet hours asked hour by hour (the zone first when there is none). */
  | { kind: "quiet-ask" }
  | { kind: "zone" };

export function applyMenuChange(profile: UserProfile, change: MenuChange): UserProfile {
  if (change.kind === "mode") return withMode(profile, change.which, change.mode);
  if (change.kind === "hour") return { ...profile, digestHour: change.hour };
  if (change.kind === "quiet") return { ...profile, quietHours: change.hours };
  // The time zone is saved by its own step (flows/time-zone.ts), asked quiet hours by theirs.
  return profile;
}

/** Whether the change runs on the user's own clock (then a time zone is needed first). */
function needsZone(change: MenuChange): boolean {
  if (change.kind === "mode") return change.which === "digest" && change.mode !== "off";
  if (change.kind === "quiet") return change.hours !== undefined;
  return change.kind === "hour" || change.kind === "quiet-ask";
}

const hourMinute = (hour: number, minute: number) =>
  `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;

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
    const chosen = change.kind === "quiet-ask" ? await askQuietHours(conversation, ctx, zone) : change;
    const { text, keyboard } = await externalCall(conversation, async () => {
      await deps.profiles.update(userId, (profile) => applyMenuChange(profile, chosen));
      const shown = await menu(deps, ctx, userId);
      return { text: shown.text, keyboard: shown.keyboard.inline_keyboard };
    });
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: { inline_keyboard: keyboard } });
  };
}

/** Quiet hours hour by hour in the user's `zone` (named in both questions): from (or none at all), then to. */
async function askQuietHours(conversation: Flow, ctx: FlowContext, zone: string): Promise<MenuChange> {
  const buttons = await flowButtons(conversation, FLOW_BUTTONS.quiet, "button-inactive");
  const actions = FLOW_BUTTONS.quiet.actions;
  const t = ctx.t.bind(ctx);
  const typedHour = (text: string) => readHour(text.toLowerCase().replace(/\s*uhr$/, ""));
  const from = await askStep<number | "off">(
    conversation,
    ctx,
    buttons,
    {
      text: t("notify-quiet-ask-from", { zone: zoneName(zone) }),
      keyboard: hourKeyboard(QUIET_FROM_HOURS, (hour) => buttons.own + actions.from(hour))
        .row()
        .text(t("notify-button-quiet-off"), buttons.own + actions.off()),
    },
    (answer) => {
      if (answer.kind === "tap" && answer.action === "off") return { value: "off" };
      const hour = tapped(answer, "f") ?? (answer.kind === "text" ? answer.text : undefined);
      if (hour === undefined) return undefined;
      const value = typedHour(hour);
      return value === undefined
        ? { again: t("notify-quiet-hour-again", { zone: zoneName(zone) }) }
        : { value };
    },
  );
  if (from.value === "off") return { kind: "quiet", hours: undefined };
  const start = from.value;
  const to = await askStep<number>(
    conversation,
    from.ctx,
    buttons,
    {
      text: t("notify-quiet-ask-to", { from: hourLabel(start), zone: zoneName(zone) }),
      keyboard: hourKeyboard(QUIET_TO_HOURS, (hour) => buttons.own + actions.to(hour)),
    },
    (answer) => {
      const hour = tapped(answer, "t") ?? (answer.kind === "text" ? answer.text : undefined);
      if (hour === undefined) return undefined;
      const value = typedHour(hour);
      if (value === undefined) return { again: t("notify-quiet-hour-again", { zone: zoneName(zone) }) };
      return value === start ? { again: t("notify-quiet-same-hour", { zone: zoneName(zone) }) } : { value };
    },
  );
  return { kind: "quiet", hours: { from: start * 60, to: to.value * 60 } };
}

/**
 * `/notifications quiet 22 7` (`22-7`, `22:00–07:00`, `22 bis 7`), `quiet off`; `zone Berlin`.
 * `ask` when the words name the setting without its value; undefined when they read as nothing.
 */
export function parseNotificationsCommand(
  text: string,
): MenuChange | { kind: "zone-typed"; zone: string } | { kind: "zone-unknown" } | undefined {
  const [what = "", ...rest] = text.trim().split(/\s+/);
  const value = rest.join(" ");
  const word = what.toLowerCase();
  if (["zone", "timezone", "zeitzone", "tz"].includes(word)) {
    if (value === "") return { kind: "zone" };
    const zone = parseTimeZone(value);
    return zone === undefined ? { kind: "zone-unknown" } : { kind: "zone-typed", zone };
  }
  if (!["quiet", "ruhezeit", "ruhe"].includes(word)) return undefined;
  const lower = value.toLowerCase();
  if (lower === "") return { kind: "quiet-ask" };
  if (["off", "aus", "none", "keine"].includes(lower)) return { kind: "quiet", hours: undefined };
  const hours = lower.split(/\s*(?:-|–|to|bis|\s)\s*/).filter((part) => part !== "");
  const [from, to] = hours.map((hour) => readHour(hour.replace(/uhr$/, "")));
  if (hours.length !== 2 || from === undefined || to === undefined || from === to) return undefined;
  return { kind: "quiet", hours: { from: from * 60, to: to * 60 } };
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
    const typed = ctx.match.trim();
    if (typed !== "") {
      const change = parseNotificationsCommand(typed);
      if (change === undefined) {
        await ctx.reply(ctx.t("notify-usage"));
      } else if (change.kind === "zone-unknown") {
        await ctx.reply(ctx.t("time-zone-unknown"), { parse_mode: "HTML" });
        return;
      } else if (change.kind === "zone-typed") {
        const now = deps.clock.now();
        await deps.profiles.update(ctx.from.id, (profile) => ({ ...profile, timeZone: change.zone }));
        const local = localTime(change.zone, now);
        await ctx.reply(
          ctx.t("time-zone-saved", {
            zone: change.zone,
            offset: offsetLabel(change.zone, now),
            time: hourMinute(local.hour, local.minute),
          }),
        );
      } else {
        const zone = (await deps.profiles.get(ctx.from.id)).timeZone;
        const asks = change.kind === "zone" || change.kind === "quiet-ask";
        if (asks || (needsZone(change) && (zone === undefined || !isTimeZone(zone)))) {
          await enterFlow(ctx, NOTIFICATIONS_FLOW, change);
          return;
        }
        await deps.profiles.update(ctx.from.id, (profile) => applyMenuChange(profile, change));
      }
    }
    const { text, keyboard } = await menu(deps, ctx, ctx.from.id);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });
  composer.callbackQuery(CALLBACK.notifyQuietPick.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, NOTIFICATIONS_FLOW, { kind: "quiet-ask" } satisfies MenuChange);
  });
  composer.callbackQuery(CALLBACK.notifyMenu.data(), async (ctx) => {
    await ctx.answerCallbackQuery();
    const { text, keyboard } = await menu(deps, ctx, ctx.from.id);
    await editInPlace(ctx, text, keyboard);
  });
  composer.callbackQuery(CALLBACK.settingsNotify.pattern, async (ctx) => {
    const { kind: which, mode } = CALLBACK.settingsNotify.read(ctx);
    await choose(ctx, { kind: "mode", which, mode });
  });
  composer.callbackQuery(CALLBACK.notifyDigestHour.pattern, async (ctx) => {
    const { hour } = CALLBACK.notifyDigestHour.read(ctx);
    if (!(hour >= 0 && hour < 24)) return ctx.answerCallbackQuery();
    await choose(ctx, { kind: "hour", hour });
  });
  composer.callbackQuery(CALLBACK.notifyQuiet.pattern, async (ctx) => {
    const { hours } = CALLBACK.notifyQuiet.read(ctx);
    if (hours === undefined) return choose(ctx, { kind: "quiet", hours: undefined });
    const { from, to } = hours;
    if (!(from < DAY_MINUTES && to < DAY_MINUTES && from !== to)) return ctx.answerCallbackQuery();
    await choose(ctx, { kind: "quiet", hours: { from, to } });
  });
  composer.callbackQuery(CALLBACK.notifyZone.data(), (ctx) => choose(ctx, { kind: "zone" }));
  return composer;
}
