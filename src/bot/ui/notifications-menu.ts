/**
 * The notifications menu (/settings → 🔔): per kind on / silent / off, the digest's hour, quiet
 * hours and the time zone they are read in. Buttons carry the value they set (a double tap, or a
 * tap on an old menu, sets the same value again); a kind's button shows its mode and sets the
 * next one (on → silent → off → on).
 */
import { InlineKeyboard } from "grammy";
import { localTime, offsetLabel } from "../../domain/time-zone.ts";
import type { Translate } from "../../domain/translate.ts";
import { clockText } from "../../notify/quiet-hours.ts";
import {
  NOTIFY_KINDS,
  type NotifyKind,
  type NotifyMode,
  type QuietHours,
  type UserProfile,
} from "../../session/profiles.ts";
import { CALLBACK } from "./callback-data.ts";
import { formatWallClock } from "./format.ts";

/** The word of a mode ("on", "silent", "off"). */
export const MODE_KEYS: Record<NotifyMode, string> = {
  on: "settings-mode-on",
  silent: "settings-mode-silent",
  off: "settings-mode-off",
};

const KIND_KEYS: Record<NotifyKind, string> = {
  alerts: "settings-button-alerts",
  orders: "settings-button-orders",
  expiry: "settings-button-expiry",
  digest: "settings-button-digest",
};

const NEXT_MODE: Record<NotifyMode, NotifyMode> = { on: "silent", silent: "off", off: "on" };

/** The digest's hours offered as buttons (any other hour: `/settings digest 19`). */
export const DIGEST_HOURS = [7, 8, 9, 18, 20] as const;
/** Quiet hours offered as buttons, in minutes of the local day. */
export const QUIET_CHOICES: readonly QuietHours[] = [
  { from: 22 * 60, to: 7 * 60 },
  { from: 23 * 60, to: 7 * 60 },
  { from: 0, to: 8 * 60 },
];

/** Hours offered when quiet hours are asked hour by hour (any other is typed). */
export const QUIET_FROM_HOURS = [20, 21, 22, 23, 0] as const;
export const QUIET_TO_HOURS = [5, 6, 7, 8, 9] as const;

/** "22:00–07:00". */
export function quietText(quiet: QuietHours): string {
  return `${clockText(quiet.from)}–${clockText(quiet.to)}`;
}

export function notificationsText(t: Translate, profile: UserProfile, now: number): string {
  const zone = profile.timeZone;
  const local = zone === undefined ? undefined : localTime(zone, now);
  const lines = [t("notify-menu-title"), ""];
  for (const kind of NOTIFY_KINDS) {
    lines.push(
      t(KIND_KEYS[kind], {
        state: t(MODE_KEYS[profile.notifications[kind]]),
        mode: profile.notifications[kind],
      }),
    );
  }
  lines.push(
    // The digest goes out at its hour in UTC until a zone is chosen: the zone is named either way.
    t("notify-menu-digest-hour", { time: formatWallClock(clockText(profile.digestHour * 60), zone) }),
    t("notify-menu-quiet", {
      hours:
        profile.quietHours && zone
          ? formatWallClock(quietText(profile.quietHours), zone)
          : t("settings-mode-off"),
    }),
    zone === undefined || local === undefined
      ? t("notify-menu-zone-none")
      : t("notify-menu-zone", {
          zone,
          offset: offsetLabel(zone, now),
          time: clockText(local.hour * 60 + local.minute),
        }),
    "",
    t("notify-menu-explained"),
  );
  return lines.join("\n");
}

export function notificationsKeyboard(t: Translate, profile: UserProfile): InlineKeyboard {
  const tick = (selected: boolean, label: string) => (selected ? `✓ ${label}` : label);
  const keyboard = new InlineKeyboard();
  for (const kind of NOTIFY_KINDS) {
    const mode = profile.notifications[kind];
    keyboard
      .text(
        // The icon says the mode too (🔔 on, 🔕 silent, ⛔ off): one glance, before reading the word.
        t(KIND_KEYS[kind], { state: t(MODE_KEYS[mode]), mode }),
        CALLBACK.settingsNotify.data(kind, NEXT_MODE[mode]),
      )
      .row();
  }
  for (const hour of DIGEST_HOURS) {
    keyboard.text(
      tick(profile.digestHour === hour, `☀️ ${clockText(hour * 60)}`),
      CALLBACK.notifyDigestHour.data(hour),
    );
  }
  keyboard.row();
  const quiet = profile.timeZone === undefined ? undefined : profile.quietHours;
  keyboard.text(tick(quiet === undefined, t("notify-button-quiet-off")), CALLBACK.notifyQuiet.data());
  for (const choice of QUIET_CHOICES) {
    const selected = quiet?.from === choice.from && quiet.to === choice.to;
    keyboard.text(tick(selected, `🌙 ${quietText(choice)}`), CALLBACK.notifyQuiet.data(choice));
  }
  keyboard
    .row()
    .text(t("notify-button-quiet-other"), CALLBACK.notifyQuietPick.data())
    .text(t("notify-button-zone"), CALLBACK.notifyZone.data());
  return keyboard;
}
