/**
 * The examples a screen gives are what a user may type, in the user's language: /fees's usage in
 * German names the kinds in German (the words its buttons carry), and each example works as
 * shown; the currency prompts give a code as the buttons show it (BTC), which works typed too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../support/harness.ts";

describe("examples that work as typed", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  for (const locale of ["de", "en"] as const) {
    it(`/fees's examples in ${locale} are its own words and each gives a fee`, async () => {
      const user = await h.loggedInUser(undefined, { languageCode: locale });
      await user.send("/fees");
      const usage = (await user.waitForReply()).text;
      const examples = [...usage.matchAll(/^(\/fees [^–]+?) –/gm)].map((m) => m[1] ?? "");
      expect(examples).toHaveLength(3);
      if (locale === "de") {
        expect(examples.join(" ")).not.toMatch(/\b(buy|sell|send)\b/);
      }
      await user.send("/cancel");
      await user.waitForReply();
      for (const example of examples) {
        await user.send(example);
        expect((await user.waitForReply()).text).toMatch(/^🧾/);
      }
    });
  }

  it("/price's prompt gives the code as its buttons show it, and that code works typed", async () => {
    const user = await h.loggedInUser(undefined, { languageCode: "de" });
    await user.send("/price");
    const ask = await user.waitForReply();
    expect(ask.text).toContain("(z. B. BTC oder Bitcoin)");
    await user.send("BTC");
    expect((await user.waitForReply()).text).toMatch(/Bitcoin/);
  });
});

describe("the operator desk's examples, as typed in German", () => {
  const OPERATOR = 777_101;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner", partner: { operatorIds: [OPERATOR] } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("/master alert's usage names the German word for off, and it works", async () => {
    const desk = h.user(OPERATOR, { languageCode: "de" });
    await desk.send("/master alert eur 1000");
    await desk.waitForReply();
    await desk.send("/master alert eur");
    const usage = (await desk.waitForReply()).text;
    const example = /\(oder (\/master alert eur \S+)\)/.exec(usage)?.[1];
    expect(example).toBe("/master alert eur aus");
    await desk.send(example ?? "");
    expect((await desk.waitForReply()).text).toMatch(/^🔕 Die Warnung für EUR ist entfernt\./);
  });
});
