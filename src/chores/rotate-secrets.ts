/**
 * `npm run rotate-secrets`: seals every sealed value in the store (STORE_URL) again under the first
 * key of SECRETS_KEY and moves keyed-hash index entries under its hash (store/rotation.ts), so the
 * other keys can then be dropped. Safe while the bots run, and idempotent. Prints what it did.
 *
 * The order (README.md, Configure): every instance restarted with SECRETS_KEY="NEW,OLD" first, then
 * this, then SECRETS_KEY="NEW" and a restart.
 */
import { ConfigError, loadStoreConfig } from "../config/config.ts";
import { upgradeAuthRecord } from "../session/sessions.ts";
import { openStore } from "../store/open-store.ts";
import { rotateSecrets } from "../store/rotation.ts";
import { Vault } from "../store/vault.ts";

async function main(): Promise<number> {
  let config: ReturnType<typeof loadStoreConfig>;
  try {
    config = loadStoreConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const vault = Vault.fromBase64(config.secretsKey);
  const first = vault.keyId;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`rotate-secrets: sealing under key ${first} (SECRETS_KEY holds ${vault.keyIds.join(", ")})`);
  const store = await openStore(config.storeUrl);
  let report: Awaited<ReturnType<typeof rotateSecrets>>;
  try {
    report = await rotateSecrets(store, vault, {
      upgrade: (key, value) => upgradeAuthRecord(key, value, vault),
    });
  } finally {
    await store.close();
  }
  say(`keys looked at: ${report.keys}`);
  say(`sealed again under ${first}: ${report.resealed}`);
  say(`index entries moved to ${first}'s hash: ${report.moved}`);
  say(`older records sealed (an e-mail in plain text): ${report.upgraded}`);
  say(`left as they were, no SECRETS_KEY key opens them (they read as absent): ${report.unopenable}`);
  say(`changed by a running bot on every try: ${report.busy}`);
  if (report.busy > 0) {
    say("not finished: run it again (are all instances running with the new key first?)");
    return 1;
  }
  if (report.unopenable > 0) {
    say(
      `done: everything a listed key opens is sealed under ${first}; the ${report.unopenable} values none opens stay as they were (absent to the bot).`,
    );
    return 0;
  }
  say(`done: everything sealed opens with ${first} alone; the other keys can be dropped from SECRETS_KEY.`);
  return 0;
}

process.exitCode = await main();
