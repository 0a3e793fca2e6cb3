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
