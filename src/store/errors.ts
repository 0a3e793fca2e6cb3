/**
 * A store that cannot be used as asked: a bad `STORE_URL`, a closed store, a value that is not a
 * counter. Messages never carry values (they may be secrets).
 *
 * @example
 * try { await store.increment("login-fails:42", 15 * 60_000); }
 * catch (error) { if (error instanceof StoreError) console.error(error.message); }
 */
export class StoreError extends Error {
  override readonly name: string = "StoreError";
}

/**
 * The backend did not do what was asked (Redis unreachable, SQLite locked past its busy timeout):
 * the operation did not happen, or may not have. The driver's error is the `cause`; never
 * swallowed, so callers fail closed and the user is told to try again.
 *
 * @example
 * catch (error) { if (error instanceof StoreUnavailableError) await ctx.reply(ctx.t("error-store-unavailable")); }
 */
export class StoreUnavailableError extends StoreError {
  override readonly name = "StoreUnavailableError";
  constructor(cause: unknown) {
    const code = (cause as { code?: unknown } | undefined)?.code;
    const what = typeof code === "string" ? code : cause instanceof Error ? cause.name : "unknown";
    super(`The store did not answer (${what}).`, { cause });
  }
}
