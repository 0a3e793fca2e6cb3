/**
 * A store that cannot be used as asked: a bad `STORE_URL`, a closed store, a value that is not a
 * counter. Backend failures (SQLite busy, Redis down) keep their driver's error, so the cause stays
 * visible; they are never swallowed. Messages never carry values (they may be secrets).
 *
 * @example
 * try { await store.increment("login-fails:42", 15 * 60_000); }
 * catch (error) { if (error instanceof StoreError) console.error(error.message); }
 */
export class StoreError extends Error {
  override readonly name = "StoreError";
}
