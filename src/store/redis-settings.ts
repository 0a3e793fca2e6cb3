/**
 * What the bot needs of its Redis, checked once at start-up: the ledger's exactly-once claims,
 * logins and failed-login counters live there, so Redis must keep its data across a restart
 * (`appendonly yes`) and must never drop a key to make room (`maxmemory-policy noeviction`): an
 * evicted or lost Confirm claim lets a redelivered tap place the order again (deploy/README.md).
 *
 * Read with `CONFIG GET`; managed Redis services often disable CONFIG, then `INFO` tells the
 * eviction policy and whether the append-only file is on; when both are refused, the sentences
 * say the settings could not be checked. Its own short connection, so the check costs nothing after
 * start-up and knows nothing of the store's client.
 *
 * @example
 * for (const warning of await redisSettingsWarnings("redis://redis:6379")) log.warn(warning);
 */
import { createClient } from "@keyv/redis";

/** The settings as far as they could be read; `save` is undefined when only INFO answered. */
interface Settings {
  maxmemoryPolicy: string;
  appendonly: string;
  save: string | undefined;
}

const ADVICE = "deploy/README.md";

/**
 * One sentence per problem with the Redis at `url` (none when it keeps its data and never
 * evicts), or one sentence saying it could not be checked. Rejects when Redis cannot be reached.
 */
export async function redisSettingsWarnings(url: string): Promise<string[]> {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: false } });
  client.on("error", () => {}); // a failed connect rejects connect() below; nothing else to report
  await client.connect();
  try {
    const reader: Reader = {
      configGet: (names) => client.configGet(names),
      info: (section) => client.info(section),
    };
    const settings = (await fromConfig(reader)) ?? (await fromInfo(reader));
    if (settings === undefined) {
      return [
        `Redis's settings could not be checked (CONFIG and INFO are refused): make sure it runs with appendonly yes and maxmemory-policy noeviction (${ADVICE}).`,
      ];
    }
    return warningsFor(settings);
  } finally {
    await client.close();
  }
}

function warningsFor(settings: Settings): string[] {
  const warnings: string[] = [];
  if (settings.maxmemoryPolicy !== "noeviction") {
    warnings.push(
      `Redis may evict keys (maxmemory-policy ${settings.maxmemoryPolicy}): set maxmemory-policy noeviction, or a full Redis can drop an order's exactly-once claim and place it twice (${ADVICE}).`,
    );
  }
  if (settings.appendonly !== "yes") {
    const snapshots =
      settings.save === undefined
        ? "its snapshot schedule could not be read"
        : settings.save.trim() === ""
          ? "no snapshots either"
          : `only snapshots, save "${settings.save}"`;
    warnings.push(
      `Redis does not keep every write (appendonly no, ${snapshots}): a restart loses logins and order claims written since the last snapshot; set appendonly yes (${ADVICE}).`,
    );
  }
  return warnings;
}

/** The two commands the check reads with. */
interface Reader {
  configGet(names: string[]): Promise<Record<string, string>>;
  info(section: string): Promise<string>;
}

async function fromConfig(client: Reader): Promise<Settings | undefined> {
  try {
    const config = await client.configGet(["maxmemory-policy", "appendonly", "save"]);
    const maxmemoryPolicy = config["maxmemory-policy"];
    const appendonly = config.appendonly;
    if (maxmemoryPolicy === undefined || appendonly === undefined) return undefined;
    return { maxmemoryPolicy, appendonly, save: config.save ?? "" };
  } catch {
    return undefined; // CONFIG renamed or forbidden (managed Redis)
  }
}

async function fromInfo(client: Reader): Promise<Settings | undefined> {
  try {
    const info = `${await client.info("memory")}\n${await client.info("persistence")}`;
    const field = (name: string) => new RegExp(`^${name}:(.*?)\\r?$`, "m").exec(info)?.[1];
    const maxmemoryPolicy = field("maxmemory_policy");
    const aof = field("aof_enabled");
    if (maxmemoryPolicy === undefined || aof === undefined) return undefined;
    return { maxmemoryPolicy, appendonly: aof === "1" ? "yes" : "no", save: undefined };
  } catch {
    return undefined;
  }
}
