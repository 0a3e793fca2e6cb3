import { createInterface } from "node:readline";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { DemoTerminal } from "../../src/demo/terminal.ts";

function screen(interactive: boolean) {
  let text = "";
  const terminal = new DemoTerminal({ write: (chunk: string) => (text += chunk) }, interactive);
  return { terminal, text: () => text };
}

describe("the demo's terminal", () => {
  it("puts a message the bot starts itself on a line of its own and draws the prompt again", () => {
    const { terminal, text } = screen(true);
    terminal.prompt();
    terminal.say("bot> 🎉 Your order completed.");
    expect(text()).toBe("you> \nbot> 🎉 Your order completed.\nyou> ");
  });

  it("prints an answer to a typed line right after it, then one prompt", () => {
    const { terminal, text } = screen(true);
    terminal.prompt();
    terminal.typed("/start");
    terminal.say("bot> Welcome");
    terminal.prompt();
    expect(text()).toBe("you> bot> Welcome\nyou> ");
  });

  it("echoes piped lines and never prints a prompt without a terminal", () => {
    const { terminal, text } = screen(false);
    terminal.prompt();
    terminal.typed("/start");
    terminal.say("bot> Welcome");
    terminal.prompt();
    terminal.say("bot> 🔔 BTC crossed 65,000");
    expect(text()).toBe("you> /start\nbot> Welcome\nbot> 🔔 BTC crossed 65,000\n");
  });
});

describe("the demo's terminal, with readline keeping the typed line", () => {
  /** A terminal-like stream pair: what readline draws is collected, keys are written in. */
  function typing() {
    const input = new PassThrough();
    let text = "";
    const output = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          text += String(chunk);
          done();
        },
      }),
      { isTTY: true, columns: 80, rows: 24 },
    );
    const rl = createInterface({ input, output, prompt: "you> ", terminal: true });
    const terminal = new DemoTerminal(output, true, rl);
    return { input, rl, terminal, text: () => text, clear: () => (text = "") };
  }

  it("prints a notice that arrives while a line is half typed above it, and draws the line again", async () => {
    const { input, rl, terminal, text, clear } = typing();
    try {
      terminal.prompt();
      input.write("/bal");
      await new Promise((resolve) => setImmediate(resolve));
      clear();
      terminal.say("bot> 🔔 Bitcoin (BTC) is above €66,000.00");
      // The prompt line is cleared, the notice printed on its own line, the typed text drawn again.
      expect(text()).toContain("\r\x1b[Kbot> 🔔 Bitcoin (BTC) is above €66,000.00\n");
      expect(text().split("\n").at(-1)).toContain("you> /bal");
      const line = new Promise<string>((resolve) => rl.once("line", resolve));
      input.write("ance\r");
      expect(await line).toBe("/balance");
    } finally {
      rl.close();
    }
  });

  it("does the same for a line typed ahead while the demo still works on the one before", async () => {
    const { input, rl, terminal, text, clear } = typing();
    try {
      terminal.prompt();
      input.write("/buy btc 100\r");
      await new Promise((resolve) => setImmediate(resolve));
      terminal.typed("/buy btc 100");
      input.write("#1");
      await new Promise((resolve) => setImmediate(resolve));
      clear();
      terminal.say("bot #5> 🧾 Buy BTC: your quote");
      expect(text()).toContain("\r\x1b[Kbot #5> 🧾 Buy BTC: your quote\n");
      expect(text().split("\n").at(-1)).toContain("you> #1");
    } finally {
      rl.close();
    }
  });
});
