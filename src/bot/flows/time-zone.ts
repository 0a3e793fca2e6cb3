/**
 * The user's time zone inside a flow: read from the profile, or asked once (a city or a UTC
 * offset) and saved there, so quiet hours, the digest and recurring plans run at the user's own
 * hours. Asked again only when the user changes it (the same step, `ask: true`).
 *
 * @example
 * const zone = await flowTimeZone(conversation, ctx, deps);
 * if (zone === undefined) return; // the user left with /cancel or a command
 */
import { localTime, offsetLabel, parseTimeZone } from "../../time-zone.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { externalCall } from "./external.ts";
import { flowUserId } from "./user.ts";
import { waitAnswer } from "./wait.ts";

const HTML = { parse_mode: "HTML" } as const;

/** Wrong answers before the step gives up (the flow ends; the user can start it again). */
const ATTEMPTS = 3;

export async function flowTimeZone(
  conversation: Flow,
  ctx: FlowContext,
  deps: Pick<BotDeps, "profiles" | "clock">,
  options: { ask?: boolean } = {},
): Promise<string | undefined> {
  const userId = flowUserId(ctx);
  if (options.ask !== true) {
    const saved = await externalCall(conversation, async () => (await deps.profiles.get(userId)).timeZone);
    if (saved !== undefined) return saved;
  }
  await ctx.reply(ctx.t("time-zone-ask"), HTML);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const answer = await waitAnswer(conversation, { commands: "step-aside" });
    if (answer.kind !== "text") continue;
    const zone = parseTimeZone(answer.text);
    if (zone === undefined) {
      await answer.ctx.reply(ctx.t(attempt < ATTEMPTS ? "time-zone-unknown" : "time-zone-gave-up"), HTML);
      continue;
    }
    const now = await externalCall(conversation, async () => {
      await deps.profiles.update(userId, (profile) => ({ ...profile, timeZone: zone }));
      return deps.clock.now();
    });
    const local = localTime(zone, now);
    const time = `${String(local.hour).padStart(2, "0")}:${String(local.minute).padStart(2, "0")}`;
    await answer.ctx.reply(ctx.t("time-zone-saved", { zone, offset: offsetLabel(zone, now), time }));
    return zone;
  }
  return undefined;
}
