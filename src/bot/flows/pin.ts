/**
 * A partner user's PIN typed inside a flow: sign-up's new PIN (features/partner/signup.ts) and
 * /pin's (features/partner/pin.ts) go through the same steps. Each PIN message is deleted before
 * anything else is done with it; a new PIN is typed twice and refused at the first typing when it
 * is easy to guess (partner/pins.ts, `pinWeakness`), with the reason.
 *
 * @example
 * const pin = await askNewPin(conversation, ctx, (text) => ctx.reply(text), "signup-ask-pin");
 */
import { PIN, pinWeakness } from "../../partner/pins.ts";
import type { Flow, FlowContext } from "../context.ts";
import { waitForSecret } from "./wait.ts";

/**
 * A new PIN, typed twice. `ask` sends a question for the PIN (with the anti-phishing phrase where
 * the user has one); `question` is the locale key of the first one, asked again after a mismatch.
 */
export async function askNewPin(
  conversation: Flow,
  ctx: FlowContext,
  ask: (text: string) => Promise<unknown>,
  question: string,
): Promise<string> {
  await ask(ctx.t(question));
  for (;;) {
    const first = await readPin(conversation, ctx);
    const weakness = pinWeakness(first);
    if (weakness !== undefined) {
      await ask(ctx.t("signup-weak-pin", { reason: weakness }));
      continue;
    }
    await ask(ctx.t("signup-ask-pin-again"));
    const second = await readPin(conversation, ctx);
    if (first === second) return first;
    await ctx.reply(ctx.t("signup-pin-mismatch"));
    await ask(ctx.t(question));
  }
}

/** Six digits (spaces dropped); the message is deleted first, whatever it held. */
export async function readPin(conversation: Flow, ctx: FlowContext): Promise<string> {
  for (;;) {
    const answer = await waitForSecret(conversation);
    const pin = answer.message.text.replace(/\s/g, "");
    await answer.deleteMessage();
    if (PIN.test(pin)) return pin;
    await ctx.reply(ctx.t("signup-bad-pin"));
  }
}
