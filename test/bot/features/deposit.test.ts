import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../../../src/telegram-double/index.ts";
import { type Harness, startHarness } from "../../support/harness.ts";

function callbackData(message: SentMessage): string[] {
  return (message.message.reply_markup?.inline_keyboard ?? [])
    .flat()
    .map((button) => ("callback_data" in button ? (button.callback_data ?? "") : ""));
}

describe("/deposit", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  const demoAddresses = () => h.sandbox.state.addressesOf(h.sandbox.seeded.demo);

  it("asks a user who is not logged in to log in", async () => {
    const ada = h.user();
    await ada.send("/deposit");
    const reply = await ada.waitForReply();
    expect(reply.text).toContain("log in");
    expect(reply.buttons.flat()).toContain("🔐 Log in");
  });

  it("lists the addresses as copyable code, with a QR button each and short callback data", async () => {
    const ada = await h.loggedInUser();
    const seeded = demoAddresses()[0];
    expect(seeded).toBeDefined();
    await ada.send("/deposit");
    const list = await ada.waitForReply(/deposit addresses/);
    expect(list.parseMode).toBe("HTML");
    expect(list.source).toContain(`<code>${seeded?.address}</code>`);
    expect(list.text).toContain("Bitcoin");
    const code = list.entities.find((e) => e.type === "code");
    expect(code && list.text.slice(code.offset, code.offset + code.length)).toBe(seeded?.address);
    expect(list.buttons.flat()).toContain("➕ New address");
    const data = callbackData(list);
    for (const d of data) {
      expect(Buffer.byteLength(d)).toBeLessThan(64);
      expect(d).not.toContain(seeded?.address ?? "?");
    }

    await ada.tap(/QR: Bitcoin/);
    const photo = await ada.waitForReply((m) => m.kind === "photo");
    expect(photo.file?.size ?? 0).toBeGreaterThan(100);
    expect(photo.file?.mime ?? "image/png").toMatch(/image|octet/);
    expect(photo.text).toContain(seeded?.address);
  });

  it("makes a new address for a tapped currency and shows it with its QR", async () => {
    const ada = await h.loggedInUser();
    const before = h.sandbox.countRequests("POST", "/v1/addresses");
    await ada.send("/deposit");
    await ada.waitForReply(/deposit addresses/);
    await ada.tap("➕ New address");
    const picker = await ada.waitForReply(/Which currency/);
    expect(picker.buttons.flat()).toEqual(expect.arrayContaining(["BTC", "ETH", "LTC", "XRP", "USDC"]));
    await ada.tap("ETH");
    const photo = await ada.waitForReply((m) => m.kind === "photo");
    const created = demoAddresses().at(-1);
    expect(created?.currency_code).toBe("eth");
    expect(photo.text).toContain(created?.address);
    expect(photo.text).toContain("Ethereum");
    expect(photo.file?.size ?? 0).toBeGreaterThan(100);
    expect(h.sandbox.countRequests("POST", "/v1/addresses")).toBe(before + 1);
    expect(h.sandbox.countRequests("GET", "/v1/assets-status/receive")).toBeGreaterThan(0);

    // The new address is in the list now.
    await ada.send("/deposit");
    const list = await ada.waitForReply(/deposit addresses/);
    expect(list.text).toContain(created?.address);
  });

  it("accepts the currency typed instead of tapped, and a wrong one gets a sentence", async () => {
    const ada = await h.loggedInUser();
    await ada.send("/deposit new");
    await ada.waitForReply(/Which currency/);
    await ada.send("doge");
    const wrong = await ada.waitForReply();
    expect(wrong.text).toContain("I do not know “doge”");
    await ada.send("LTC");
    const photo = await ada.waitForReply((m) => m.kind === "photo");
    const created = demoAddresses().at(-1);
    expect(created?.currency_code).toBe("ltc");
    expect(photo.text).toContain(created?.address);
  });

  it("says that receiving is paused for a closed currency and makes no address", async () => {
    const ada = await h.loggedInUser();
    h.sandbox.faults.closeAsset("receive", "xrp");
    try {
      const before = h.sandbox.countRequests("POST", "/v1/addresses");
      await ada.send("/deposit new xrp");
      const reply = await ada.waitForReply(/paused/);
      expect(reply.text).toContain("XRP");
      expect(h.sandbox.countRequests("POST", "/v1/addresses")).toBe(before);
    } finally {
      h.sandbox.faults.openAsset("receive", "xrp");
    }
  });

  it("answers in German", async () => {
    const ada = await h.loggedInUser(undefined, { languageCode: "de" });
    await ada.send("/deposit");
    const list = await ada.waitForReply(/Einzahlungsadressen/);
    expect(list.buttons.flat()).toContain("➕ Neue Adresse");
  });
});
