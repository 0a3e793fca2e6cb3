/**
 * Who the pipeline asks the exchange as, for one Telegram user and one kind of action: the user's
 * own account session (account mode: buy, sell, send, withdraw), or the partner API under the
 * partner's credentials with the partner user id linked to that Telegram user (partner mode:
 * partner-buy, partner-sell, partner-withdraw). Quotes, executors and reconciliation get an
 * {@link OrderClient} and take the half their kind needs; the pipeline itself never asks which.
 *
 * @example
 * const clients = new OrderClients(sessions, partner);
 * const quote = await clients.use(userId, "partner-buy", (client) => partnerBuy.quote(client, request));
 */
import type { PartnerServices } from "../partner/services.ts";
import { NotLoggedInError } from "../session/errors.ts";
import type { Sessions } from "../session/sessions.ts";
import { type ActionKind, kindOf } from "./kinds/index.ts";
import type { OrderClient } from "./order-client.ts";

/** What partner mode gives the pipeline: the API, the Telegram ↔ partner user links, the PINs. */
export type PartnerAccess = Pick<PartnerServices, "api" | "users" | "pins">;

export class OrderClients {
  readonly #sessions: Pick<Sessions, "use" | "status">;
  readonly #partner: PartnerAccess | undefined;

  constructor(sessions: Pick<Sessions, "use" | "status">, partner?: PartnerAccess) {
    this.#sessions = sessions;
    this.#partner = partner;
  }

  /** The PINs (partner mode), which guard money leaving a partner user's account. */
  get pins(): PartnerAccess["pins"] | undefined {
    return this.#partner?.pins;
  }

  /**
   * Runs `task` with the client `kind` needs. Throws NotLoggedInError when there is none: no live
   * session (account kinds), or no partner user linked to this Telegram user (partner kinds).
   */
  async use<T>(userId: number, kind: ActionKind, task: (client: OrderClient) => Promise<T>): Promise<T> {
    if (kindOf(kind).api === "account") return this.#sessions.use(userId, (account) => task({ account }));
    const partnerUserId = await this.#partner?.users.partnerIdOf(userId);
    if (this.#partner === undefined || partnerUserId === undefined) throw new NotLoggedInError("logged-out");
    return task({ partner: { api: this.#partner.api, partnerUserId } });
  }

  /** Whether the exchange can be asked about this user's actions of `kind` now (reconciliation). */
  async ready(userId: number, kind: ActionKind): Promise<boolean> {
    if (kindOf(kind).api === "partner") return (await this.#partner?.users.partnerIdOf(userId)) !== undefined;
    return (await this.#sessions.status(userId)).state === "active";
  }
}
