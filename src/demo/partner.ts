/**
 * `npm run demo -- --partner`: the demo in partner mode (EXCHANGE_MODE=partner, PARTNER_TOKEN the
 * sandbox's). The demo user is a newcomer who signs up through the bot's own /start conversation,
 * and also the partner's operator (OPERATOR_IDS), so the operator desk answers them too.
 */
import type { PartnerConfig } from "../config/config.ts";
import type { Sandbox } from "../sandbox/server.ts";

/** The partner walk, in the words of README.md's (whose lines test/demo/readme-walk.test.ts types). */
export const PARTNER_STEPS = [
  "│ Partner mode: you are a newcomer to the partner's service; no exchange login.",
  "│ 1. /start signs you up: e-mail (you@partner-demo.test), name, surname, phone (type it, or",
  "│    :contact to share it), #2 to agree to the terms (button 1 is the link to read them), and",
  "│    a 6-digit PIN twice (not an easy one like 123456 or 111111).",
  "│ 2. /verify demo-share-token: your KYC is pending. :kyc passed flips it at the sandbox",
  "│    and runs the background jobs once, which tell you.",
  "│ 3. :deposit 1000 (a wire arrives), /buy btc 100 and #1 to confirm.",
  "│ 4. /banks, #1 to add a bank account (Sparkasse Berlin, DE89370400440532013000, COBADEFFXXX),",
  "│    #1 to confirm it; :advance 24h waits out its cooling-off; then /withdraw, #1 for the bank,",
  "│    50, #1, your PIN.",
  "│ 5. You are an operator too: /master, /user you@partner-demo.test (or an id), /alltx, /plans.",
  "│ 6. /recurring btc 25 daily 9, your time zone (Berlin), #1 to confirm; :advance 25h runs the",
  "│    jobs through the next day as they would live: the plan buys. /recurring lists it.",
  "│ Type :help for the demo's own commands; #M.N taps button N of message M (bot #M>).",
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
