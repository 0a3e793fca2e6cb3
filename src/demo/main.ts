/**
 * `npm run demo`: the whole bot in the terminal (app.ts). You type as the Telegram user; the bot's
 * messages are printed with numbered buttons, its pictures and files written to a folder. No
 * Telegram token, no exchange account. Ctrl-C leaves as `:quit` does: "Bye.", the temporary store
 * removed, exit status 0.
 */
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createLogger } from "../support/logger.ts";
import { startDemo } from "./app.ts";
import { DEMO_FILES_DIR, DemoFiles } from "./files.ts";
import { DemoTerminal } from "./terminal.ts";

async function main(): Promise<void> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  // In a terminal readline keeps the line being typed, so a message arriving meanwhile is printed
  // above it and the line drawn again (terminal.ts); piped input is read as it comes.
  const lines = createInterface({
    input: process.stdin,
    ...(interactive ? { output: process.stdout, prompt: "you> ", terminal: true } : { terminal: false }),
  });
  // Lines as they come (piped input comes all at once, while the demo still starts), handled one
  // after the other.
  const queued: string[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const next = async (): Promise<string | undefined> => {
    while (queued.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
    return queued.shift();
  };
  lines.on("line", (line) => {
    queued.push(line);
    wake?.();
  });
  let quitting = false;
  const quit = () => {
    // A second Ctrl-C while leaving does not wait for the bot to stop.
    if (quitting) process.exit(130);
    quitting = true;
    queued.length = 0;
    queued.push(":quit");
    wake?.();
  };
  lines.on("close", () => {
    closed = true;
    wake?.();
  });
  // Ctrl-C: readline reads it as a key in a terminal; piped, or from `kill -INT`, it is a signal.
  lines.on("SIGINT", quit);
  process.on("SIGINT", quit);
  const terminal = new DemoTerminal(process.stdout, interactive, interactive ? lines : undefined);
  const files = new DemoFiles(process.env.DEMO_FILES_DIR ?? join(process.cwd(), DEMO_FILES_DIR));
  files.prepare();
  const log = createLogger((process.env.LOG_LEVEL as "warn" | undefined) ?? "warn", process.stderr);
  const demo = await startDemo({
    partner: process.argv.includes("--partner"),
    files,
    firstName: process.env.USER ?? "Demo",
    languageCode: process.env.DEMO_LANGUAGE ?? "en",
    ...(process.env.DEMO_WEBAPP_PORT ? { webAppPort: Number(process.env.DEMO_WEBAPP_PORT) } : {}),
    log,
    say: (text) => terminal.say(text),
    out: (text) => terminal.out(text),
  });
  for (const line of demo.banner) terminal.out(line);

  terminal.prompt();
  for (let raw = await next(); raw !== undefined; raw = await next()) {
    const line = raw.trim();
    terminal.typed(line);
    if (line === ":quit" || line === ":q") break;
    try {
      await demo.handle(line);
    } catch (error) {
      terminal.out(`(demo) ${error instanceof Error ? error.message : String(error)}`);
    }
    terminal.prompt();
  }
  // Ctrl-C at the prompt leaves the cursor after "you> ".
  if (quitting && interactive) terminal.out();
  lines.close();
  // Closing readline does not close a terminal's stdin, which would keep the process alive.
  process.stdin.destroy();
  terminal.out("Bye.");
  await demo.close();
}

await main();
