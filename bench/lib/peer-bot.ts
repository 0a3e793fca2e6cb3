/**
 * The peer of (u): a grammY bot built the ecosystem's standard way doing the same job as ours.
 * grammY + @grammyjs/runner + grammY's `session`, one read and one write of the user's session per
 * update; on Redis the session lives in `@grammyjs/storage-redis` over ioredis, on SQLite in a
 * session adapter of the same shape over a SQLite file of its own (node:sqlite, one table, the read
 * and the upsert prepared once). /help answers the same text; /balance makes the same three
 * exchange calls as ours with the user's own token (kept in the session) over keep-alive (undici's
 * pool) and replies. Bench only: nothing in src/ imports this.
 */
import { DatabaseSync } from "node:sqlite";
import { RedisAdapter } from "@grammyjs/storage-redis";
import { Bot, type Context, type SessionFlavor, type StorageAdapter, session } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { Redis } from "ioredis";
import { Pool } from "undici";

export interface StartPeer {
  kind: "peer";
  token: string;
  apiRoot: string;
  botInfo: UserFromGetMe;
  helpText: string;
  /** `redis://…` or `sqlite://FILE`. */
  storeUrl: string;
  exchangeUrl: string;
  /** [user id, exchange token]: each user's session is written with its token before the bot starts. */
  logins?: Array<[number, string]>;
}

interface PeerSession {
  /** The user's exchange token (a real bot would seal it; the peer keeps it plain). */
  token?: string;
  locale: string;
}

type PeerContext = Context & SessionFlavor<PeerSession>;

/** Session reads and writes that reached the storage, counted as the whole stack's CountingStore counts. */
export const peerCounts = { get: 0, set: 0, delete: 0 };

export async function startPeer(
  options: StartPeer,
): Promise<{ bot: Bot<PeerContext>; close(): Promise<void> }> {
  const storage = openStorage(options.storeUrl);
  const counted: StorageAdapter<PeerSession> = {
    read: (key) => {
      peerCounts.get++;
      return storage.adapter.read(key);
    },
    write: (key, value) => {
      peerCounts.set++;
      return storage.adapter.write(key, value);
    },
    delete: (key) => {
      peerCounts.delete++;
      return storage.adapter.delete(key);
    },
  };
  for (const [userId, token] of options.logins ?? []) {
    await storage.adapter.write(String(userId), { token, locale: "en" });
  }
  const exchange = new Pool(options.exchangeUrl, { connections: 32 });
  const get = async (path: string, token: string, retried = false): Promise<unknown> => {
    const request = {
      method: "GET" as const,
      path,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    };
    // A GET on a kept-alive socket the server closed that instant fails at once: once more on a
    // fresh one, as any client of an exchange does (ours retries GETs too).
    const answer = await exchange.request(request).catch((error: unknown) => {
      if (retried) throw error;
      return undefined;
    });
    if (answer === undefined) return get(path, token, true);
    const { statusCode, body } = answer;
    const parsed = await body.json();
    if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
    return parsed;
  };

  const bot = new Bot<PeerContext>(options.token, {
    client: { apiRoot: options.apiRoot },
    botInfo: options.botInfo,
  });
  bot.use(session({ initial: (): PeerSession => ({ locale: "en" }), storage: counted }));
  bot.command("help", async (ctx) => {
    // As a bot with a language setting does: the reply's language comes from the session.
    if (ctx.session.locale === "en") await ctx.reply(options.helpText);
  });
  bot.command("balance", async (ctx) => {
    const token = ctx.session.token;
    if (token === undefined) return ctx.reply("Please log in first.");
    const [fiat, total, crypto] = (await Promise.all([
      get("/v1/balance", token),
      get("/v1/total-balance", token),
      get("/v1/crypto-balances", token),
    ])) as [{ balance: string }, { balance: string }, { data: Array<Record<string, string>> }];
    const lines = crypto.data.map(
      (item) => `${item.currency_code}: ${item.balance} (≈ ${item.fiat_conversion} €)`,
    );
    await ctx.reply(
      `💼 Your balance\n\nEuro: ${fiat.balance} €\n${lines.join("\n")}\nTotal: ${total.balance} €`,
    );
  });
  return {
    bot,
    async close() {
      await exchange.close();
      await storage.close();
    },
  };
}

function openStorage(url: string): { adapter: StorageAdapter<PeerSession>; close(): Promise<void> } {
  if (url.startsWith("sqlite://")) return sqliteSessions(url.slice("sqlite://".length));
  const redis = new Redis(url);
  return {
    adapter: new RedisAdapter<PeerSession>({ instance: redis }),
    async close() {
      redis.disconnect();
    },
  };
}

/** A grammY session adapter over one SQLite table: what a peer on an embedded file would write. */
function sqliteSessions(file: string): { adapter: StorageAdapter<PeerSession>; close(): Promise<void> } {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("CREATE TABLE IF NOT EXISTS sessions (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  const select = db.prepare("SELECT value FROM sessions WHERE key = ?");
  const upsert = db.prepare(
    "INSERT INTO sessions (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  const remove = db.prepare("DELETE FROM sessions WHERE key = ?");
  return {
    adapter: {
      read(key) {
        const row = select.get(key) as { value?: string } | undefined;
        return typeof row?.value === "string" ? (JSON.parse(row.value) as PeerSession) : undefined;
      },
      write(key, value) {
        upsert.run(key, JSON.stringify(value));
      },
      delete(key) {
        remove.run(key);
      },
    },
    async close() {
      db.close();
    },
  };
}
