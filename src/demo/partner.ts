/**
 * `npm run demo -- --partner`: the demo in partner mode (EXCHANGE_MODE=partner, PARTNER_TOKEN the
 * sandbox's). The demo user is a newcomer who signs up through the bot's own /start conversation,
 * and also the partner's operator (OPERATOR_IDS), so the operator desk answers them too.
 */
import type { PartnerConfig } from "../config.ts";
import type { Sandbox } from "../sandbox/server.ts";

export const PARTNER_STEPS = [
  "│ Partner mode: you are a newcomer to the partner's service; no exchange login.",
  "│ 1. /start signs you up: e-mail, name, surname, phone (type it, or :contact to share it),",
  "│    #2 to agree to the terms (button 1 is the link to read them), and a 6-digit PIN twice",
  "│    (not an easy one like 123456 or 111111).",
  "│ 2. /verify demo-share-token: your KYC is pending. :kyc passed flips it at the sandbox",
  "│    and runs the background jobs once, which tell you.",
  "│ 3. :deposit 1000 (a wire arrives), /buy btc 100 and #1 to confirm.",
  "│ 4. /banks to add a bank account, then /withdraw, #1 for the bank, 50, #1, your PIN.",
  "│ 5. You are an operator too: /master, /user you@partner-demo.test (or an id), /alltx, /plans.",
  "│ 6. /recurring btc 25 daily 9, your time zone, #1 to confirm; :advance 24h runs the jobs a day",
  "│    on (:advance 25h the first time if the hour has just passed), /recurring lists the plan.",
  "│ Type :help for the demo's own commands.",
];

export const DEMO_TERMS_URL = "https://example.com/terms";

/** Partner mode against the sandbox, with the demo user as the one operator. */
export function demoPartnerConfig(sandbox: Sandbox, operatorId: number): PartnerConfig {
  return {
    auth: { kind: "token", token: sandbox.partnerToken },
    operatorIds: [operatorId],
    supportContact: "@demo_support",
    // TERMS_URL: the demo has no terms of its own; a reserved example domain stands in for them.
    termsUrl: DEMO_TERMS_URL,
  };
}
