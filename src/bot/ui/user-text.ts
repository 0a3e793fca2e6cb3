/**
 * Text a user typed (or chose, like a name or a label), made safe to show back in a reply. Bidi
 * controls (embeddings, overrides, isolates, the directional marks) are removed: left in, a crafted
 * "‮" would reorder the bot's own sentence around it, so the bot would appear to say something
 * it did not. Letters of right-to-left scripts stay; only the invisible controls go.
 *
 * @example
 * ctx.t("price-unknown", { input: userText(typed, 32), codes });
 */

/** U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** `text` without bidi controls, cut to `max` characters (code points) when given. */
export function userText(text: string, max?: number): string {
  const clean = text.replace(BIDI_CONTROLS, "");
  if (max === undefined) return clean;
  const points = [...clean];
  return points.length > max ? points.slice(0, max).join("") : clean;
}

/** Whether `text` holds a bidi control (for tests and checks of whole screens). */
export function hasBidiControl(text: string): boolean {
  return new RegExp(BIDI_CONTROLS.source, "u").test(text);
}
