/**
 * A real, throwaway redis-server for tests: random free port on loopback, a temp dir, no persistence
 * (`--save "" --appendonly no`, unless asked to persist), stopped and cleaned up by `stop()`. Tests
 * that need it skip with a printed reason when no redis-server binary exists, except with
 * REQUIRE_REDIS=1 (CI): then a missing binary fails the run instead of skipping ~40 tests.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then SIGKILL) and removes its temp dir; idempotent. */
  stop(): Promise<void>;
  /** Takes the server down (SIGKILL, as a crash or a lost host would), keeping its port and data dir. */
  down(): Promise<void>;
  /** Starts it again on the same port and data dir (a persisting server comes back with its data). */
  up(): Promise<void>;
}

export interface StartRedisOptions {
  /** Keep the data across down()/up(): an append-only file, written on every command. */
  persist?: boolean;
  /** More redis-server flags, after the ones above (a later flag wins): a deployment's settings. */
  args?: string[];
}

/**
 * The redis-server binary: `$REDIS_SERVER` when set (and then only that one), else `redis-server`
 * on the PATH, else /usr/bin/redis-server or /usr/local/bin/redis-server.
 */
function redisBinary(): string | undefined {
  const chosen = process.env.REDIS_SERVER;
  const candidates = chosen
    ? [chosen]
    : ["redis-server", "/usr/bin/redis-server", "/usr/local/bin/redis-server"];
  for (const candidate of candidates) {
    if (!candidate) continue;
    if (candidate.includes("/") && !existsSync(candidate)) continue;
    const probe = spawnSync(candidate, ["--version"], { stdio: "ignore", timeout: 5_000 });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

let cachedBinary: string | undefined | null = null;
function binary(): string | undefined {
  if (cachedBinary === null) cachedBinary = redisBinary();
  return cachedBinary;
}

/**
 * Whether a redis-server binary can be run here. Use it with `describe.skipIf` and say why.
 *
 * @example
 * if (!redisAvailable()) console.warn(redisUnavailableReason);
 * describe.skipIf(!redisAvailable())("store on redis", () => { ... });
 */
export function redisAvailable(): boolean {
  const found = binary() !== undefined;
  if (!found && process.env.REQUIRE_REDIS === "1") {
    throw new Error(`REQUIRE_REDIS=1, and no redis-server can be run here: ${redisUnavailableReason}`);
  }
  return found;
}

/** The sentence to print when the Redis tests are skipped. */
export const redisUnavailableReason =
  "Redis tests skipped: no redis-server binary found (install redis-server or set REDIS_SERVER=/path/to/redis-server).";

/**
 * Starts a redis-server on a random free port and waits until it answers PING.
 *
 * @example
 * const redis = await startRedis();
 * const store = await openStore(redis.url);
 * // ...
 * await store.close();
 * await redis.stop();
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const bin = binary();
  if (!bin) throw new Error(redisUnavailableReason);
  let lastError: unknown;
  // A free port can be taken between finding it and redis binding it: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), "bot-redis-"));
    try {
      let server = await launch(bin, port, dir, options);
      let stopped = false;
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop() {
          stopped = true;
          await server.kill("SIGTERM");
          await rm(dir, { recursive: true, force: true });
        },
        async down() {
          await server.kill("SIGKILL");
        },
        async up() {
          if (stopped) throw new Error("This redis-server was stopped for good.");
          server = await launch(bin, port, dir, options);
        },
      };
    } catch (error) {
      lastError = error;
      await rm(dir, { recursive: true, force: true });
    }
  }
  throw lastError;
}

/** One redis-server process on `port`, answering PING. */
async function launch(
  bin: string,
  port: number,
  dir: string,
  options: StartRedisOptions,
): Promise<{ kill(signal: NodeJS.Signals): Promise<void> }> {
  const persistence = options.persist
    ? ["--appendonly", "yes", "--appendfsync", "always"]
    : ["--appendonly", "no"];
  const child = spawn(
    bin,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      ...persistence,
      "--dir",
      dir,
      ...(options.args ?? []),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  });
  const kill = killer(child);
  try {
    await waitForPing(port, child);
    return { kill };
  } catch (error) {
    await kill("SIGKILL");
    throw new Error(`redis-server did not start on port ${port}: ${String(error)}\n${output}`);
  }
}

function killer(child: ChildProcess): (signal: NodeJS.Signals) => Promise<void> {
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let killed: Promise<void> | undefined;
  return (signal) => {
    killed ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill(signal);
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      process.removeListener("exit", killOnExit);
    })();
    return killed;
  };
}

/** A port nobody listens on now, on loopback (for a child process to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until this child answers on `port`. Its own process id is asked for, not only a PONG: when
 * another test file's redis-server got the same port first, this one exits on the bind error, and
 * the other would answer the PING.
 */
async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const pid = await serverPid(port);
    if (pid !== undefined && pid === child.pid) return;
    if (pid !== undefined) throw new Error(`port ${port} is another redis-server's (process ${pid})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no answer within 10 s");
}

/** The process id of the redis-server answering on `port` (INFO server), or undefined. */
function serverPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    let reply = "";
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(1_000, () => done(undefined));
    socket.once("error", () => done(undefined));
    socket.once("connect", () => socket.write("INFO server\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.startsWith("-")) return done(undefined); // still loading, or refusing
      const pid = /\bprocess_id:(\d+)\r\n/.exec(reply)?.[1];
      if (pid !== undefined) done(Number(pid));
    });
  });
}

/**
 * Every key and value in a Redis, as one string: for "no secret or personal data in plain text"
 * assertions. Each key is read by its TYPE (strings, hashes, sets, sorted sets with their scores,
 * lists, streams), so a value kept in any structure is in the dump.
 */
export async function rawRedisDump(url: string): Promise<string> {
  const { createClient } = await import("@keyv/redis");
  const client = createClient({ url });
  await client.connect();
  const read: Record<string, (key: string) => string[]> = {
    string: (key) => ["GET", key],
    hash: (key) => ["HGETALL", key],
    set: (key) => ["SMEMBERS", key],
    zset: (key) => ["ZRANGE", key, "0", "-1", "WITHSCORES"],
    list: (key) => ["LRANGE", key, "0", "-1"],
    stream: (key) => ["XRANGE", key, "-", "+"],
    // Gone between KEYS and TYPE (a lock released, a TTL run out): nothing to read.
    none: (key) => ["EXISTS", key],
  };
  try {
    const keys = await client.keys("*");
    const values = await Promise.all(
      keys.map(async (key) => {
        const type = String(await client.sendCommand(["TYPE", key]));
        const command = read[type];
        if (command === undefined)
          throw new Error(`rawRedisDump: key ${key} has a type it cannot read: ${type}`);
        // Raw text, never JSON-escaped (an escaped quote would hide a `"secret"` from a search).
        return flatten(await client.sendCommand(command(key))).join("\n");
      }),
    );
    return [...keys, ...values].join("\n");
  } finally {
    await client.close();
  }
}

/** A Redis reply (nested arrays of strings and numbers) as its strings. */
function flatten(reply: unknown): string[] {
  if (Array.isArray(reply)) return reply.flatMap(flatten);
  if (reply === null || reply === undefined) return [];
  if (typeof reply === "object") return Object.entries(reply).flatMap(([k, v]) => [k, ...flatten(v)]);
  return [String(reply)];
}
