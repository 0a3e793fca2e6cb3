/**
 * Every flow says how to stop: the first question of each conversation (account and partner mode,
 * English and German) names /cancel, and /cancel then stops it. Real sandbox, Bot API double.
 */
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

/** Each flow's entry, as a user types it; `first` picks the question when a note comes before it. */
interface Entry {
  command: string;
  first?: RegExp;
}

const ACCOUNT_FLOWS: Entry[] = [
  { command: "/buy" },
  { command: "/buy btc" },
  { command: "/sell" },
  { command: "/sell btc" },
  { command: "/send" },
  { command: "/send btc" },
  { command: "/withdraw" },
  { command: "/price" },
  { command: "/fees" },
  { command: "/banks add" },
  { command: "/banks remove" },
  { command: "/deposit new" },
  { command: "/settings phrase" },
  { command: "/addresses add" },
  { command: "/addresses add btc" },
  // Why a fresh login is asked comes first; the login's first question names /cancel.
  { command: "/safety allowlist off", first: /password of|Passwort von/ },
];

const PARTNER_FLOWS: Entry[] = [
  { command: "/buy" },
  { command: "/buy btc" },
  { command: "/sell" },
  { command: "/sell btc" },
  { command: "/withdraw" },
  // A short note on what it asks comes first; the first question names /cancel.
  { command: "/banks add", first: /name of the bank|Wie heißt die Bank/ },
  { command: "/profile name" },
  { command: "/safety cooling 6" },
];

async function expectStopNamed(user: FakeUser, entry: Entry, cancelled: RegExp): Promise<void> {
  await user.send(entry.command);
  const asked = await user.waitForReply(entry.first);
  expect(asked.text, entry.command).toContain("/cancel");
  await user.send("/cancel");
  await user.waitForReply(cancelled);
}

describe("every account flow says how to stop", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it("names /cancel in its first question, in English and German", async () => {
    // Two bank accounts, so that /banks remove asks which (the exchange keeps the last one).
    h.sandbox.state.addBankAccount(h.sandbox.seeded.demo, {
      name: "Second Bank",
      iban: "DE02120300000000202051",
      swift_bic: "BYLADEM1001",
      verificationAmount: new Big("1.00"),
      verified: true,
    });
    const ada = await h.loggedInUser();
    for (const entry of ACCOUNT_FLOWS) await expectStopNamed(ada, entry, /Cancelled/);
    const eva = await h.loggedInUser(undefined, { languageCode: "de" });
    for (const entry of ACCOUNT_FLOWS) await expectStopNamed(eva, entry, /Abgebrochen/);
  });

  it("names /cancel when /login asks for the e-mail", async () => {
    await expectStopNamed(h.user(), { command: "/login" }, /Cancelled/);
    await expectStopNamed(h.user(undefined, { languageCode: "de" }), { command: "/login" }, /Abgebrochen/);
  });
});

describe("every partner flow says how to stop", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(() => h.stop());

  it("names /cancel in its first question, in English and German", async () => {
    const ada = await h.partnerUser();
    for (const entry of PARTNER_FLOWS) await expectStopNamed(ada, entry, /Cancelled/);
    const eva = await h.partnerUser(undefined, { languageCode: "de" });
    for (const entry of PARTNER_FLOWS) await expectStopNamed(eva, entry, /Abgebrochen/);
  });

  it("names /cancel when /verify asks for the token and sign-up starts", async () => {
    const newcomer = await h.partnerUser(undefined, { kycStatus: "not_started" });
    await expectStopNamed(newcomer, { command: "/verify" }, /Cancelled/);
    await expectStopNamed(h.user(), { command: "/start" }, /Cancelled/);
  });
});
