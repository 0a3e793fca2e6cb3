/** The store: where it is (STORE_URL) and the Vault's key(s) (SECRETS_KEY). */
import { z } from "zod";
import type { Env } from "../error.ts";
import type { Config } from "../types.ts";
import { required } from "./fields.ts";
import { cleaned, parseSection } from "./section.ts";

const SECRETS_KEY_WHAT = "32 random bytes in base64 (openssl rand -base64 32)";

const storeUrl = z
  .string()
  .regex(/^(sqlite|redis|rediss):\/\/.+/, { error: "STORE_URL must be sqlite://PATH or redis://HOST:PORT." })
  .prefault("sqlite://data/bot.sqlite");

/** Every comma-separated key is 32 bytes of base64; the first one encrypts. */
const secretsKey = (schema: z.ZodString) =>
  schema.refine((value) => value.split(",").every((key) => Buffer.from(key.trim(), "base64").length === 32), {
    error: `SECRETS_KEY must be ${SECRETS_KEY_WHAT}.`,
  });

/** npm start and the store chores: the key is required. */
const keyedStoreSchema = z.object({
  STORE_URL: storeUrl,
  SECRETS_KEY: secretsKey(required("SECRETS_KEY", SECRETS_KEY_WHAT)),
});
/** The demo and tests: they bring their own key. */
const storeSchema = z.object({ STORE_URL: storeUrl, SECRETS_KEY: secretsKey(z.string()).optional() });

/** `strict` (npm start) needs the secrets key; the demo and tests bring their own. */
export function storeSection(env: Env, strict: boolean): Pick<Config, "storeUrl" | "secretsKey"> {
  const read = parseSection(strict ? keyedStoreSchema : storeSchema, env);
  return { storeUrl: read.STORE_URL, secretsKey: read.SECRETS_KEY };
}

/**
 * What a chore on the store needs (`npm run rotate-secrets`): STORE_URL and SECRETS_KEY, the latter
 * required; nothing of the bot's other variables.
 *
 * @example
 * const { storeUrl, secretsKey } = loadStoreConfig(process.env); // throws ConfigError
 */
export function loadStoreConfig(env: Env): { storeUrl: string; secretsKey: string } {
  const read = parseSection(keyedStoreSchema, cleaned(env));
  return { storeUrl: read.STORE_URL, secretsKey: read.SECRETS_KEY };
}

/**
 * STORE_URL alone, for tools that need nothing else (`npm run backup`): the default, or the
 * sentence naming a bad one.
 */
export function storeUrlOf(env: Env): string {
  return parseSection(z.object({ STORE_URL: storeUrl }), cleaned(env)).STORE_URL;
}
