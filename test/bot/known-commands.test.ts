/**
 * What a private chat understands is what its features register (bot/runtime/feature-router.ts records each
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

/** Each mode: what its features register, who talks to it, and its typos with their answers. */
const MODES = [
  {
    mode: "account" as const,
    // The menu, in menu order, then the short forms the features register (/alert, /tx), /unfreeze,
    // and /notifications (in account mode a part of /settings).
    known: [...Object.keys(MENU_COMMANDS), "alert", "tx", "notifications", "unfreeze"],
    user: async (h: Harness) => h.user(),
    // /verfy is partner mode's.
    typos: { "/sendd": didYouMean("/sendd", "/send"), "/verfy": NOT_KNOWN },
  },
  {
    mode: "partner" as const,
    known: [...Object.keys(PARTNER_MENU_COMMANDS), "tx", "unfreeze"],
    user: (h: Harness) => h.partnerUser(),
    // No /send here; /master is the operator desk's, suggested to nobody.
    typos: { "/verfy": didYouMean("/verfy", "/verify"), "/sendd": NOT_KNOWN, "/mastr": NOT_KNOWN },
  },
];

describe.each(MODES)("the known commands, $mode mode", ({ mode, known, user, typos }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("are the commands its features register, menu first; none of the operator desk's", () => {
    expect(knownCommandsOf(h.bot)).toEqual(known);
    for (const command of OPERATOR_COMMANDS) expect(knownCommandsOf(h.bot)).not.toContain(command);
  });

  it("are each taken by a feature: none is answered as unknown", async () => {
    expect(await answeredUnknown(() => user(h), knownCommandsOf(h.bot))).toEqual([]);
  });

  it("are what a typo is matched against", async () => {
    expect(await answersTo(await user(h), Object.keys(typos))).toEqual(Object.values(typos));
  });
});
