/**
 * The accounts a fresh sandbox starts with. Secrets are fixed so a person can add the demo
 * account to an authenticator app once and keep using it across restarts.
 */
import Big from "big.js";
import type { Account, SandboxState } from "./state.ts";

export const DEMO = {
  email: "demo@sandbox.test",
  password: "demo-password-1",
  totpSecret: "SANDBOXDEMOSECRETKEYFORTHEBOTXYZ",
} as const;

export const BUSINESS = {
  email: "business@sandbox.test",
  password: "business-password-1",
  totpSecret: "SANDBOXBUSINESSSECRETKEYFORTESTS",
} as const;

/**
 * The partner's service account: it logs in like any account (`POST v1/auth/login`), and its token
 * is accepted on the partner paths as the fixed partner token is.
 */
export const PARTNER_SERVICE = {
  email: "partner-service@sandbox.test",
  password: "partner-service-password-1",
  totpSecret: "SANDBOXPARTNERSERVICESECRETKEYAB",
} as const;

/** Has a password but no 2FA: the API refuses it (spec: only 2FA accounts can log in). */
export const NO_TWO_FACTOR = { email: "no2fa@sandbox.test", password: "no2fa-password-1" } as const;

export interface Seeded {
  demo: Account;
  business: Account;
  noTwoFactor: Account;
  /** A partner user who has passed KYC and holds some EUR: partner tests can trade at once. */
  partnerUser: Account;
  partnerService: Account;
}

export function seed(state: SandboxState): Seeded {
  const demo = state.createAccount({
    ...DEMO,
    accountType: "personal",
    info: {
      name: "Ada",
      surname: "Lovelace",
      birth_of_date: "1990-12-10",
      address: "Sandstraße",
      building_number: "12",
      city: "Berlin",
      postal_code: "10115",
      country: "DE",
    },
    balances: { eur: "10000", btc: "0.05", eth: "1.2", ltc: "10", xrp: "500", usdc: "250" },
  });
  state.addBankAccount(demo, {
    name: "Sandbox Sparkasse",
    iban: "DE89370400440532013000",
    swift_bic: "COBADEFFXXX",
    verificationAmount: new Big("1.00"),
    verified: true,
  });
  state.addAddress(demo, "btc");

  const business = state.createAccount({
    ...BUSINESS,
    accountType: "business",
    info: {
      name: "Grace",
      surname: "Hopper",
      birth_of_date: "1985-12-09",
      address: "Hafenweg",
      building_number: "3a",
      city: "Hamburg",
      postal_code: "20457",
      country: "DE",
      company_name: "Hopper Trading GmbH",
      company_address: "Hafenweg 3a, 20457 Hamburg",
      vat_number: "DE123456789",
      registration_number: "HRB 123456",
    },
    balances: { eur: "50000", btc: "1", eth: "10" },
  });
  state.addBankAccount(business, {
    name: "Sandbox Handelsbank",
    iban: "GB82WEST12345698765432",
    swift_bic: "NWBKGB2L",
    verificationAmount: new Big("1.00"),
    verified: true,
  });

  const noTwoFactor = state.createAccount({
    ...NO_TWO_FACTOR,
    info: { name: "Nora", surname: "Nofactor", country: "AT" },
    balances: { eur: "100" },
  });

  const partnerUser = state.createAccount({
    email: "partner-user@sandbox.test",
    info: {
      name: "Pat",
      surname: "Partner",
      birth_of_date: "1992-03-04",
      address: "Kanalstraße",
      building_number: "7",
      city: "Vienna",
      postal_code: "1010",
      country: "AUT",
    },
    balances: { eur: "1000" },
    partner: { phone: "+43123456789", kyc_status: "passed", edd_status: "not_required" },
  });
  state.addBankAccount(partnerUser, {
    name: "Sandbox Volksbank",
    iban: "AT611904300234573201",
    swift_bic: "BKAUATWW",
    verificationAmount: new Big("1.00"),
    verified: true,
  });

  const partnerService = state.createAccount({
    ...PARTNER_SERVICE,
    accountType: "business",
    info: { name: "Partner", surname: "Service", country: "DE" },
  });

  for (const [currency, amount] of Object.entries({
    eur: "250000",
    btc: "5",
    eth: "50",
    ltc: "500",
    xrp: "100000",
    usdc: "100000",
  })) {
    state.masterBalances.set(currency, new Big(amount));
  }

  return { demo, business, noTwoFactor, partnerUser, partnerService };
}
