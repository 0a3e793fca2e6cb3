/**
 * Notifications the user controls, through the whole bot: the /settings menu, the Notifier, the
 * delivery queue and the Bot API double over HTTP, on a real SQLite store and a ManualClock (the
 * night passes by moving it). What Telegram receives is read from the double's call log, so
 * `disable_notification` is checked where it lands.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NoticeKind } from "../../src/notify/notifier.ts";
import { inQuietHours } from "../../src/notify/quiet-hours.ts";
import type { BackgroundJobs } from "../../src/process/jobs.ts";
import { NOTIFY_KINDS, NOTIFY_MODES, readNotifications } from "../../src/session/profiles.ts";
import { ManualTimers } from "../../src/support/clock.ts";
import type { FakeUser } from "../../src/telegram-double/index.ts";
import { HARNESS_EPOCH, type Harness, startHarness } from "../support/harness.ts";
import { draftOf } from "../support/quotes.ts";
import { drainQueue, jobsOnTimers } from "../support/virtual-delivery.ts";

const QUIET_22_07 = { from: 22 * 60, to: 7 * 60 };

describe("quiet hours on the user's own clock", () => {
  const berlin = { timeZone: "Europe/Berlin", quietHours: QUIET_22_07 };
  const at = (iso: string) => Date.parse(iso);

  it("span midnight in the user's zone, summer time included", () => {
    // Winter: Berlin is UTC+1.
    expect(inQuietHours(berlin, at("2026-11-22T20:59:00Z"))).toBe(false); // 21:59
    expect(inQuietHours(berlin, at("2026-11-22T21:00:00Z"))).toBe(true); // 22:00
    expect(inQuietHours(berlin, at("2026-11-22T23:30:00Z"))).toBe(true); // 00:30, the next day
    expect(inQuietHours(berlin, at("2026-11-23T05:59:00Z"))).toBe(true); // 06:59
    expect(inQuietHours(berlin, at("2026-11-23T06:00:00Z"))).toBe(false); // 07:00
    // Summer: UTC+2, the same wall-clock hours.
    expect(inQuietHours(berlin, at("2026-07-01T19:59:00Z"))).toBe(false); // 21:59
    expect(inQuietHours(berlin, at("2026-07-01T20:00:00Z"))).toBe(true); // 22:00
    expect(inQuietHours(berlin, at("2026-07-02T05:00:00Z"))).toBe(false); // 07:00
  });

  it("move with a change of time zone, and need one", () => {
    const instant = at("2026-11-23T06:30:00Z"); // 07:30 in Berlin, 01:30 in New York
    expect(inQuietHours(berlin, instant)).toBe(false);
    expect(inQuietHours({ ...berlin, timeZone: "America/New_York" }, instant)).toBe(true);
    expect(inQuietHours({ ...berlin, timeZone: "+05:30" }, at("2026-11-22T17:00:00Z"))).toBe(true); // 22:30
    // Quiet hours within one day, and none without a zone.
    const day = { timeZone: "UTC", quietHours: { from: 9 * 60, to: 17 * 60 } };
    expect(inQuietHours(day, at("2026-11-22T08:59:00Z"))).toBe(false);
    expect(inQuietHours(day, at("2026-11-22T12:00:00Z"))).toBe(true);
    expect(inQuietHours({ quietHours: QUIET_22_07 }, at("2026-11-22T23:00:00Z"))).toBe(false);
    expect(
      inQuietHours({ timeZone: "Mars/Olympus_Mons", quietHours: QUIET_22_07 }, at("2026-11-22T23:00:00Z")),
    ).toBe(false);
  });

  it("profiles written with the old switches read as modes", () => {
    expect(readNotifications({ alerts: false, orders: true })).toEqual({
      alerts: "off",
      orders: "on",
      expiry: "on",
      digest: "off",
    });
    expect(readNotifications({ alerts: "silent", digest: "on", expiry: "loud" })).toEqual({
      alerts: "silent",
      orders: "on",
      expiry: "on",
      digest: "on",
    });
    expect(readNotifications(undefined).alerts).toBe("on");
  });
});

describe("notifications through the bot", () => {
  let h: Harness;
  let jobs: BackgroundJobs;
  const timers = new ManualTimers(HARNESS_EPOCH);

  beforeAll(async () => {
    // The operator's market-data account: prices stay readable through the night without a login.
    h = await startHarness({ marketData: true });
    jobs = jobsOnTimers(h, timers);
  });
  afterAll(async () => {
    await jobs.stop();
    await h.stop();
  });

  /** The messages Telegram was asked to send to this user, with their parameters. */
  const sent = (user: FakeUser) =>
    h.telegram.calls.filter((c) => c.method === "sendMessage" && c.chatId === user.id && c.ok);

  /** A notice as the jobs raise it (an order's outcome with `always`, as reconciliation does), delivered. */
  async function notifyNow(user: FakeUser, kind: NoticeKind, text: string): Promise<void> {
    await jobs.notifier.notify({
      userId: user.id,
      kind,
      always: kind === "orders",
      render: () => ({ text }),
    });
    await drainQueue(jobs.notifier.queue, timers);
  }

  async function setAlert(user: FakeUser, args: string): Promise<void> {
    await user.send(`/alert ${args}`);
    await user.waitForReply(/Alert set|Alarm gesetzt/);
  }

  async function tick(): Promise<void> {
    await jobs.tick();
    await drainQueue(jobs.notifier.queue, timers);
  }

  /** Moves the shared clock to an instant (forward only) and lets the feed's cache run out. */
  function moveClockTo(iso: string): void {
    const target = Date.parse(iso);
    expect(target).toBeGreaterThanOrEqual(h.clock.now());
    h.clock.advance(target - h.clock.now());
  }

  async function priceTo(currency: string, price: string): Promise<void> {
    h.sandbox.setPrice(currency, price);
    h.clock.advance(11_000);
    await tick();
  }

  async function openNotifications(user: FakeUser, title: RegExp) {
    await user.send("/settings");
    await user.waitForReply(title);
    await user.tap(/^🔔 (Notifications|Benachrichtigungen)/);
    return user.waitForReply((m) => m.edited && /Quiet hours|Ruhezeit/.test(m.text));
  }

  it("per kind on, silent or off, as Telegram receives it", async () => {
    const ada = h.user();
    const kinds: NoticeKind[] = [...NOTIFY_KINDS];
    for (const kind of kinds) {
      for (const mode of NOTIFY_MODES) {
        await h.deps.profiles.update(ada.id, (p) => ({
          ...p,
          notifications: { ...p.notifications, [kind]: mode },
        }));
        const before = sent(ada).length;
        const outcome = await jobs.notifier.notify({
          userId: ada.id,
          kind,
          render: () => ({ text: `${kind} ${mode}` }),
        });
        await drainQueue(jobs.notifier.queue, timers);
        const now = sent(ada).slice(before);
        if (mode === "off") {
          expect(outcome).toBe("off");
          expect(now).toHaveLength(0);
          continue;
        }
        expect(now.map((c) => c.payload.text)).toEqual([`${kind} ${mode}`]);
        expect(now[0]?.payload.disable_notification).toBe(mode === "silent" ? true : undefined);
      }
    }
    // Kinds the user does not control always ring, whatever the switches say.
    await h.deps.profiles.update(ada.id, (p) => ({
      ...p,
      notifications: { alerts: "off", orders: "off", expiry: "off", digest: "off" },
    }));
    // An order whose fate the user did not know goes out even with order updates off.
    await notifyNow(ada, "account", "logged out");
    await notifyNow(ada, "orders", "placed");
    expect(
      sent(ada)
        .slice(-2)
        .map((c) => [c.payload.text, c.payload.disable_notification]),
    ).toEqual([
      ["logged out", undefined],
      ["placed", undefined],
    ]);
  });

  it("the menu sets each mode with a tap (the button names the mode it shows), and a fired alert arrives silent", async () => {
    const ada = h.user();
    const menu = await openNotifications(ada, /Settings/);
    expect(menu.buttons.flat()).toEqual(
      expect.arrayContaining([
        "🔔 Price alerts: on",
        "🔔 Order updates: on",
        "🔔 Expiry warnings: on",
        "⛔ Daily digest: off",
        "✓ 🌙 No quiet hours",
      ]),
    );
    await ada.tap("🔔 Price alerts: on", menu);
    const silent = await ada.waitForReply(
      (m) => m.edited && m.buttons.flat().includes("🔕 Price alerts: silent"),
    );
    expect(silent.messageId).toBe(menu.messageId);
    expect((await h.deps.profiles.get(ada.id)).notifications.alerts).toBe("silent");
    // A tap on the old button sets the value it carries again, it does not move on.
    await ada.tapData(menu.messageId, "set:n:alerts:s");
    await ada.waitForCall("answerCallbackQuery");
    expect((await h.deps.profiles.get(ada.id)).notifications.alerts).toBe("silent");

    await setAlert(ada, "btc above 70000");
    const before = sent(ada).length;
    await priceTo("btc", "70500");
    const fired = sent(ada).slice(before);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.payload.text).toMatch(/BTC/);
    expect(fired[0]?.payload.disable_notification).toBe(true);

    await ada.tap("🔕 Price alerts: silent", menu);
    await ada.waitForReply((m) => m.edited && m.buttons.flat().includes("⛔ Price alerts: off"));
    expect((await h.deps.profiles.get(ada.id)).notifications.alerts).toBe("off");
    await priceTo("btc", "60000");
    await priceTo("btc", "71000");
    expect(sent(ada).slice(before + 1)).toHaveLength(0);
  });

  it("a muted night: alerts held, money outcomes and security notices at once, the held ones merged once after quiet hours, across a restart", async () => {
    h.sandbox.setPrice("btc", "60000");
    h.sandbox.setPrice("eth", "3000");
    const eva = h.user();
    await setAlert(eva, "btc above 65000");
    await setAlert(eva, "eth below 2500");

    // Quiet hours are the user's own: the first choice asks the time zone (flows/time-zone.ts).
    // Until then the menu's hours are UTC, and it says so and how to set a zone.
    const unzoned = await openNotifications(eva, /Settings/);
    expect(unzoned.text).toContain("☀️ Digest at: 08:00 UTC");
    expect(unzoned.text).toMatch(
      /Time zone: not set yet, so the hours here are UTC\..*\/notifications zone Berlin/,
    );
    await eva.tap("🌙 22:00–07:00");
    await eva.waitForReply(/Which time zone/);
    await eva.send("Atlantis");
    await eva.waitForReply(/don't know that time zone/);
    await eva.send("Berlin");
    expect((await eva.waitForReply(/Time zone: Europe\/Berlin/)).text).toContain("UTC+01:00");
    const menu = await eva.waitForReply(/Quiet hours: 22:00–07:00/);
    expect(menu.buttons.flat()).toContain("✓ 🌙 22:00–07:00");
    // Every hour the menu shows is named with the zone it is read in.
    expect(menu.text).toContain("🌙 Quiet hours: 22:00–07:00 (Europe/Berlin)");
    expect(menu.text).toContain("☀️ Digest at: 08:00 (Europe/Berlin)");

    moveClockTo("2026-11-22T22:30:00Z"); // 23:30 in Berlin
    const before = sent(eva).length;
    await priceTo("btc", "66000");
    await priceTo("eth", "2400");
    expect(sent(eva).length).toBe(before);
    expect(await h.deps.store.indexMembers("held:users")).toContain(String(eva.id));
    // Kept sealed, like conversation state: the store holds Vault tokens, not the words.
    const heldKeys = (await h.deps.store.indexMembers(`held:${eva.id}`)).map((id) => `held:${eva.id}:${id}`);
    expect(heldKeys).toHaveLength(2);
    for (const sealed of await h.deps.store.getMany<string>(heldKeys)) {
      expect(sealed).toMatch(/^v1\./);
      expect(sealed).not.toContain("BTC");
    }

    // Never held: security notices and money outcomes ring at once, in the night.
    await notifyNow(eva, "security", "🛡 New login");
    await notifyNow(eva, "orders", "🎉 Your order completed.");
    // The offer to stay logged in cannot wait for the morning: it comes, without a sound.
    await notifyNow(eva, "expiry", "⏳ Your session ends at 23:59.");
    const night = sent(eva).slice(before);
    expect(night.map((c) => [c.payload.text, c.payload.disable_notification])).toEqual([
      ["🛡 New login", undefined],
      ["🎉 Your order completed.", undefined],
      ["⏳ Your session ends at 23:59.", true],
    ]);

    // The bot restarts in the night: the held notices are in the store, not in the process.
    await jobs.stop();
    await h.restartBot();
    jobs = jobsOnTimers(h, timers);

    moveClockTo("2026-11-23T05:59:00Z"); // 06:59
    await tick();
    expect(sent(eva).length).toBe(before + 3);

    // By the morning the price has moved on: the held alert says where it crossed and where it is now.
    h.sandbox.setPrice("btc", "64000");
    moveClockTo("2026-11-23T06:00:00Z"); // 07:00: quiet hours are over
    await tick();
    const morning = sent(eva).slice(before + 3);
    expect(morning).toHaveLength(1);
    const merged = String(morning[0]?.payload.text);
    expect(merged).toMatch(/^🌙 While your quiet hours ran \(2 messages\):/);
    expect(merged).toMatch(/23:30 \(Europe\/Berlin\) · .*BTC.*above/s);
    expect(merged).toMatch(/23:30 \(Europe\/Berlin\) · .*ETH.*below/s);
    expect(merged.indexOf("BTC")).toBeLessThan(merged.indexOf("ETH"));
    expect(merged).toContain("BTC) reached €65,000.00 (at or above): €66,000.00");
    expect(merged).toContain(
      "⏱ Held during your quiet hours: it crossed at €66,000.00; now it is €64,000.00.",
    );
    expect(morning[0]?.payload.disable_notification).toBeUndefined();

    // Delivered once: later ticks find nothing held.
    await tick();
    await tick();
    expect(sent(eva).length).toBe(before + 4);
    expect(await h.deps.store.indexMembers(`held:${eva.id}`)).toEqual([]);
  });

  it("a change of time zone during quiet hours moves their end; one held notice keeps its buttons (German)", async () => {
    h.sandbox.setPrice("ltc", "80");
    const jan = h.user(undefined, { languageCode: "de" });
    await setAlert(jan, "ltc above 90");
    await openNotifications(jan, /Einstellungen/);
    await jan.tap("🌙 23:00–07:00");
    await jan.waitForReply(/Zeitzone/);
    await jan.send("Berlin");
    const menu = await jan.waitForReply(/Ruhezeit: 23:00–07:00/);
    expect(menu.buttons.flat()).toContain("✓ 🌙 23:00–07:00");

    moveClockTo("2026-11-24T04:00:00Z"); // 05:00 in Berlin
    const before = sent(jan).length;
    await priceTo("ltc", "95");
    expect(sent(jan).length).toBe(before);

    // The user moves to New York (now 23:00 there): still night, so the notice keeps waiting.
    await jan.tap("🌍 Zeitzone ändern", menu);
    await jan.waitForReply(/Zeitzone/);
    await jan.send("New York");
    await jan.waitForReply(/Ruhezeit: 23:00–07:00/);
    expect((await h.deps.profiles.get(jan.id)).timeZone).toBe("America/New_York");
    moveClockTo("2026-11-24T06:00:00Z"); // 07:00 in Berlin, 01:00 in New York
    await tick();
    const fired = () =>
      sent(jan).filter((c) => /\(LTC\) hat .* erreicht \(gleich oder darüber\)/.test(String(c.payload.text)));
    expect(fired()).toEqual([]);

    moveClockTo("2026-11-24T12:00:00Z"); // 07:00 in New York
    await tick();
    const released = fired();
    expect(released).toHaveLength(1);
    // Alone, it goes out with its own words and its button, and the price by now.
    expect(String(released[0]?.payload.text)).toContain(
      "⏱ Während deiner Ruhezeit zurückgehalten: Ausgelöst bei 95,00\u00a0€, jetzt 95,00\u00a0€.",
    );
    expect(JSON.stringify(released[0]?.payload.reply_markup)).toContain("Alarm");

    // The next night two are held: merged under a German header (the alerts' language).
    moveClockTo("2026-11-25T05:00:00Z"); // 00:00 in New York
    for (const text of ["eins", "zwei"]) {
      await jobs.notifier.notify({ userId: jan.id, kind: "alerts", locale: "de", render: () => ({ text }) });
    }
    moveClockTo("2026-11-25T12:00:00Z"); // 07:00 in New York
    await tick();
    const merged = sent(jan).at(-1);
    expect(merged?.payload.text).toBe(
      "🌙 Während deiner Ruhezeit (2 Nachrichten):\n\n00:00 (America/New York) · eins\n\n00:00 (America/New York) · zwei",
    );
  });

  it("the daily digest at the user's hour, once a day, held by quiet hours like alerts", async () => {
    h.sandbox.setPrice("eth", "3000");
    const max = h.user();
    await setAlert(max, "eth above 3100");
    await openNotifications(max, /Settings/);
    await max.tap("⛔ Daily digest: off");
    await max.waitForReply(/Which time zone/);
    await max.send("UTC+2");
    const menu = await max.waitForReply(/Digest at: 08:00/);
    expect(menu.buttons.flat()).toContain("☀️ Daily digest: on");
    await max.tap("☀️ 09:00", menu);
    await max.waitForReply((m) => m.edited && m.text.includes("Digest at: 09:00"));

    moveClockTo("2026-11-27T05:00:00Z"); // 07:00 at +02:00
    await priceTo("eth", "3200"); // the alert fires (and rings: no quiet hours)
    // An order of the day that settled (the one Ledger, as the pipeline leaves it).
    const ledger = h.deps.orders.ledger;
    const order = await ledger.quote({ userId: max.id, ...draftOf("buy", "btc", "50") });
    await ledger.confirm(order.id, max.id);
    await ledger.markSent(order.id);
    await ledger.markSettled(order.id, "success");
    const before = sent(max).length;
    moveClockTo("2026-11-27T06:59:00Z"); // 08:59
    await tick();
    expect(sent(max).length).toBe(before);
    moveClockTo("2026-11-27T07:00:00Z"); // 09:00
    await tick();
    await tick();
    const digests = sent(max).filter((c) => /Your daily digest/.test(String(c.payload.text)));
    expect(digests).toHaveLength(1);
    const text = String(digests[0]?.payload.text);
    expect(text).toMatch(/ETH\): €3,200\.00/);
    expect(text).toContain("Alerts that fired: 1");
    expect(text).toMatch(/ETH above €3,100\.00 · €3,200\.00 · 07:00/);
    expect(text).toContain("Orders that settled: 1");
    expect(text).toMatch(/• .*BTC.* · 07:00/);
    // What the user traded is among the prices watched.
    expect(text).toMatch(/Bitcoin \(BTC\): €/);

    // The next day's digest comes the next day, not before.
    moveClockTo("2026-11-28T06:30:00Z"); // 08:30
    await tick();
    expect(sent(max).filter((c) => /Your daily digest/.test(String(c.payload.text)))).toHaveLength(1);
    moveClockTo("2026-11-28T07:10:00Z"); // 09:10
    await tick();
    const second = sent(max).filter((c) => /Your daily digest/.test(String(c.payload.text)));
    expect(second).toHaveLength(2);
    expect(String(second[1]?.payload.text)).toContain("Alerts that fired: 0");
  });
});
