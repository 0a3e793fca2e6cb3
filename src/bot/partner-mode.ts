/**
 * What a private chat offers in partner mode (EXCHANGE_MODE=partner), in order: sign-up (/start),
 * /verify, /help and /language for anyone; then the KYC gate; then the partner customer and
 * operator features (src/bot/partner-features.ts). The account-mode features (login, sessions,
 * 2FA) are not installed: partner users have no exchange login.
 */
import type { Middleware } from "grammy";
import type { PrivateContext } from "./context.ts";
import type { PartnerBotDeps } from "./deps.ts";
import { helpFeature } from "./features/help.ts";
import { languageFeature } from "./features/language.ts";
import { partnerSignUpFeature } from "./features/partner/signup.ts";
import { partnerVerifyFeature } from "./features/partner/verify.ts";
import { orderWatch } from "./middleware/order-watch.ts";
import { partnerGate } from "./middleware/partner-gate.ts";
import { partnerFeatures } from "./partner-features.ts";
import { Chain } from "./runtime/middleware-chain.ts";

export function partnerMode(deps: PartnerBotDeps): Array<Middleware<PrivateContext>> {
  const gate = new Chain<PrivateContext>();
  // Commands and taps only: stray text reaches the unknown-input answer, as in account mode.
  gate.on(["message:entities:bot_command", "callback_query"]).use(partnerGate(deps));
  // bot.ts routes each update through only the features that can take it, in this order.
  return [
    // Open partner orders (an answer lost) are reconciled when their owner comes back.
    orderWatch(deps),
    partnerSignUpFeature(deps),
    partnerVerifyFeature(deps),
    helpFeature("partner"),
    languageFeature(deps),
    gate,
    ...partnerFeatures(deps),
  ];
}
