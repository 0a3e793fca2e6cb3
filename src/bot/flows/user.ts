/**
 * The user a conversation runs for. Conversations live in private chats only, under the chat's
 * key, and every update that enters or resumes one comes from a user; an update without one here
 * is a bug, so it throws instead of acting for a made-up user 0.
 */
import type { FlowContext } from "../context.ts";

export function flowUserId(ctx: FlowContext): number {
  const id = ctx.from?.id;
  if (id === undefined) throw new Error("A conversation ran for an update without a user.");
  return id;
}
