/**
 * The factory of the store port: `openStore(url)` picks the backend from the URL: `sqlite://PATH`
 * (the embedded default), `redis://HOST:PORT` (several instances) or `memory://` (unit tests). All
 * three share the same semantics, proven by one contract suite in `test/store/`. Only the backend
 * the URL names is loaded: a bot on SQLite never loads the Redis client, one on Redis never loads
 * sqlite3. It lives apart from `store.ts` because the backends import the port: the port importing
 * them back would make a circle.
 */
import { StoreError } from "./errors.ts";
import type { Store } from "./store.ts";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /**
   * Prefix of every key in the backend, so several bots (or tests) can share one database or Redis.
   * Letters, digits, `_` and `-`. Default `"bot"`.
   */
  namespace?: string;
  /**
   * Called with background errors that belong to no operation (a Redis reconnect that failed).
   * Operations still reject on their own; this is for logging.
   */
  onError?: (error: unknown) => void;
  /** SQLite: how long a write waits for another process's lock before it fails (default 5 s). */
  busyTimeoutMs?: number;
}

const namespacePattern = /^[A-Za-z0-9_-]+$/;

/**
 * Opens the store named by a URL (the `STORE_URL` setting).
 *
 * - `sqlite://data/bot.sqlite` (relative to the working directory) or `sqlite:///var/lib/bot/bot.sqlite`:
 *   the folder is created; WAL journal and a busy timeout let several processes share the file.
 * - `redis://127.0.0.1:6379` (or `rediss://`): several bot instances behind one Redis.
 * - `memory://` (private to this store) or `memory://NAME` (shared by stores opened with the same
 *   name in this process): for tests.
 *
 * @example
 * const store = await openStore(process.env.STORE_URL ?? "sqlite://data/bot.sqlite");
 * if (await store.setIfAbsent(`confirm:${nonce}`, { at: Date.now() }, 24 * 60 * 60_000)) {
 *   // first Confirm tap: place the order
 * }
 * await store.close();
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  const namespace = options.namespace ?? "bot";
  if (!namespacePattern.test(namespace)) {
    throw new StoreError(`The store namespace "${namespace}" may hold only letters, digits, "_" and "-".`);
  }
  const scheme = /^([a-z]+):\/\//.exec(url)?.[1];
  const onError = options.onError ?? (() => {});
  switch (scheme) {
    case "sqlite": {
      const { openSqliteStore } = await import("./sqlite.ts");
      return openSqliteStore(sqliteFileOf(url) ?? "", {
        namespace,
        onError,
        ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
      });
    }
    case "redis":
    case "rediss": {
      const { openRedisStore } = await import("./redis.ts");
      return openRedisStore(url, { namespace, onError });
    }
    case "memory": {
      const { openMemoryStore } = await import("./memory.ts");
      return openMemoryStore(url.slice("memory://".length), { namespace });
    }
    default:
      throw new StoreError(
        "STORE_URL must start with sqlite://, redis:// or memory:// (for example sqlite://data/bot.sqlite).",
      );
  }
}

/**
 * The file of a `sqlite://PATH` store URL as written (relative to the working directory, or
 * absolute); undefined for any other URL. The bot's lock and `npm run backup` find the file here.
 */
export function sqliteFileOf(url: string): string | undefined {
  return url.startsWith("sqlite://") ? url.slice("sqlite://".length) : undefined;
}
