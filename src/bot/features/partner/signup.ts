/**
 * `/start` in partner mode: a Telegram user the bot does not know signs
 * up — e-mail, name, surname, phone (the "share my phone" button, the sender's own contact only, or
 * typed and checked by libphonenumber-js), consent to the terms (TERMS_URL linked; version, address
 * and time kept), and a 6-digit PIN typed twice, refused when easy to guess. Each PIN message is deleted at once and the PIN is kept only as a salted
 * scrypt hash (partner/pins.ts). Then the exchange creates the partner user and the link
 * Telegram user → partner user is stored for good. A known user the exchange serves gets the home
 * card (flows/home.ts); one it does not serve yet, their verification status.
 */
import { InlineKeyboard, Keyboard } from "grammy";
import { ExchangeError } from "../../../exchange/errors.ts";
import { lazy } from "../../../support/lazy.ts";
import type { Flow, FlowContext, PrivateContext } from "../../context.ts";
import type { PartnerBotDeps } from "../../deps.ts";
import { enterFlow } from "../../flows/enter.ts";
import { externalCall } from "../../flows/external.ts";
import { type HomeDeps, showPartnerHome } from "../../flows/home.ts";
import { EMAIL } from "../../flows/log-in.ts";
import { askNewPin } from "../../flows/pin.ts";
import { flowUserId } from "../../flows/user.ts";
import { flowButtons, isPlainText, waitAnswer, waitForText } from "../../flows/wait.ts";
import { clientLocale } from "../../i18n.ts";
import { refusalKey } from "../../middleware/error-boundary.ts";
import type { FlowSpec } from "../../runtime/conversations.ts";
import { Feature } from "../../runtime/feature-router.ts";
import { FLOW_BUTTONS } from "../../ui/callback-data.ts";
import { readKyc } from "../../ui/kyc-status.ts";
import { checkPersonName } from "../../ui/profile-input.ts";
import { userText } from "../../ui/user-text.ts";

export const SIGNUP_FLOW = "signup";
/** The version of the partner's terms a user agrees to at sign-up; kept with the consent. */
export const TERMS_VERSION = "2026-11";
const SIGNUP_TIMEOUT_MS = 15 * 60_000;
/** The phone metadata is large and only sign-up reads it: loaded at the first number checked. */
const phoneNumbers = lazy(() => import("libphonenumber-js/max"));

type Deps = Pick<PartnerBotDeps, "partner" | "clock" | "profiles"> & HomeDeps;

/**
 * The `SIGNUP_FLOW` conversation, installed by bot.ts. An abandoned sign-up (a typed PIN in its
 * encrypted state) ends after a while.
 */
export function partnerSignUpConversation(deps: Deps): FlowSpec {
  return { id: SIGNUP_FLOW, steps: signUpFlow(deps), timeoutMs: SIGNUP_TIMEOUT_MS };
}

export function partnerSignUpFeature(deps: Deps): Feature<PrivateContext> {
  const composer = new Feature<PrivateContext>();

  composer.command("start", async (ctx) => {
    const partnerUserId = await deps.partner.users.partnerIdOf(ctx.from.id);
    if (partnerUserId === undefined) {
      await enterFlow(ctx, SIGNUP_FLOW);
      return;
    }
    const user = await deps.partner.api.getUser(partnerUserId);
    await deps.partner.kyc.saw(ctx.from.id, user.kyc_status);
    const reading = readKyc(ctx.t, user, deps.partner.supportContact);
    const name = user.name ?? ctx.from.first_name;
    // A user the exchange serves gets the home card; anyone else hears where verification stands.
    if (reading.verdict === "serve") {
      await showPartnerHome(ctx, deps, partnerUserId, name, "reply");
      return;
    }
    await ctx.reply(`${ctx.t("partner-welcome-back", { name: userText(name) })}\n\n${reading.text}`);
  });
  return composer;
}

function signUpFlow(deps: Deps) {
  return async function signUp(conversation: Flow, ctx: FlowContext): Promise<void> {
    const telegramId = flowUserId(ctx);
    await ctx.reply(ctx.t("signup-intro", { name: userText(ctx.from?.first_name ?? "") }));

    const email = await askText(conversation, ctx, "signup-ask-email", "signup-bad-email", (text) =>
      EMAIL.test(text) && text.length <= 254 ? text : undefined,
    );
    const name = await askText(conversation, ctx, "signup-ask-name", "signup-bad-name", checkPersonName);
    const surname = await askText(
      conversation,
      ctx,
      "signup-ask-surname",
      "signup-bad-name",
      checkPersonName,
    );
    const phone = await askPhone(conversation, ctx, telegramId);

    const buttons = await flowButtons(conversation, FLOW_BUTTONS.signup, "button-inactive");
    const termsUrl = deps.partner.termsUrl;
    // The terms open from a button (and the address stands in the text, for clients without buttons).
    await ctx.reply(ctx.t("signup-ask-consent", { version: TERMS_VERSION, url: termsUrl }), {
      link_preview_options: { is_disabled: true },
      reply_markup: new InlineKeyboard()
        .url(ctx.t("signup-read-terms"), termsUrl)
        .row()
        .text(ctx.t("signup-consent-agree"), buttons.own + FLOW_BUTTONS.signup.actions.agree())
        .text(ctx.t("signup-consent-decline"), buttons.own + FLOW_BUTTONS.signup.actions.decline()),
    });
    let agreed: boolean | undefined;
    while (agreed === undefined) {
      const answer = await waitAnswer(conversation, buttons.wait);
      if (answer.kind === "tap") agreed = answer.data === buttons.own + FLOW_BUTTONS.signup.actions.agree();
      else await answer.ctx.reply(ctx.t("signup-consent-tap"));
    }
    if (!agreed) {
      await ctx.reply(ctx.t("signup-consent-declined"));
      return;
    }
    // What was agreed to: the version, the address it was offered at, and when.
    const consent = {
      version: TERMS_VERSION,
      url: termsUrl,
      at: await externalCall(conversation, async () => deps.clock.now()),
    };

    const pin = await askNewPin(conversation, ctx, (text) => ctx.reply(text), "signup-ask-pin");

    await ctx.reply(ctx.t("signup-creating"));
    const appLocale = clientLocale(ctx.from?.language_code);
    const outcome = await externalCall(conversation, async (): Promise<SignUpOutcome> => {
      try {
        const { id } = await deps.partner.api.createUser({ email, name, surname, phone });
        // The link is what makes a user "signed up": it goes last, after the PIN.
        await deps.partner.pins.set(telegramId, pin);
        await deps.partner.users.link(telegramId, id, { consent, email });
        // KYC and order notices will follow, with no update to read the app's language from.
        await deps.profiles.rememberAppLocale(telegramId, appLocale);
        const user = await deps.partner.api.getUser(id);
        return { ok: true, kyc: { kyc_status: user.kyc_status, edd_status: user.edd_status } };
      } catch (error) {
        return refusalOf(error);
      }
    });
    const support = deps.partner.supportContact;
    if (outcome.ok) {
      const reading = readKyc(ctx.t, outcome.kyc, support);
      await ctx.reply(`${ctx.t("signup-done", { email })}\n\n${reading.text}`);
    } else if (outcome.reason === "email-taken") {
      await ctx.reply(ctx.t("signup-email-taken", { email, support }));
    } else if (outcome.reason === "refused") {
      await ctx.reply(ctx.t("signup-refused", { reason: ctx.t(outcome.words), support }));
    } else {
      await ctx.reply(ctx.t("signup-unavailable"));
    }
  };
}

type SignUpOutcome =
  | { ok: true; kyc: { kyc_status: string; edd_status?: string | undefined } }
  | { ok: false; reason: "email-taken" }
  | { ok: false; reason: "refused"; words: ReturnType<typeof refusalKey> }
  | { ok: false; reason: "unavailable" };

/** The exchange's answer to a refused sign-up, as something the user can act on. */
function refusalOf(error: unknown): SignUpOutcome {
  if (!(error instanceof ExchangeError)) throw error;
  if (error.kind === "validation") {
    const emailErrors = error.fieldErrors.email ?? [];
    // Laravel's wording for a unique e-mail ("has already been taken"); any e-mail refusal that
    // is not about its shape (we checked that) means the exchange knows the address.
    if (emailErrors.some((m) => /taken|exist|already|registered/i.test(m)))
      return { ok: false, reason: "email-taken" };
    return { ok: false, reason: "refused", words: refusalKey(error) };
  }
  if (error.kind === "http" || error.kind === "forbidden" || error.kind === "not-found") {
    return { ok: false, reason: "refused", words: refusalKey(error) };
  }
  return { ok: false, reason: "unavailable" };
}

async function askText(
  conversation: Flow,
  ctx: FlowContext,
  askKey: "signup-ask-email" | "signup-ask-name" | "signup-ask-surname",
  badKey: "signup-bad-email" | "signup-bad-name",
  check: (text: string) => string | undefined,
): Promise<string> {
  await ctx.reply(ctx.t(askKey));
  for (;;) {
    const answer = await waitForText(conversation);
    const value = check(answer.message.text.trim());
    if (value !== undefined) return value;
    await answer.reply(ctx.t(badKey));
  }
}

/**
 * The phone: the "share my phone" button (a contact whose user_id is the sender's: Telegram sets it
 * only for the user's own number) or typed in international form. Kept in E.164.
 */
async function askPhone(conversation: Flow, ctx: FlowContext, telegramId: number): Promise<string> {
  await ctx.reply(ctx.t("signup-ask-phone"), {
    reply_markup: new Keyboard().requestContact(ctx.t("signup-share-phone")).oneTime().resized(),
  });
  for (;;) {
    const answer = await conversation.waitUntil((c) => c.has("message:contact") || isPlainText(c), {
      otherwise: async (c) => {
        if (c.callbackQuery) await c.answerCallbackQuery({ text: c.t("flow-hint-command") });
        else if (c.message) await c.reply(c.t("signup-phone-hint"));
      },
    });
    const contact = answer.message?.contact;
    let typed: string;
    if (contact !== undefined) {
      if (contact.user_id !== telegramId) {
        await answer.reply(ctx.t("signup-contact-not-yours"));
        continue;
      }
      // Telegram gives the number with or without its leading +.
      typed = contact.phone_number.startsWith("+") ? contact.phone_number : `+${contact.phone_number}`;
    } else {
      typed = answer.message?.text ?? "";
    }
    const { parsePhoneNumberFromString } = await phoneNumbers();
    const phone = parsePhoneNumberFromString(typed.trim());
    if (phone?.isValid()) {
      await answer.reply(ctx.t("signup-phone-ok", { phone: phone.formatInternational() }), {
        reply_markup: { remove_keyboard: true },
      });
      return phone.number;
    }
    await answer.reply(ctx.t("signup-bad-phone"));
  }
}
