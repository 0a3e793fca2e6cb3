/**
 * The demo's terminal: the "you> " prompt and the lines the bot prints. In a terminal the bot may
 * speak while the prompt waits for a line (an alert, an order that settled): that message goes on
 * a line of its own and the prompt is drawn again after it, instead of landing after "you> ".
 * Piped input (no terminal) gets no prompt; each typed line is echoed instead, so a transcript
 * reads in order.
 *
 * @example
 * const term = new DemoTerminal(process.stdout, process.stdin.isTTY === true);
 * term.prompt(); … term.say("bot> Hello"); … term.typed(line);
 */
export interface Writable {
  write(text: string): unknown;
}

export class DemoTerminal {
  readonly #output: Writable;
  readonly #interactive: boolean;
  #atPrompt = false;

  constructor(output: Writable, interactive: boolean) {
    this.#output = output;
    this.#interactive = interactive;
  }

  /** A line of the demo's own (help, banners): printed as it is. */
  out(text = ""): void {
    this.#output.write(`${text}\n`);
  }

  /** Waits for the user's next line: "you> " in a terminal, nothing when input is piped. */
  prompt(): void {
    if (!this.#interactive) return;
    this.#output.write("you> ");
    this.#atPrompt = true;
  }

  /** The user entered a line: the prompt is no longer showing (piped lines are echoed). */
  typed(line: string): void {
    this.#atPrompt = false;
    if (!this.#interactive && line) this.out(`you> ${line}`);
  }

  /** What the bot says; when it comes while the prompt waits, off the prompt line and redrawn. */
  say(text: string): void {
    if (!this.#atPrompt) {
      this.out(text);
      return;
    }
    this.#atPrompt = false;
    this.out(`\n${text}`);
    this.prompt();
  }
}
