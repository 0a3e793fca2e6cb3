/** Telegram's limit for one message's text (after entities are parsed; we stay under it raw). */
export const MESSAGE_LIMIT = 4096;

/**
 * Joins blocks of text with `separator` into as few messages as fit under `limit`. A block is
 * never split: each one (a card, a line) is assumed to fit a message on its own.
 *
 * @example
 * for (const text of chunkBlocks(cards)) await ctx.reply(text, { parse_mode: "HTML" });
 */
export function chunkBlocks(blocks: readonly string[], separator = "\n\n", limit = MESSAGE_LIMIT): string[] {
  const out: string[] = [];
  let current = "";
  for (const block of blocks) {
    const next = current === "" ? block : `${current}${separator}${block}`;
    if (next.length > limit && current !== "") {
      out.push(current);
      current = block;
    } else {
      current = next;
    }
  }
  if (current !== "") out.push(current);
  return out;
}
