/**
 * The conversations (every `createConversation`, installed by bot.ts from its list), run only
 * when they have something to do.
 *
 * Each conversation's middleware registers its flow on the update's context and looks whether it
 * runs, on every update: with no flow running in the chat (nearly always) that is work and garbage
 * for nothing. So when none runs the update goes straight on, and the flows are registered only if
 * a feature enters one (`ctx.conversation.enter`), just before it does. While a flow runs, every
 * update goes through all of them as before, so a running flow still sees what the user sends
 * before any command handler does. What this relies on in @grammyjs/conversations (pinned in
 * package.json) is tested in test/bot/flows-on-demand.test.ts.
 *
 * @example
 * const flows = new Composer<PrivateContext>();
 * inPrivate.use(flowsOnDemand(flows)); // after conversations(), before the features
 */
import type { Composer, MiddlewareFn } from "grammy";
import type { BotContext } from "../context.ts";

const done = () => Promise.resolve();

export function flowsOnDemand<C extends BotContext>(flows: Composer<C>): MiddlewareFn<C> {
  return (ctx, next) => {
    // Read per update: features keep adding their conversations to `flows` while the bot is built.
    const run = flows.middleware();
    const active = ctx.conversation.active();
    if (Object.keys(active).length > 0) return run(ctx, next);
    const controls = ctx.conversation;
    const enter = controls.enter;
    controls.enter = async (name, ...args) => {
      controls.enter = enter;
      // With no flow running, each conversation's middleware only registers itself and passes on.
      await run(ctx, done);
      await enter(name, ...args);
    };
    return next();
  };
}
