import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountText } from "../../../src/bot/features/me.ts";
import { BUSINESS } from "../../../src/sandbox/seed.ts";
import type { FakeUser } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

const t = (key: string, vars?: Record<string, string | number>) =>
  `${key}${vars ? `(${Object.values(vars).join("|")})` : ""}`;

describe("accountText", () => {
  it("leaves out missing and blank fields, and keeps odd dates and countries as sent", () => {
    const text = accountText(
      t,
      {
        name: "Ada",
        surname: " ",
        email: "",
        birth_of_date: "10.12.1990",
        country: "DEU",
        city: "Berlin",
        company_name: "",
      },
      "en",
    );
    expect(text).toBe("me-title\n\nme-name(Ada)\nme-address(Berlin, DEU)\nme-birth-date(10.12.1990)");
  });
  it("uses street_address when the exchange sends it", () => {
    const text = accountText(
      t,
      { street_address: "Main St 1", address: "Main St", building_number: "1" },
      "en",
    );
    expect(text).toContain("me-address(Main St 1)");
  });
  it("says so when there is nothing at all", () => {
    expect(accountText(t, {}, "en")).toBe("me-empty");
  });
});

/** Logs in with another sandbox account, as a person would. */
async function logInAs(user: FakeUser, h: Harness, email: string, password: string): Promise<void> {
  await user.send("/login");
  await user.waitForReply(/e-mail|E-Mail/);
  await user.send(email);
  await user.waitForReply(/password|Passwort/);
  await user.send(password);
  await user.waitForReply(/6-digit|6-stellig/);
  await user.send(h.sandbox.currentCode(email));
  await user.waitForReply(/Logged in|Angemeldet als/);
}

describe("/me", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("asks a user who is not logged in to log in", async () => {
    const bob = h.user();
    await bob.send("/me");
    expect((await bob.waitForReply()).text).toContain("log in");
  });

  it("shows a personal account's details as the exchange holds them", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/me");
    const reply = await ada.waitForReply(/Your account/);
    const { info, email } = h.sandbox.seeded.demo;
    expect(reply.text).toBe(
      [
        "👤 Your account",
        "",
        `Name: ${info.name} ${info.surname}`,
        `E-mail: ${email}`,
        `Address: ${info.address} ${info.building_number}, ${info.postal_code} ${info.city}, Germany (DE)`,
        "Date of birth: December 10, 1990",
        "Account type: personal",
      ].join("\n"),
    );
    expect(info.birth_of_date).toBe("1990-12-10");
  });

  it("adds the company's details for a business account", async () => {
    const grace = h.user();
    await logInAs(grace, h, BUSINESS.email, BUSINESS.password);
    await grace.send("/me");
    const reply = await grace.waitForReply(/Your account/);
    const { info } = h.sandbox.seeded.business;
    expect(reply.text).toContain(`Name: ${info.name} ${info.surname}`);
    expect(reply.text).toContain("Account type: business");
    expect(reply.text).toContain(
      [
        "🏢 Company",
        `Company: ${info.company_name}`,
        `Company address: ${info.company_address}`,
        `VAT number: ${info.vat_number}`,
        `Registration number: ${info.registration_number}`,
      ].join("\n"),
    );
  });

  it("leaves out what the exchange does not have", async () => {
    h.sandbox.state.createAccount({
      email: "sparse@sandbox.test",
      password: "sparse-password-1",
      totpSecret: BUSINESS.totpSecret,
      info: { name: "Solo", city: "Wien" },
    });
    const solo = h.user();
    await logInAs(solo, h, "sparse@sandbox.test", "sparse-password-1");
    await solo.send("/me");
    const reply = await solo.waitForReply(/Your account/);
    expect(reply.text).toBe(
      [
        "👤 Your account",
        "",
        "Name: Solo",
        "E-mail: sparse@sandbox.test",
        "Address: Wien",
        "Account type: personal",
      ].join("\n"),
    );
  });

  it("answers in German", async () => {
    const ute = await h.loggedInUser(undefined, { languageCode: "de" });
    await ute.send("/me");
    const reply = await ute.waitForReply(/Dein Konto/);
    expect(reply.text).toContain("Adresse: Sandstraße 12, 10115 Berlin, Deutschland (DE)");
    expect(reply.text).toContain("Geburtsdatum: 10. Dezember 1990");
    expect(reply.text).toContain("Kontoart: privat");
  });
});
