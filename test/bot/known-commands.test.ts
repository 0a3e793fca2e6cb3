/**
 * What a private chat understands is what its features register (feature-router.ts records each
 * feature's commands; bot.ts derives the list from them): the typo suggestion offers exactly those,
 * in each mode, and every one of them is really taken by a feature, never answered "unknown".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownCommandsOf } from "../../src/bot/bot.ts";
import { MENU_COMMANDS, OPERATOR_COMMANDS, PARTNER_MENU_COMMANDS } from "../../src/bot/commands.ts";
import type { FakeUser } from "../../src/telegram-double/fake-user.ts";
import { type Harness, startHarness } from "../support/harness.ts";

const UNKNOWN = /^I do not know/;

const NOT_KNOWN = "I do not know that command. Send /help for the list.";
const didYouMean = (typed: string, known: string) =>
  `I do not know ${typed}. Did you mean ${known}? Send /help for the list.`;

/** What the bot answers to each of `typed`, sent one after the other by `user`. */
async function answersTo(user: FakeUser, typed: readonly string[]): Promise<string[]> {
  const answers: string[] = [];
  for (const text of typed) {
    await user.send(text);
    answers.push((await user.waitForReply()).text ?? "");
  }
  return answers;
}

/** Sends each command from a fresh chat and returns the ones answered as unknown. */
async function answeredUnknown(user: () => Promise<FakeUser>, commands: readonly string[]) {
  const unknown: string[] = [];
  for (const command of commands) {
    const chat = await user();
    await chat.send(`/${command}`);
    const reply = await chat.waitForReply();
    if (UNKNOWN.test(reply.text ?? "")) unknown.push(command);
  }
  return unknown;
}

describe("the known commands, account mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("are the menu, in menu order, then the short forms the features register (/alert, /tx)", () => {
    expect(knownCommandsOf(h.bot)).toEqual([...Object.keys(MENU_COMMANDS), "alert", "tx"]);
  });

  it("are each taken by a feature: none is answered as unknown", async () => {
    expect(await answeredUnknown(async () => h.user(), knownCommandsOf(h.bot))).toEqual([]);
  });

  it("are what a typo is matched against: /sendd suggests /send, /verfy (partner mode's) nothing", async () => {
    expect(await answersTo(h.user(), ["/sendd", "/verfy"])).toEqual([
      didYouMean("/sendd", "/send"),
      NOT_KNOWN,
    ]);
  });
});

describe("the known commands, partner mode", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode: "partner" });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("are partner mode's menu then /tx; the operator desk's commands are not among them", () => {
    const known = knownCommandsOf(h.bot);
    expect(known).toEqual([...Object.keys(PARTNER_MENU_COMMANDS), "tx"]);
    for (const command of OPERATOR_COMMANDS) expect(known).not.toContain(command);
  });

  it("are each taken by a feature: none is answered as unknown", async () => {
    expect(await answeredUnknown(() => h.partnerUser(), knownCommandsOf(h.bot))).toEqual([]);
  });

  it("suggest /verify for /verfy, nothing for /sendd (no /send here) or /mastr (the desk's)", async () => {
    expect(await answersTo(await h.partnerUser(), ["/verfy", "/sendd", "/mastr"])).toEqual([
      didYouMean("/verfy", "/verify"),
      NOT_KNOWN,
      NOT_KNOWN,
    ]);
  });
});
