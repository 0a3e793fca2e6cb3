/**
 * /me and /profile in partner mode. `/me` shows the stored profile (GET …/users/{id}); `/profile`
 * offers to change the name, the surname, the phone or the address (street, building number,
 * postal code, city, three-letter country), each checked as typed, then sent with update user
 * (POST …/users) and the profile shown as the exchange now has it.
 *
 * Tolerant reading: the exchange's API reference does not say how update is told apart from create on the
 * shared path; the body carries the user's `id` and only the changed fields.
 *
 * `/profile phone` (name, surname, address) skips the question of what to change.
 */
import { InlineKeyboard } from "grammy";
import { ExchangeError } from "../../../exchange/errors.ts";
import type { PartnerServices } from "../../../partner/services.ts";
import type { Flow, FlowContext, PrivateContext } from "../../context.ts";
import { enterFlow } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { partnerUserOf } from "../../flows/partner-user.ts";
import { flowUserId } from "../../flows/user.ts";
import { waitForText } from "../../flows/wait.ts";
import { refusalWords } from "../../middleware/error-boundary.ts";
import { FLOW_TIMEOUT_MS, type FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { CALLBACK } from "../../ui/callback-data.ts";
import { fieldMessages, PERSON_LABELS } from "../../ui/fields.ts";
import { escapeHtml } from "../../ui/format.ts";
import { type ProfileField, profileSteps } from "../../ui/profile-input.ts";

/** Not key-shaped on purpose: a conversation id, not a sentence. */
export const PROFILE_FLOW = "partnerProfile";
const MAX_WRONG = 20;
const FIELDS: readonly ProfileField[] = ["name", "surname", "phone", "address"];

function isField(word: string): word is ProfileField {
  return (FIELDS as readonly string[]).includes(word);
}

/** The `PROFILE_FLOW` conversation, installed by bot.ts. */
export function partnerProfileConversation(deps: { partner: PartnerServices }): FlowSpec {
  return { id: PROFILE_FLOW, steps: profileFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
}

export function partnerMeFeature(deps: { partner: PartnerServices }): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("me", async (ctx) => {
    const id = await partnerUserOf(ctx, deps);
    if (id === undefined) return;
    const user = await deps.partner.api.getUser(id);
    const messages = await profileMessages(ctx, user, ctx.t("partner-me-title"));
    for (const text of [...messages, ctx.t("partner-me-hint")]) await ctx.reply(text, { parse_mode: "HTML" });
  });

  composer.command("profile", async (ctx) => {
    const word = ctx.match.trim().toLowerCase();
    if (isField(word)) {
      await enterFlow(ctx, PROFILE_FLOW, word);
      return;
    }
    const keyboard = new InlineKeyboard()
      .text(ctx.t("partner-profile-button-name"), CALLBACK.profileField.data("name"))
      .text(ctx.t("partner-profile-button-surname"), CALLBACK.profileField.data("surname"))
      .row()
      .text(ctx.t("partner-profile-button-phone"), CALLBACK.profileField.data("phone"))
      .text(ctx.t("partner-profile-button-address"), CALLBACK.profileField.data("address"));
    await ctx.reply(ctx.t("partner-profile-choose"), { reply_markup: keyboard });
  });

  composer.callbackQuery(CALLBACK.profileField.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { field } = CALLBACK.profileField.read(ctx);
    await enterFlow(ctx, PROFILE_FLOW, field);
  });

  return composer;
}

function profileFlow(flowDeps: { partner: PartnerServices }) {
  return async function partnerProfile(conversation: Flow, ctx: FlowContext, field: string): Promise<void> {
    if (!isField(field)) return;
    const telegramId = flowUserId(ctx);
    const partnerUserId = await externalCall(conversation, () =>
      flowDeps.partner.users.partnerIdOf(telegramId),
    );
    if (partnerUserId === undefined) {
      await ctx.reply(ctx.t("partner-not-linked"));
      return;
    }
    const changes: Record<string, string> = {};
    for (const step of profileSteps(field)) {
      await ctx.reply(ctx.t(step.ask));
      let value: string | undefined;
      for (let wrong = 0; value === undefined; wrong++) {
        if (wrong >= MAX_WRONG) {
          await ctx.reply(ctx.t("partner-profile-too-many-tries"));
          return;
        }
        const answer = await waitForText(conversation);
        const checked = step.check(answer.message.text, changes);
        if (checked.ok) value = checked.value;
        else await answer.reply(ctx.t(checked.refusal, checked.vars));
      }
      changes[step.name] = value;
    }
    const outcome = await externalCall(conversation, async () => {
      try {
        await flowDeps.partner.api.updateUser({ id: partnerUserId, ...changes });
        return { ok: true as const };
      } catch (error) {
        if (error instanceof ExchangeError && error.kind === "validation") {
          return { ok: false as const, message: refusalWords(ctx.t, error) };
        }
        throw error;
      }
    });
    if (!outcome.ok) {
      await ctx.reply(ctx.t("partner-profile-refused", { message: escapeHtml(outcome.message) }), {
        parse_mode: "HTML",
      });
      return;
    }
    const user = await externalCall(conversation, () => flowDeps.partner.api.getUser(partnerUserId));
    const messages = await profileMessages(ctx, user, ctx.t("partner-profile-saved"));
    for (const text of messages) await ctx.reply(text, { parse_mode: "HTML" });
  };
}

/** The profile as messages; `user` is what GET …/users/{id} returned. */
async function profileMessages(ctx: FlowContext | PrivateContext, user: unknown, title: string) {
  const locale = await ctx.i18n.getLocale();
  return fieldMessages(ctx.t, title, user, locale, {
    empty: ctx.t("partner-me-empty"),
    labels: PERSON_LABELS,
  });
}
