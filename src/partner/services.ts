/**
 * What partner mode (EXCHANGE_MODE=partner) adds to the bot's dependencies: the partner API under
 * the partner's own credentials, the Telegram ↔ partner user links, the PINs, and who the
 * operators are. Absent in account mode.
 */
import type { PartnerApi } from "../exchange/partner.ts";
import type { KycWatch } from "./kyc-watch.ts";
import type { Pins } from "./pins.ts";
import type { PartnerUsers } from "./users.ts";

export interface PartnerServices {
  api: PartnerApi;
  users: PartnerUsers;
  pins: Pins;
  /** OPERATOR_IDS: the only users of the operator desk. */
  operators: ReadonlySet<number>;
  /** Users whose verification is pending, re-checked by the background jobs. */
  kyc: KycWatch;
  /** SUPPORT_CONTACT: what users who cannot be served are told to contact. */
  supportContact: string;
  /** TERMS_URL: the terms users agree to at sign-up. */
  termsUrl: string;
}
