/**
 * Nothing goes unanswered (SECURITY.md, Reliability): a button nobody handles is answered (private
 * chat, group, inline message), and outside a flow an unknown command or stray text in a private
 * chat gets one sentence pointing to /help, with a close match when there is one. Groups stay quiet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closestCommand, MENU_COMMANDS, PARTNER_MENU_COMMANDS } from "../../src/bot/commands.ts";
import { DEFAULT_GROUP_ID } from "../support/chat.ts";
import { type Harness, startHarness } from "../support/harness.ts";

describe("unanswered updates", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers a tap on a button nobody knows, in a private chat", async () => {
    const ada = h.user();
    await ada.send("/help");
    const help = await ada.waitForReply();
    const id = await ada.tapData(help.messageId, "from-an-old-version:42");
    const answer = await ada.waitForCall("answerCallbackQuery", (c) => c.payload.callback_query_id === id);
    expect(answer.payload.text).toBe("This button is no longer active.");
  });

  it("answers a tap on an inline message's unknown button", async () => {
    const ada = h.user();
    const id = h.telegram.world.queryId();
    h.telegram.world.callbackQueries.set(id, { userId: ada.id, chatId: undefined, answered: false });
    h.telegram.pushUpdate({
      callback_query: { id, from: ada.from, inline_message_id: "im-1", chat_instance: "1", data: "forged" },
    });
    const answer = await h.telegram.waitForCall(
      "answerCallbackQuery",
      (c) => c.payload.callback_query_id === id,
    );
    expect(answer.payload.text).toBe("This button is no longer active.");
  });

  it("suggests the close command for a typo, and points to /help for an unknown one", async () => {
    const ada = h.user();
    await ada.send("/balanse");
    expect((await ada.waitForReply()).text).toBe(
      "I do not know /balanse. Did you mean /balance? Send /help for the list.",
    );
    await ada.send("/master");
    expect((await ada.waitForReply()).text).toBe("I do not know that command. Send /help for the list.");
    await ada.send("hello there");
    expect((await ada.waitForReply()).text).toMatch(/did not understand.*\/help/);
  });

  it("deletes six digits typed outside any flow (a code or PIN whose step has ended) and says so", async () => {
    const cy = h.user();
    const typed = await cy.send("482 913");
    expect((await cy.waitForReply()).text).toMatch(/looked like a code or PIN, so I deleted it/);
    expect(cy.deletedMessageIds()).toContain(typed.message_id);
  });

  it("speaks German to a German user", async () => {
    const bea = h.user(undefined, { languageCode: "de" });
    await bea.send("/pirces");
    expect((await bea.waitForReply()).text).toMatch(/Meintest du \/prices\?/);
  });

  it("leaves text inside a flow to the flow", async () => {
    const ada = h.user();
    await ada.send("/login");
    await ada.waitForReply(/e-mail/);
    await ada.send("/balanse");
    expect((await ada.waitForReply()).text).toMatch(/in the middle of something|middle/i);
    await ada.send("/cancel");
    await ada.waitForReply();
    await h.telegram.waitUntilIdle({ quietMs: 200 });
    expect(ada.messages().some((m) => /Did you mean/.test(m.text))).toBe(false);
  });

  it("stays quiet about chatter in a group", async () => {
    const ada = h.user();
    await ada.sendInGroup("hello everyone");
    await ada.sendInGroup("/help");
    const redirect = await h.telegram.waitForCall("sendMessage", (c) => c.chatId === DEFAULT_GROUP_ID);
    expect(redirect.payload.text).toMatch(/private chat/);
    await h.telegram.waitUntilIdle({ quietMs: 200 });
    const said = h.telegram.calls.filter((c) => c.method === "sendMessage" && c.chatId === DEFAULT_GROUP_ID);
    expect(said).toHaveLength(1);
  });
});

describe("closestCommand", () => {
  const known = Object.keys(MENU_COMMANDS);
  it("finds one- and two-letter typos, and nothing for a different word", () => {
    expect(closestCommand("balanse", known)).toBe("balance");
    expect(closestCommand("HELP", known)).toBe("help");
    expect(closestCommand("withdrwa", known)).toBe("withdraw");
    expect(closestCommand("master", known)).toBeUndefined();
    expect(closestCommand("xyz", known)).toBeUndefined();
  });

  it("suggests only what it is given (each mode gives its own: test/bot/known-commands.test.ts)", () => {
    const partner = Object.keys(PARTNER_MENU_COMMANDS);
    expect(closestCommand("verfy", partner)).toBe("verify");
    expect(closestCommand("verfy", known)).toBeUndefined();
    expect(closestCommand("sendd", known)).toBe("send");
    expect(closestCommand("sendd", partner)).toBeUndefined();
    expect(closestCommand("mastr", partner)).toBeUndefined();
  });
});
