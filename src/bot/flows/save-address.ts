/**
 * Saving a crypto address, inside a flow (/addresses add, and /send when the typed address is not
 * saved): its label, then a fresh 2FA code, then the address is saved and starts its cooling-off;
 * the user is told when it becomes usable (and told again then: the jobs' cooling notices).
 *
 * The fresh code is checked by a fresh login (flows/fresh-secret.ts): the exchange API takes a 2FA
 * code only at its login and in an order's POST, and saving an address places no order. With a
 * remembered password that is the code alone; otherwise the password and the code. Either way the
 * messages are deleted, failed attempts count against the login limits (SECURITY.md, rule 3), and
 * the questions carry the anti-phishing phrase.
 *
 * @example
 * const saved = await saveAddressSteps(conversation, ctx, deps, { currency: "btc", address });
 */

import { LABEL_MAX_LENGTH } from "../../safety/saved-addresses.ts";
import type { Flow, FlowContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { escapeHtml, formatMoment } from "../ui/format.ts";
import { cleanLabel } from "../ui/send-input.ts";
import { userText } from "../ui/user-text.ts";
import { externalCall } from "./external.ts";
import { freshSecretSteps } from "./fresh-secret.ts";
import { flowUserId } from "./user.ts";
import { waitForText } from "./wait.ts";

export type SaveAddressDeps = Pick<BotDeps, "sessions" | "profiles" | "phishing" | "safety" | "partner">;

/** True when the address is saved (newly, or relabelled) at the end. */
export async function saveAddressSteps(
  conversation: Flow,
  ctx: FlowContext,
  deps: SaveAddressDeps,
  target: { currency: string; address: string },
): Promise<boolean> {
  const userId = flowUserId(ctx);
  const code = target.currency.toUpperCase();
  await ctx.reply(ctx.t("addresses-ask-label", { code, max: LABEL_MAX_LENGTH }));
  let label: string | undefined;
  while (label === undefined) {
    const answer = await waitForText(conversation);
    label = cleanLabel(answer.message.text, LABEL_MAX_LENGTH);
    if (label === undefined) await answer.reply(ctx.t("addresses-bad-label", { max: LABEL_MAX_LENGTH }));
  }
  if (!(await freshSecretSteps(conversation, ctx, deps))) {
    await ctx.reply(ctx.t("addresses-not-saved"));
    return false;
  }
  const named = label;
  const outcome = await externalCall(conversation, () =>
    deps.safety.saveAddress(userId, { currency: target.currency, label: named, address: target.address }),
  );
  if (!outcome.ok) {
    await ctx.reply(ctx.t("addresses-full"));
    return false;
  }
  const locale = await ctx.i18n.getLocale();
  const vars = {
    label: escapeHtml(userText(outcome.saved.label)),
    code,
    time: formatMoment(outcome.saved.usableAt, locale),
  };
  await ctx.reply(ctx.t(outcome.existed ? "addresses-relabelled" : "addresses-saved", vars), {
    parse_mode: "HTML",
  });
  return true;
}
