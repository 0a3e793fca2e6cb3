/**
 * Fills a SQLite store file with many users' sessions at once (one transaction through
 * node:sqlite), in the exact row form the bot writes: the row of one session written through the
 * Store is copied under every other user's key.
 */
import { DatabaseSync } from "node:sqlite";
import { openStore } from "../../src/store/open-store.ts";

export async function seedSessions(file: string, firstUserId: number, count: number): Promise<void> {
  const store = await openStore(`sqlite://${file}`);
  await store.set(`session:${firstUserId}`, {});
  await store.close();
  const db = new DatabaseSync(file);
  try {
    const row = db.prepare("SELECT value FROM keyv WHERE key = ?").get(`bot:session:${firstUserId}`);
    const value = row?.value;
    if (typeof value !== "string") throw new Error("the seed session was not written");
    const insert = db.prepare("INSERT OR REPLACE INTO keyv (key, value) VALUES (?, ?)");
    db.exec("BEGIN");
    for (let i = 1; i < count; i++) insert.run(`bot:session:${firstUserId + i}`, value);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}
