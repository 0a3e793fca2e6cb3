/**
 * The demo's terminal: the "you> " prompt and the lines the bot prints. In a terminal the bot may
 * speak while the prompt waits for a line (an alert, an order that settled), even while the user
 * is typing one: that message goes on a line of its own above the prompt, and the prompt is drawn
 * again after it with what was typed so far (the line editor's, as readline keeps it), so a typed
 * line is never split. Piped input (no terminal) gets no prompt; each typed line is echoed
 * instead, so a transcript reads in order.
 *
 * @example
 * const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: "you> " });
 * const term = new DemoTerminal(process.stdout, true, rl);
 * term.prompt(); … term.say("bot> Hello"); … term.typed(line);
 */
export interface Writable {
  write(text: string): unknown;
}

/** What keeps the line being typed (readline's Interface): draws the prompt with it. */
export interface LineEditor {
  prompt(preserveCursor?: boolean): void;
  /** What has been typed so far (also while the demo still works on the line before). */
  readonly line: string;
}

const PROMPT = "you> ";
/** Back to the start of the line and clear it: the prompt and the typed text go, to come back below. */
const CLEAR_LINE = "\r\x1b[K";

export class DemoTerminal {
  readonly #output: Writable;
  readonly #interactive: boolean;
  readonly #editor: LineEditor | undefined;
  #atPrompt = false;

  constructor(output: Writable, interactive: boolean, editor?: LineEditor) {
    this.#output = output;
    this.#interactive = interactive;
    this.#editor = editor;
  }

  /** A line of the demo's own (help, banners): printed as it is. */
  out(text = ""): void {
    this.#output.write(`${text}\n`);
  }

  /** Waits for the user's next line: "you> " in a terminal, nothing when input is piped. */
  prompt(): void {
    if (!this.#interactive) return;
    if (this.#editor) this.#editor.prompt();
    else this.#output.write(PROMPT);
    this.#atPrompt = true;
  }

  /** The user entered a line: the prompt is no longer showing (piped lines are echoed). */
  typed(line: string): void {
    this.#atPrompt = false;
    if (!this.#interactive && line) this.out(`${PROMPT}${line}`);
  }

  /** What the bot says; when it comes while the prompt waits, above it, and the prompt redrawn. */
  say(text: string): void {
    const typing = this.#atPrompt || (this.#editor !== undefined && this.#editor.line !== "");
    if (!typing) {
      this.out(text);
      return;
    }
    if (this.#editor) {
      this.#output.write(`${CLEAR_LINE}${text}\n`);
      // The prompt and the half-typed line again, the cursor where it was in it.
      this.#editor.prompt(true);
      return;
    }
    this.#atPrompt = false;
    this.out(`\n${text}`);
    this.prompt();
  }
}
