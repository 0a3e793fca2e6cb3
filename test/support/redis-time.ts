import { createClient } from "@keyv/redis";

/**
 * Redis expires keys by the server's clock, which a test cannot move: shortening every matching
 * key's remaining TTL by `ms` is what `ms` of waiting does to them (a key whose TTL runs out is gone).
 */
export async function shortenTtls(url: string, pattern: string, ms: number): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: pattern })) {
      for (const key of keys) {
        const left = await client.pTTL(key);
        if (left < 0) continue; // no TTL (-1), or gone meanwhile (-2)
        if (left <= ms) await client.del(key);
        else await client.pExpire(key, left - ms);
      }
    }
  } finally {
    await client.close();
  }
}
