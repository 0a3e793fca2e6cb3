/**
 * Redis, for several bot instances: @keyv/redis for plain reads and writes, the same node-redis
 * client for the atomic operations (SET NX PX, Lua scripts), so both see one key layout and one value
 * form. Keys are `namespace::key` (@keyv/redis's own separator, so a stock `createKeyv(url, { namespace })`
 * reads the same data); values are Keyv's `{"value":...,"expires":ms}` and also carry a native Redis
 * TTL (PX), which is what makes them disappear.
 *
 * Fail closed: the client is created with `disableOfflineQueue`, so while Redis is unreachable
 * every command rejects at once instead of waiting in a queue (node-redis's default) until Redis
 * returns; it keeps reconnecting in the background.
 */
import { createHash } from "node:crypto";
import KeyvRedis, { createClient, defaultReconnectStrategy } from "@keyv/redis";
import { Keyv } from "keyv";
import { StoreError } from "./errors.ts";
import { type AtomicBackend, KeyvStore } from "./keyv-store.ts";
import type { Store } from "./store.ts";

type RedisClient = ReturnType<typeof createClient>;

/** A first connection that takes longer than this fails start-up with a clear error. */
const connectTimeoutMs = 5_000;

/**
 * Adds 1 to the integer in Keyv's `{"value":N...}` form, keeping the rest of the string (the
 * `expires`) and the native TTL (KEEPTTL); creates the counter with its TTL when absent.
 * A Lua script runs atomically on the server.
 */
const incrementScript = `
local current = redis.call('GET', KEYS[1])
if not current then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
local n, rest = string.match(current, '^{"value":(%-?%d+)([,}].*)$')
if not n then
  return redis.error_reply('ERR increment: the value at this key is not a counter')
end
local count = tonumber(n) + 1
redis.call('SET', KEYS[1], '{"value":' .. string.format('%d', count) .. rest, 'KEEPTTL')
return count
`;

/** Compare-and-delete on the exact stored string. */
const deleteIfScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/** Compare-and-set on the exact stored string, with a fresh native TTL (ARGV[3]) or the one it had (""). */
const replaceIfScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  if ARGV[3] == '' then
    redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  else
    redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  end
  return 1
end
return 0
`;

/**
 * Compare-and-delete on the value's text, for each key: deletes KEYS[i] when its stored string is
 * ARGV[2i-1] followed by "}" or by ',"expires":N}' with N >= ARGV[2i] (Keyv's rule: expired when
 * now > expires). Returns 1 or 0 per key. Several keys: the releases of one tick in one command.
 */
const deleteIfTextScript = `
local results = {}
for i = 1, #KEYS do
  local result = 0
  local current = redis.call('GET', KEYS[i])
  local head = ARGV[2 * i - 1]
  if current == head .. '}' then
    result = redis.call('DEL', KEYS[i])
  elseif current then
    local withExpiry = head .. ',"expires":'
    if string.sub(current, 1, #withExpiry) == withExpiry then
      local expires = tonumber(string.match(string.sub(current, #withExpiry + 1), '^(%d+)}$'))
      if expires and expires >= tonumber(ARGV[2 * i]) then
        result = redis.call('DEL', KEYS[i])
      end
    end
  end
  results[i] = result
end
return results
`;

/** Removes an index member unless the record still exists (a native TTL makes it absent). */
const unindexScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
return redis.call('SREM', KEYS[2], ARGV[1])
`;

/**
 * SET NX PX and, when it set the key, MGET of the other keys, in one step: a chat's lease and its
 * per-update reads in one round trip. False (a nil reply) when the key was there.
 */
const insertThenGetManyScript = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return false
end
if #KEYS == 1 then
  return {}
end
return redis.call('MGET', unpack(KEYS, 2))
`;

/** A Lua script and its SHA1: sent by EVALSHA (a few bytes), by EVAL only when Redis lost it. */
interface Script {
  text: string;
  sha: string;
}

const script = (text: string): Script => ({ text, sha: createHash("sha1").update(text).digest("hex") });

const scripts = {
  increment: script(incrementScript),
  deleteIf: script(deleteIfScript),
  replaceIf: script(replaceIfScript),
  deleteIfText: script(deleteIfTextScript),
  unindex: script(unindexScript),
  insertThenGetMany: script(insertThenGetManyScript),
};

/**
 * Connects to Redis at `url` and returns a Store over it. Rejects (within a few seconds) when Redis
 * cannot be reached at start-up; after that, a lost connection makes operations reject until the
 * background reconnect succeeds.
 *
 * @example
 * const store = await openRedisStore("redis://127.0.0.1:6379", { namespace: "bot", onError: console.error });
 */
export async function openRedisStore(
  url: string,
  options: { namespace: string; onError: (error: unknown) => void },
): Promise<Store> {
  let connectedOnce = false;
  const client: RedisClient = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      // Before the first connection, give up (so start-up fails with a reason); afterwards, keep trying.
      reconnectStrategy: (retries, cause) => (connectedOnce ? defaultReconnectStrategy(retries) : cause),
    },
  });
  // KeyvRedis listens to the client's "error" events and re-emits them; Keyv re-emits them to us.
  const adapter = new KeyvRedis(client, {
    namespace: undefined,
    throwOnErrors: true,
    throwOnConnectError: true,
  });
  const keyv = new Keyv({ store: adapter, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  keyv.on("error", options.onError);
  try {
    await client.connect();
  } catch (error) {
    // Never echo the URL: it may carry a password.
    throw new StoreError("Could not connect to Redis at STORE_URL.", { cause: error });
  }
  connectedOnce = true;
  // Loaded once so the hot path sends EVALSHA; after a Redis restart (an empty script cache) the
  // first call of each falls back to EVAL, which loads it again.
  await Promise.all(Object.values(scripts).map(({ text }) => client.scriptLoad(text)));

  const close = async () => {
    // close() waits for pending replies; when Redis is gone it would wait for a reconnect, so destroy.
    if (client.isReady) await client.close();
    else if (client.isOpen) client.destroy();
  };
  return new KeyvStore({
    keyv,
    atomic: redisAtomic(client),
    keyPrefix: `${options.namespace}::`,
    // One colon: apart from every record key (`bot::…`), and a Redis set, not a Keyv value.
    indexPrefix: `${options.namespace}:index:`,
    close,
  });
}

type Send = (which: Script, command: string[]) => Promise<unknown>;
type Run = (which: Script, keys: readonly string[], args: readonly string[]) => Promise<unknown>;

/**
 * How scripts are called: the raw command, not client.evalSha(): its argument parser and reply
 * transform cost an allocation per call on the per-update path, for arguments that are already
 * strings. `command` is ["EVALSHA", sha, numkeys, ...keys, ...args], built once by the caller.
 */
function scriptCalls(client: RedisClient): { send: Send; run: Run } {
  const send: Send = async (which, command) => {
    try {
      return await client.sendCommand(command);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      // node-redis sent the array already: changing it now changes nothing that is on its way.
      command[0] = "EVAL";
      command[1] = which.text;
      return client.sendCommand(command);
    }
  };
  const run: Run = (which, keys, args) =>
    send(which, ["EVALSHA", which.sha, String(keys.length), ...keys, ...args]);
  return { send, run };
}

/**
 * Compare-and-deletes asked for in one tick (the chat lock gives its leases back together) go
 * out as one script call: one command instead of one per lease.
 */
function batchedDeletes(send: Send): Pick<AtomicBackend, "deleteIfValueText"> {
  let deleteKeys: string[] = [];
  let deleteArgs: string[] = [];
  let deleteDone: Array<PromiseWithResolvers<boolean>> = [];
  const sendDeletes = () => {
    const command = [
      "EVALSHA",
      scripts.deleteIfText.sha,
      String(deleteKeys.length),
      ...deleteKeys,
      ...deleteArgs,
    ];
    const batch = deleteDone;
    deleteKeys = [];
    deleteArgs = [];
    deleteDone = [];
    send(scripts.deleteIfText, command).then(
      (reply) => {
        if (!Array.isArray(reply) || reply.length !== batch.length) {
          const error = new StoreError("deleteIfEquals: Redis gave an unexpected reply.");
          for (const done of batch) done.reject(error);
          return;
        }
        for (let i = 0; i < batch.length; i++) batch[i]?.resolve(reply[i] === 1);
      },
      (error: unknown) => {
        for (const done of batch) done.reject(error);
      },
    );
  };
  return {
    deleteIfValueText(rawKey, head, now) {
      const done = Promise.withResolvers<boolean>();
      if (deleteDone.length === 0) process.nextTick(sendDeletes);
      deleteKeys.push(rawKey);
      deleteArgs.push(head, String(now));
      deleteDone.push(done);
      return done.promise;
    },
  };
}

function redisAtomic(client: RedisClient): AtomicBackend {
  const { send, run } = scriptCalls(client);
  return {
    ...redisRecords(client, send, run),
    ...batchedDeletes(send),
    ...redisListings(client, run),
  };
}

/** Reads and the atomic writes of records. */
function redisRecords(
  client: RedisClient,
  send: Send,
  run: Run,
): Omit<AtomicBackend, "deleteIfValueText" | ListingOps> {
  return {
    async insertIfAbsent(rawKey, raw, _now, ttlMs) {
      const reply = await client.set(
        rawKey,
        raw,
        ttlMs === undefined
          ? { condition: "NX" }
          : { condition: "NX", expiration: { type: "PX", value: ttlMs } },
      );
      return reply === "OK";
    },
    async increment(rawKey, initialRaw, _now, ttlMs) {
      const reply = await run(scripts.increment, [rawKey], [initialRaw, String(ttlMs)]).catch(
        (error: unknown) => {
          // The script's own refusal is a misuse, not Redis being unavailable.
          if (error instanceof Error && error.message.includes("not a counter")) {
            throw new StoreError("increment: the value at this key is not a counter.");
          }
          throw error;
        },
      );
      if (typeof reply !== "number") throw new StoreError("increment: Redis gave an unexpected reply.");
      return reply;
    },
    async getRaw(rawKey) {
      const value = await client.get(rawKey);
      return value ?? undefined;
    },
    async deleteIfRaw(rawKey, raw) {
      return (await run(scripts.deleteIf, [rawKey], [raw])) === 1;
    },
    async replaceIfRaw(rawKey, raw, newRaw, ttlMs) {
      const reply = await run(
        scripts.replaceIf,
        [rawKey],
        [raw, newRaw, ttlMs === undefined ? "" : String(ttlMs)],
      );
      return reply === 1;
    },
    async getManyRaw(rawKeys) {
      if (rawKeys.length === 0) return [];
      return (await client.mGet([...rawKeys])).map((value) => value ?? undefined);
    },
    async insertThenGetManyRaw(rawKey, raw, ttlMs, rawKeys) {
      const command = ["EVALSHA", scripts.insertThenGetMany.sha, String(1 + rawKeys.length), rawKey];
      for (const key of rawKeys) command.push(key);
      command.push(raw, String(ttlMs));
      const reply = await send(scripts.insertThenGetMany, command);
      // Nil (RESP2 null) when the key was there; else MGET's array, nil for a missing key.
      if (reply === null) return undefined;
      if (!Array.isArray(reply))
        throw new StoreError("setIfAbsentThenGetMany: Redis gave an unexpected reply.");
      // The reply is this call's own array: nil (null) becomes undefined in place.
      for (let i = 0; i < reply.length; i++) if (typeof reply[i] !== "string") reply[i] = undefined;
      return reply as Array<string | undefined>;
    },
  };
}

type ListingOps = "scan" | "setIndexed" | "indexAdd" | "indexMembers" | "indexRemoveUnlessLive";

/** Listings: the keyspace's SCAN (tools, one-time indexing) and the indexes as Redis sets. */
function redisListings(client: RedisClient, run: Run): Pick<AtomicBackend, ListingOps> {
  return {
    async scan(rawPrefix) {
      const match = `${rawPrefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
      const keys = new Set<string>();
      let cursor = "0";
      do {
        const page = await client.scan(cursor, { MATCH: match, COUNT: 1000, TYPE: "string" });
        cursor = String(page.cursor);
        for (const key of page.keys) keys.add(key);
      } while (cursor !== "0");
      const sorted = [...keys].sort();
      const entries: Array<[string, string]> = [];
      for (let i = 0; i < sorted.length; i += 1000) {
        const chunk = sorted.slice(i, i + 1000);
        const values = await client.mGet(chunk);
        chunk.forEach((key, j) => {
          const value = values[j];
          if (typeof value === "string") entries.push([key, value]);
        });
      }
      return entries;
    },

    async setIndexed(rawKey, raw, ttlMs, entries) {
      // MULTI/EXEC: the record and its index members are applied together.
      const multi = client.multi();
      if (ttlMs === undefined) multi.set(rawKey, raw);
      else multi.set(rawKey, raw, { expiration: { type: "PX", value: ttlMs } });
      for (const [rawIndex, member] of entries) multi.sAdd(rawIndex, member);
      await multi.exec();
    },
    async indexAdd(rawIndex, member) {
      await client.sAdd(rawIndex, member);
    },
    async indexMembers(rawIndex) {
      return client.sMembers(rawIndex);
    },
    async indexRemoveUnlessLive(rawIndex, member, rawKey) {
      return (await run(scripts.unindex, [rawKey, rawIndex], [member])) === 1;
    },
  };
}
