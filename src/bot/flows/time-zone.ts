/**
 * The user's time zone inside a flow: read from the profile, or asked once (a city or a UTC
 * offset) and saved there, so quiet hours, the digest and recurring plans run at the user's own
 * hours. Asked again only when the user changes it (the same step, `ask: true`).
 *
 * @example
 * const zone = await flowTimeZone(conversation, ctx, deps);
 * if (zone === undefined) return; // the user left with /cancel or a command
 */
import { localTime, offsetLabel, parseTimeZone } from "../../domain/time-zone.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { externalCall } from "./external.ts";
import { flowUserId } from "./user.ts";
import { waitAnswer } from "./wait.ts";

const HTML = { parse_mode: "HTML" } as const;

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
  // A city nobody knows is asked again, never the end of the flow: /cancel, a command or the
  // flow's timeout ends it.
  for (;;) {
    const answer = await waitAnswer(conversation, { commands: "step-aside" });
    if (answer.kind !== "text") continue;
    const zone = parseTimeZone(answer.text);
    if (zone === undefined) {
      await answer.ctx.reply(ctx.t("time-zone-unknown"), HTML);
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
}
