/**
 * `/verify` (partner mode): the user pastes the share token their identity-verification
 * provider gave them; the message is deleted like a password, the exchange imports the KYC data
 * (`POST v1/users/{id}/kyc-import`), and the user sees their new status. `/verify TOKEN` in one
 * message works too (that message is deleted first). Refusals are said in a sentence.
 *
 * `/verify TOKEN` typed in a group is never imported: the message is deleted at once, and where
 * the bot may not delete it (not an admin there), the group is told that the token counts as seen.
 */
import type { ChatTypeContext } from "grammy";
import { ExchangeError } from "../../../exchange/errors.ts";
import type { BotContext, Flow, FlowContext, PrivateContext } from "../../context.ts";
import type { PartnerBotDeps } from "../../deps.ts";
import { enterFlow } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { flowUserId } from "../../flows/user.ts";
import { waitForSecret } from "../../flows/wait.ts";
import { refusalWords } from "../../middleware/error-boundary.ts";
import type { FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { privateChatKeyboard } from "../../ui/keyboards.ts";
import { readKyc } from "../../ui/kyc-status.ts";

export const VERIFY_FLOW = "verify";
const VERIFY_TIMEOUT_MS = 10 * 60_000;
/** Share tokens are long opaque strings; anything much shorter was not pasted whole. */
const TOKEN_SHAPE = /^\S{8,2048}$/;

type Deps = Pick<PartnerBotDeps, "partner">;

/** The `VERIFY_FLOW` conversation, installed by bot.ts. */
export function partnerVerifyConversation(deps: Deps): FlowSpec {
  return { id: VERIFY_FLOW, steps: verifyFlow(deps), timeoutMs: VERIFY_TIMEOUT_MS };
}

export function partnerVerifyFeature(deps: Deps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("verify", async (ctx) => {
    const inline = ctx.match.trim();
    // A token typed after the command is a secret like any other: gone before anything else.
    if (inline !== "") await ctx.deleteMessage();
    const partnerUserId = await deps.partner.users.partnerIdOf(ctx.from.id);
    if (partnerUserId === undefined) {
      await ctx.reply(ctx.t("signup-required"));
      return;
    }
    const user = await deps.partner.api.getUser(partnerUserId);
    await deps.partner.kyc.saw(ctx.from.id, user.kyc_status);
    if (user.kyc_status === "passed" || user.kyc_status === "pending") {
      await ctx.reply(readKyc(ctx.t, user, deps.partner.supportContact).text);
      return;
    }
    if (inline !== "") {
      await ctx.reply(await importToken(deps, ctx, { telegramId: ctx.from.id, partnerUserId }, inline));
      return;
    }
    await enterFlow(ctx, VERIFY_FLOW);
  });
  return composer;
}

type GroupContext = ChatTypeContext<BotContext, "group" | "supergroup">;

/**
 * `/verify TOKEN` in a group (partner mode; bot.ts installs it before the group redirect). The
 * token is a secret the whole group can read: deleted first, never imported (the import would
 * tie the user's identity to a token others have seen). Any failure to delete, the usual one
 * being a bot without the admin right, means the token may still stand there: the answer, a reply
 * to that message, tells the user to treat it as seen and get a new one. A reply in the group
 * reaches the user whether or not they ever opened a private chat with the bot, and tells the
 * others the token is void. `/verify` alone gets the group's usual redirect.
 */
export function verifyInGroup(): Feature<GroupContext> {
  const composer = new Feature<GroupContext>();
  composer.command("verify", async (ctx, next) => {
    if (ctx.match.trim() === "") return next();
    const deleted = await ctx.deleteMessage().then(
      () => true,
      () => false,
    );
    const keyboard = privateChatKeyboard(ctx.t, ctx.me.username);
    if (deleted) {
      await ctx.reply(ctx.t("verify-group-deleted"), { reply_markup: keyboard });
      return;
    }
    await ctx.reply(ctx.t("verify-group-not-deleted"), {
      reply_markup: keyboard,
      reply_parameters: { message_id: ctx.msgId ?? 0, allow_sending_without_reply: true },
    });
  });
  return composer;
}

function verifyFlow(deps: Deps) {
  return async function verify(conversation: Flow, ctx: FlowContext): Promise<void> {
    const telegramId = flowUserId(ctx);
    const partnerUserId = await externalCall(conversation, () => deps.partner.users.partnerIdOf(telegramId));
    if (partnerUserId === undefined) return;
    await ctx.reply(ctx.t("verify-ask-token"));
    const answer = await waitForSecret(conversation);
    await answer.deleteMessage();
    const token = answer.message.text.trim();
    const text = await externalCall(conversation, () =>
      importToken(deps, ctx, { telegramId, partnerUserId }, token),
    );
    await ctx.reply(text);
  };
}

/** Imports the KYC data behind `token`; the sentence to show: the new status, or the refusal. */
async function importToken(
  deps: Deps,
  ctx: Pick<FlowContext, "t">,
  who: { telegramId: number; partnerUserId: number },
  token: string,
): Promise<string> {
  const { partnerUserId } = who;
  if (!TOKEN_SHAPE.test(token)) return ctx.t("verify-bad-token");
  try {
    const accepted = await deps.partner.api.importKyc(partnerUserId, token);
    if (!accepted) return ctx.t("verify-refused", { reason: "—", support: deps.partner.supportContact });
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    if (error.kind === "validation" || error.kind === "http" || error.kind === "forbidden") {
      const reason = refusalWords(ctx.t, error);
      return ctx.t("verify-refused", { reason, support: deps.partner.supportContact });
    }
    return ctx.t("verify-unavailable");
  }
  const user = await deps.partner.api.getUser(partnerUserId);
  await deps.partner.kyc.saw(who.telegramId, user.kyc_status);
  return `${ctx.t("verify-imported")}\n\n${readKyc(ctx.t, user, deps.partner.supportContact).text}`;
}
