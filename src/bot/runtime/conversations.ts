/**
 * A conversation as a feature (or a flow) offers it: its id, its steps and how long it waits for an
 * answer. bot.ts lists every one of its mode's conversations in one place (`conversationsOf`) and
 * installs them here, instead of each feature adding its own on the side while the bot is built.
 *
 * @example
 * export function sendConversation(deps: SendDeps): FlowSpec {
 *   return { id: SEND_FLOW, steps: sendFlow(deps), timeoutMs: FLOW_TIMEOUT_MS };
 * }
 * installConversations(flows, [loginConversation(deps), sendConversation(deps)]);
 */
import { type ConversationBuilder, createConversation } from "@grammyjs/conversations";
import type { Composer } from "grammy";
import type { BotContext, FlowContext, PrivateContext } from "../context.ts";

/** A flow left unanswered this long is forgotten; the next message is handled as usual. */
export const FLOW_TIMEOUT_MS = 15 * 60_000;
/**
 * The read-only questions (/price, /fees) are forgotten sooner: nothing is under way to lose, and a
 * stale question should not take a message typed minutes later as its answer.
 */
export const QUESTION_TIMEOUT_MS = 10 * 60_000;

export interface FlowSpec {
  /** What `enterFlow` names and the store keeps a running flow under: never renamed. */
  id: string;
  steps: ConversationBuilder<BotContext, FlowContext>;
  /** Ended after this long without an answer; without it, only the conversation state's TTL ends it. */
  timeoutMs?: number;
}

/** Adds the conversations to `flows` (run by flows-on-demand.ts), in the order listed. */
export function installConversations(flows: Composer<PrivateContext>, specs: readonly FlowSpec[]): void {
  for (const { id, steps, timeoutMs } of specs) {
    flows.use(
      createConversation(steps, timeoutMs === undefined ? { id } : { id, maxMillisecondsToWait: timeoutMs }),
    );
  }
}
