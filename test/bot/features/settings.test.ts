import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettingsCommand } from "../../../src/bot/features/settings.ts";
import { type Harness, logIn, startHarness } from "../../support/harness.ts";

describe("parseSettingsCommand", () => {
  it("reads the typed forms of every choice", () => {
    expect(parseSettingsCommand("language de")).toEqual({ kind: "language", locale: "de" });
    expect(parseSettingsCommand("Sprache English")).toEqual({ kind: "language", locale: "en" });
    expect(parseSettingsCommand("alerts off")).toEqual({ kind: "notify", which: "alerts", mode: "off" });
    expect(parseSettingsCommand("orders an")).toEqual({ kind: "notify", which: "orders", mode: "on" });
    expect(parseSettingsCommand("expiry aus")).toEqual({ kind: "notify", which: "expiry", mode: "off" });
    expect(parseSettingsCommand("alerts silent")).toEqual({
      kind: "notify",
      which: "alerts",
      mode: "silent",
    });
    expect(parseSettingsCommand("Aufträge leise")).toEqual({
      kind: "notify",
      which: "orders",
      mode: "silent",
    });
    expect(parseSettingsCommand("digest on")).toEqual({ kind: "notify", which: "digest", mode: "on" });
    expect(parseSettingsCommand("remember on")).toEqual({ kind: "remember", on: true });
    expect(parseSettingsCommand("logout 30")).toEqual({ kind: "autologout", minutes: 30 });
    expect(parseSettingsCommand("logout 15 min")).toEqual({ kind: "autologout", minutes: 15 });
    expect(parseSettingsCommand("logout off")).toEqual({ kind: "autologout", minutes: 0 });
    for (const bad of ["", "language fr", "logout 20", "alerts maybe", "colour blue", "alerts"]) {
      expect(parseSettingsCommand(bad)).toBeUndefined();
    }
  });
});

describe("/settings", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("shows the menu without a login, with the defaults", async () => {
    const ada = h.user();
    await ada.send("/settings");
    const menu = await ada.waitForReply(/Settings/);
    expect(menu.text).toContain("Language: English");
    expect(menu.text).toContain("price alerts on, order updates on, session expiry on, daily digest off");
    expect(menu.text).toContain("Remember password for quick re-login: off");
    expect(menu.text).toContain("Auto-logout: never");
    expect(menu.buttons.flat()).toEqual(
      expect.arrayContaining([
        "✓ English",
        "Deutsch",
        "🔔 Notifications, quiet hours…",
        "🔑 Remember password: off",
        "✓ ⏱ Never",
      ]),
    );
  });

  it("sets auto-logout in place and keeps it in the profile; notifications have their own menu", async () => {
    const ada = h.user();
    await ada.send("/settings");
    const menu = await ada.waitForReply(/Settings/);
    await ada.tap("30 min");
    const timed = await ada.waitForReply((m) => m.edited && m.text.includes("after 30 minutes"));
    expect(timed.messageId).toBe(menu.messageId);
    expect(timed.buttons.flat()).toContain("✓ 30 min");
    expect((await h.deps.profiles.get(ada.id)).autoLogoutMinutes).toBe(30);

    await ada.tap("🔔 Notifications, quiet hours…");
    const notifications = await ada.waitForReply((m) => m.edited && m.text.includes("Quiet hours"));
    expect(notifications.messageId).toBe(menu.messageId);
    expect(notifications.buttons.flat()).toContain("🔔 Price alerts: on");
  });

  it("remember password: on explains and takes effect at the next login; off forgets at once", async () => {
    const ada = h.user();
    await ada.send("/settings");
    await ada.waitForReply(/Settings/);
    await ada.tap("🔑 Remember password: off");
    const explained = await ada.waitForReply(/Remember password is on/);
    expect(explained.text).toContain("encrypted");
    expect(explained.text).toContain("next /login");
    expect(explained.text).toContain("2FA code");
    expect((await h.deps.profiles.get(ada.id)).rememberPassword).toBe(true);
    expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(false);

    await logIn(ada, h.sandbox);
    expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(true);

    await ada.send("/settings");
    const menu = await ada.waitForReply(/Settings/);
    expect(menu.text).toContain("Remember password for quick re-login: on");
    await ada.tap("🔑 Remember password: on");
    const forgotten = await ada.waitForReply(/forgotten your password/);
    expect(forgotten.text).toContain("Remember password is off");
    expect(await h.deps.sessions.hasRememberedPassword(ada.id)).toBe(false);
    expect((await h.deps.profiles.get(ada.id)).rememberPassword).toBe(false);
    // Still logged in: only the password is gone.
    expect((await h.deps.sessions.status(ada.id)).state).toBe("active");
  });

  it("switches the language and redraws the menu in it", async () => {
    const ada = h.user();
    await ada.send("/settings");
    const menu = await ada.waitForReply(/Settings/);
    await ada.tap("Deutsch");
    const german = await ada.waitForReply((m) => m.edited);
    expect(german.messageId).toBe(menu.messageId);
    expect(german.text).toContain("Einstellungen");
    expect(german.text).toContain("Sprache: Deutsch");
    expect(german.buttons.flat()).toContain("✓ Deutsch");
    expect((await h.deps.profiles.get(ada.id)).locale).toBe("de");

    await ada.send("/help");
    expect((await ada.waitForReply()).text).not.toContain("What I can do");
  });

  it("accepts every choice typed", async () => {
    const ada = h.user();
    await ada.send("/settings orders off");
    expect((await ada.waitForReply()).text).toBe("✅ Saved.");
    const menu = await ada.waitForReply(/Settings/);
    expect(menu.text).toContain("order updates off");

    await ada.send("/settings alerts silent");
    await ada.waitForReply("Saved");
    expect((await ada.waitForReply(/Settings/)).text).toContain("price alerts silent");

    await ada.send("/settings logout 15");
    await ada.waitForReply("Saved");
    await ada.send("/settings remember on");
    await ada.waitForReply(/Remember password is on/);
    // A security notice follows the change through the delivery queue: waited for, not raced.
    await ada.waitForReply(/"Remember password" was turned on/);
    const profile = await h.deps.profiles.get(ada.id);
    expect(profile.notifications.orders).toBe("off");
    expect(profile.notifications.alerts).toBe("silent");
    expect(profile.autoLogoutMinutes).toBe(15);
    expect(profile.rememberPassword).toBe(true);

    await ada.send("/settings language de");
    await ada.waitForReply("Gespeichert");
    expect((await ada.waitForReply(/Einstellungen/)).text).toContain("Sprache: Deutsch");

    await ada.send("/settings farbe blau");
    expect((await ada.waitForReply()).text).toContain("nicht verstanden");
  });

  it("follows a German Telegram client until a language is chosen", async () => {
    const eva = h.user(undefined, { languageCode: "de" });
    await eva.send("/settings");
    const menu = await eva.waitForReply(/Einstellungen/);
    expect(menu.text).toContain("Preisalarme an");
    expect(menu.text).toContain("Automatisch abmelden: nie");
    expect(menu.buttons.flat()).toContain("🔑 Passwort merken: aus");
    await eva.tap("60 Min.");
    const edited = await eva.waitForReply((m) => m.edited);
    expect(edited.text).toContain("nach 60 Minuten ohne Aktivität");
  });
});

describe("/settings: the anti-phishing phrase", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("sets, changes and removes the phrase; the message that sets it is deleted, the list shows it masked", async () => {
    const ada = h.user();
    await ada.send("/settings");
    const menu = await ada.waitForReply(/Settings/);
    expect(menu.text).toContain("Anti-phishing phrase: not set");
    await ada.tap("🛡 Set anti-phishing phrase");
    expect((await ada.waitForReply(/Send the words/)).text).toContain("I delete your message at once");

    // The button asks; the next message is the phrase, deleted before anything else.
    const typed = await ada.send("Blue <tiger> 42");
    await ada.waitForReply(/Saved\. I deleted your message/);
    expect(ada.deletedMessageIds()).toContain(typed.message_id);
    expect(await h.deps.phishing.get(ada.id)).toBe("Blue <tiger> 42");
    await ada.send("/settings");
    const listed = await ada.waitForReply(/Settings/);
    expect(listed.text).toContain("Anti-phishing phrase: Bl•••");
    expect(listed.text).not.toContain("tiger");
    expect(listed.buttons.flat()).toEqual(expect.arrayContaining(["🛡 Change phrase", "🛡 Remove phrase"]));

    const changed = await ada.send("/settings phrase  green   owl ");
    await ada.waitForReply(/Saved/);
    expect(ada.deletedMessageIds()).toContain(changed.message_id);
    expect(await h.deps.phishing.get(ada.id)).toBe("green owl");
    const again = await ada.waitForReply((m) => /Settings/.test(m.text) && m.text.includes("gr•••"));

    await ada.tap("🛡 Remove phrase", again);
    await ada.waitForReply(/phrase is removed/);
    expect(await h.deps.phishing.get(ada.id)).toBeUndefined();
  });

  it("refuses a phrase too short, still deleting it, and removes with /settings phrase off", async () => {
    const ada = h.user();
    const typed = await ada.send("/settings phrase ab");
    await ada.waitForReply(/needs 3 to 40 characters/);
    expect(ada.deletedMessageIds()).toContain(typed.message_id);
    expect(await h.deps.phishing.get(ada.id)).toBeUndefined();

    // The refusal keeps the step open; the command typed again gives its words as the phrase.
    await ada.send("/settings phrase sunny hill");
    await ada.waitForReply(/Saved/);
    expect(await h.deps.phishing.get(ada.id)).toBe("sunny hill");
    await ada.send("/settings phrase off");
    await ada.waitForReply(/phrase is removed/);
    expect(await h.deps.phishing.get(ada.id)).toBeUndefined();
  });

  it("keeps the step open after a phrase too short: the next message is the phrase, saved and deleted (button)", async () => {
    const ada = h.user();
    await ada.send("/settings");
    await ada.waitForReply(/Settings/);
    await ada.tap("🛡 Set anti-phishing phrase");
    await ada.waitForReply(/Send the words/);
    const short = await ada.send("ab");
    await ada.waitForReply(/needs 3 to 40 characters.*send me another one/);
    const real = await ada.send("quiet harbour 7");
    await ada.waitForReply(/Saved\. I deleted your message/);
    expect(ada.deletedMessageIds()).toEqual(expect.arrayContaining([short.message_id, real.message_id]));
    expect(await h.deps.phishing.get(ada.id)).toBe("quiet harbour 7");
  });

  it("keeps the step open after /settings phrase ab: the next message is the phrase, saved and deleted", async () => {
    const ada = h.user();
    const short = await ada.send("/settings phrase ab");
    await ada.waitForReply(/needs 3 to 40 characters/);
    const real = await ada.send("quiet harbour 8");
    await ada.waitForReply(/Saved\. I deleted your message/);
    expect(ada.deletedMessageIds()).toEqual(expect.arrayContaining([short.message_id, real.message_id]));
    expect(await h.deps.phishing.get(ada.id)).toBe("quiet harbour 8");
  });

  it("keeps the phrase only sealed in the store", async () => {
    const ada = h.user();
    await ada.send("/settings phrase purple walrus");
    await ada.waitForReply(/Saved/);
    const raw = await h.deps.store.get<string>(`phishing-phrase:${ada.id}`);
    expect(raw).toMatch(/^v1\./);
    expect(raw).not.toContain("walrus");
  });
});
