/**
 * `npm run demo -- --partner`: the demo in partner mode (EXCHANGE_MODE=partner). Until the sign-up
 * conversation is in, the demo stands in for it: it creates the demo user's partner user through
 * the sandbox's partner API (KYC pending), gives them euros and a bank account, links them to the
 * Telegram user and sets the PIN 123456. `:kyc passed` is the sandbox's KYC switch.
 */
import Big from "big.js";
import type { BotDeps } from "../bot/deps.ts";
import type { Sandbox } from "../sandbox/server.ts";

export const DEMO_PIN = "123456";

export const PARTNER_STEPS = [
  "│ Partner mode: you are a customer of the partner; no exchange login.",
  "│ The demo signed you up (PIN 123456); your KYC is pending: try /buy.",
  "│ Then: :kyc passed (the sandbox's KYC switch), /buy btc 100 and #1 to confirm,",
  "│ /withdraw, #1 for the bank, 50, #1 to confirm, then your PIN 123456.",
  "│ Type :help for the demo's own commands.",
];

/** The demo user's partner user, as sign-up would leave them; returns their partner user id. */
export async function signUpDemoCustomer(
  deps: BotDeps,
  sandbox: Sandbox,
  telegramId: number,
): Promise<number> {
  const partner = deps.partner;
  if (partner === undefined) throw new Error("The demo's services were built without partner mode.");
  const { id } = await partner.api.createUser({
    email: "you@partner-demo.test",
    name: "Demo",
    surname: "Customer",
  });
  sandbox.faults.setPartnerUserStatus(id, { kyc_status: "pending", edd_status: "not_required" });
  const account = sandbox.state.partnerUser(id);
  if (account !== undefined) sandbox.state.credit(account, "eur", new Big("1000"));
  await partner.api.addBankAccount(id, {
    name: "Demo Bank",
    iban: "DE89370400440532013000",
    swift_bic: "COBADEFFXXX",
  });
  await partner.users.link(telegramId, id);
  await partner.pins.set(telegramId, DEMO_PIN);
  return id;
}
