/**
 * The link between a Telegram user and the partner user the bot created for them at sign-up.
 * Kept in the store for good (no TTL): it survives restarts and is shared by every instance.
 *
 * @example
 * const users = new PartnerUsers(store);
 * await users.link(telegramId, partnerUserId, { email, consent });
 * const id = await users.partnerIdOf(telegramId); // undefined: not signed up yet
 */
import { createHash } from "node:crypto";
import type { Store } from "../store/store.ts";

export interface PartnerLink {
  partnerUserId: number;
  /** When the user agreed to the terms, which version, and where they were offered to read them. */
  consent?: { version: string; url: string; at: number };
}

const linkKey = (telegramId: number) => `partner-user:${telegramId}`;
const reverseKey = (partnerUserId: number) => `partner-telegram:${partnerUserId}`;
// The partner API has no look-up by e-mail; the bot keeps its own, keyed by a hash (not the address).
const emailKey = (email: string) =>
  `partner-email:${createHash("sha256").update(email.trim().toLowerCase()).digest("base64url")}`;

export class PartnerUsers {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  async link(
    telegramId: number,
    partnerUserId: number,
    details: { consent?: PartnerLink["consent"]; email?: string } = {},
  ): Promise<void> {
    const { consent, email } = details;
    const link: PartnerLink = consent === undefined ? { partnerUserId } : { partnerUserId, consent };
    if (email !== undefined) await this.#store.set(emailKey(email), partnerUserId);
    await this.#store.set(reverseKey(partnerUserId), telegramId);
    // Last: the link is what makes the user "signed up".
    await this.#store.set(linkKey(telegramId), link);
  }

  /** The partner user who signed up through this bot with `email` (any case). */
  async partnerIdByEmail(email: string): Promise<number | undefined> {
    return this.#store.get<number>(emailKey(email));
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
