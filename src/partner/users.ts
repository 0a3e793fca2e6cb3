/**
 * The link between a Telegram user and the partner user the bot created for them at sign-up.
 * Kept in the store for good (no TTL): it survives restarts and is shared by every instance.
 *
 * @example
 * const users = new PartnerUsers(store, vault);
 * await users.link(telegramId, partnerUserId, { email, consent });
 * const id = await users.partnerIdOf(telegramId); // undefined: not signed up yet
 */
import { createHash } from "node:crypto";
import { HashedIndex } from "../store/hashed-index.ts";
import type { Store } from "../store/store.ts";
import type { Vault } from "../store/vault.ts";

export interface PartnerLink {
  partnerUserId: number;
  /** When the user agreed to the terms, which version, and where they were offered to read them. */
  consent?: { version: string; url: string; at: number };
}

const linkKey = (telegramId: number) => `partner-user:${telegramId}`;
const reverseKey = (partnerUserId: number) => `partner-telegram:${partnerUserId}`;
/**
 * The partner API has no look-up by e-mail; the bot keeps its own, under a keyed hash of the
 * address (store/hashed-index.ts), never the address itself.
 */
export const PARTNER_EMAIL_PREFIX = "partner-email:";
const normalEmail = (email: string) => email.trim().toLowerCase();
/** Before the hash was keyed: a plain SHA-256 (anyone could test a guessed address against it). */
const legacyEmailKey = (email: string) =>
  `${PARTNER_EMAIL_PREFIX}${createHash("sha256").update(normalEmail(email)).digest("base64url")}`;

export class PartnerUsers {
  readonly #store: Store;
  readonly #byEmail: HashedIndex<{ partnerUserId: number }>;

  constructor(store: Store, vault: Vault) {
    this.#store = store;
    this.#byEmail = new HashedIndex(store, vault, PARTNER_EMAIL_PREFIX);
  }

  async link(
    telegramId: number,
    partnerUserId: number,
    details: { consent?: PartnerLink["consent"]; email?: string } = {},
  ): Promise<void> {
    const { consent, email } = details;
    const link: PartnerLink = consent === undefined ? { partnerUserId } : { partnerUserId, consent };
    if (email !== undefined) await this.#byEmail.set(normalEmail(email), { partnerUserId });
    await this.#store.set(reverseKey(partnerUserId), telegramId);
    // Last: the link is what makes the user "signed up".
    await this.#store.set(linkKey(telegramId), link);
  }

  /**
   * The partner user who signed up through this bot with `email` (any case). An entry an older
   * version wrote under the plain hash is moved to the keyed one when it is found.
   */
  async partnerIdByEmail(email: string): Promise<number | undefined> {
    const entry = await this.#byEmail.get(normalEmail(email));
    if (entry !== undefined) return entry.partnerUserId;
    const legacy = await this.#store.get<number>(legacyEmailKey(email));
    if (legacy === undefined) return undefined;
    await this.#byEmail.set(normalEmail(email), { partnerUserId: legacy });
    await this.#store.deleteIfEquals(legacyEmailKey(email), legacy);
    return legacy;
  }

  async get(telegramId: number): Promise<PartnerLink | undefined> {
    return this.#store.get<PartnerLink>(linkKey(telegramId));
  }

  async partnerIdOf(telegramId: number): Promise<number | undefined> {
    return (await this.get(telegramId))?.partnerUserId;
  }

  /** Who to tell about a partner user (KYC changes): the Telegram user linked to them. */
  async telegramIdOf(partnerUserId: number): Promise<number | undefined> {
    return this.#store.get<number>(reverseKey(partnerUserId));
  }

  /** Every linked Telegram user (the background KYC re-check walks them). */
  async telegramIds(): Promise<number[]> {
    const keys = await this.#store.keys("partner-user:");
    return keys.map((key) => Number(key.slice("partner-user:".length))).filter(Number.isSafeInteger);
  }
}
