/**
 * An e-mail address as a question shows it when the bot already knows it: enough for the user to
 * see which account is meant, not enough for someone reading over their shoulder to learn it.
 *
 * @example
 * maskedEmail("ada@example.com"); // "a•••@example.com"
 */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  const first = Array.from(email.slice(0, at))[0] ?? "";
  return `${first}•••${email.slice(at)}`;
}
