/**
 * Why there is no live exchange client for a user. The bot turns it into a Log in button; the
 * flow the user was in is kept (SECURITY.md, Sessions).
 */
export class NotLoggedInError extends Error {
  override readonly name = "NotLoggedInError";
  /** `expired`: there was a session and it ran out (or the exchange said 401). */
  readonly reason: "logged-out" | "expired";
  constructor(reason: "logged-out" | "expired") {
    super(
      reason === "expired"
        ? "The exchange session has expired: log in again."
        : "Not logged in: log in first.",
    );
    this.reason = reason;
  }
}
