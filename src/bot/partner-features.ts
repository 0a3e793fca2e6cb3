/**
 * The partner customer and operator features, in one list (placeholder until the feature files
 * land): src/bot/partner-mode.ts installs it behind the KYC gate.
 */
import { Composer } from "grammy";
import type { PrivateContext } from "./context.ts";
import type { PartnerBotDeps } from "./deps.ts";

export function partnerFeatures(
  _deps: PartnerBotDeps,
  _flows: Composer<PrivateContext>,
): Composer<PrivateContext> {
  return new Composer<PrivateContext>();
}
