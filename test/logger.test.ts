import { Writable } from "node:stream";
import { Api, GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/support/logger.ts";
import { startBotApiDouble } from "../src/telegram-double/index.ts";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: createLogger("debug", stream), text: () => lines.join("") };
}

const TOKEN = "123456789:AAH-secret_TOKEN-part-do-not-log";

describe("the logger keeps secrets out of log lines", () => {
  it("cuts the bot token out of a failed Bot API call's HttpError (its URL holds the token)", async () => {
    const { log, text } = capture();
    // A closed port: the fetch fails and grammY wraps it in an HttpError naming the URL.
    const api = new Api(TOKEN, { apiRoot: "http://127.0.0.1:9" });
    const error = await api.sendMessage(1, "hello").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    log.error({ err: error }, "send failed");
    expect(text()).toContain("send failed");
    expect(text()).not.toContain("secret_TOKEN");
  });

  it("leaves out a GrammyError's payload (the text the bot tried to send), keeps what helps", async () => {
    const telegram = await startBotApiDouble({ token: TOKEN });
    try {
      const api = new Api(TOKEN, { apiRoot: telegram.apiRoot });
      const error = await api.sendMessage(1, "IBAN DE89370400440532013000 of Ada").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GrammyError);
      const { log, text } = capture();
      log.warn({ err: error }, "reply failed");
      expect(text()).not.toContain("DE89370400440532013000");
      expect(text()).not.toContain("secret_TOKEN");
      expect(JSON.parse(text())).toMatchObject({ err: { type: "GrammyError", method: "sendMessage" } });
    } finally {
      await telegram.close();
    }
  });

  it("redacts secrets logged under their usual names", () => {
    const { log, text } = capture();
    log.info(
      { password: "hunter2", user: { securityCode: "123456", totpSecret: "JBSWY3DPEHPK3PXP" }, token: "tok" },
      "oops",
    );
    for (const secret of ["hunter2", "123456", "JBSWY3DPEHPK3PXP", '"tok"'])
      expect(text()).not.toContain(secret);
  });
});
