/**
 * What the bot tells a user about their own account's security, always, never silent and never
 * held by quiet hours (issue: safety net): a login, a saved address or bank account, a change of
 * a safety setting, a large outflow, a freeze. The events are data (figures raw, sentences the
 * bot's); `SecurityNotices.tell` is the one door they go through. Who delivers them (the
 * notifier, with the anti-phishing phrase and a Freeze button) is wired in the composition root,
 * so anything below `bot/` can raise one without knowing Telegram.
 *
 * @example
 * await deps.securityNotices.tell(userId, { type: "login", via: "webapp", at: clock.now() });
 */

export type SecurityEvent =
  /** A login to the exchange through this bot (the chat or the Mini App). */
  | { type: "login"; via: "chat" | "webapp"; at: number }
  /** A crypto address saved for /send; usable from `usableAt` (its cooling-off). */
  | { type: "address-saved"; currency: string; label: string; address: string; usableAt: number }
  /** A bank account added through the bot; withdrawals to it from `usableAt`. */
  | { type: "bank-added"; iban: string; usableAt: number }
  /** The allowlist turned on (at once) or off (from `effectiveAt`). */
  | { type: "allowlist-changed"; on: boolean; effectiveAt: number }
  /** The cooling-off of new addresses changed to `hours`, from `effectiveAt`. */
  | { type: "cooling-off-changed"; hours: number; effectiveAt: number }
  | { type: "phrase-changed" }
  | { type: "remember-password-changed"; on: boolean }
  /** A self-set daily cap changed (`amount` undefined: removed), from `effectiveAt`. */
  | { type: "limit-changed"; limit: string; currency: string; amount?: string; effectiveAt: number }
  /**
   * A send or withdrawal above half of the user's own cap for it; `kind` is its family (`send`,
   * `withdraw`; older notices held a kind's name, worded alike).
   */
  | { type: "large-outflow"; kind: string; amount: string; currency: string }
  /** Partner mode: the PIN changed by the user, or reset by the operator desk. */
  | { type: "pin-changed" }
  | { type: "pin-reset" }
  /** Money actions frozen (by the user, or by the operator desk in partner mode). */
  | { type: "frozen"; by: "user" | "operator" }
  /** An unfreeze asked for: money actions open again at `at`. */
  | { type: "unfreeze-scheduled"; at: number }
  /** The unfreeze's delay is over: money actions are open again. */
  | { type: "unfrozen" };

export interface SecurityNotices {
  /** Tells the user (queued at once; never dropped by a notification setting). */
  tell(userId: number, event: SecurityEvent): Promise<void>;
}

/**
 * Notices whose sender is connected after the bot is built (the delivery queue needs the bot's
 * API). Until then, and when nothing connects (tests of one feature), events are logged as lost
 * by the caller's logger, never thrown: a notice must not undo the change it reports.
 */
export class LateSecurityNotices implements SecurityNotices {
  #send: ((userId: number, event: SecurityEvent) => Promise<void>) | undefined;
  readonly #lost: (userId: number, event: SecurityEvent) => void;

  constructor(lost: (userId: number, event: SecurityEvent) => void) {
    this.#lost = lost;
  }

  connect(send: (userId: number, event: SecurityEvent) => Promise<void>): void {
    this.#send = send;
  }

  async tell(userId: number, event: SecurityEvent): Promise<void> {
    if (this.#send === undefined) {
      this.#lost(userId, event);
      return;
    }
    await this.#send(userId, event);
  }
}
