/**
 * The demo's own commands, typed with a leading `:` (or `#N` to tap a button), so that they never
 * reach the bot: a 2FA code from the sandbox, moving the sandbox clock and prices, inline queries
 * and group messages.
 *
 * `:advance` moves the clock the way time passes while the bot runs: the background jobs run at
 * each point something is due on the way (a recurring plan's run) and at least every hour, not once
 * at the end. A single jump would look like a bot that was down all that time, and a run found that
 * late is (rightly, after a real outage) recorded as missed.
 */
import Big from "big.js";
import type { Sandbox } from "../sandbox/server.ts";
import type { AdjustableClock } from "../support/clock.ts";
import type { BotApiDouble, FakeUser } from "../telegram-double/index.ts";
import type { Printed } from "./transcript.ts";

export interface DemoCommandContext {
  sandbox: Sandbox;
  telegram: BotApiDouble;
  me: FakeUser;
  clock: AdjustableClock;
  /** How long the market feed caches prices: `:price` moves the clock past it. */
  marketTtlMs?: number;
  /** Runs the bot's background jobs once (alerts, expiry warnings) after time moved. */
  tick(): Promise<void>;
  /** The buttons of message `messageId`, or of the newest message that has any. */
  buttons(messageId?: number): { messageId: number; buttons: NonNullable<Printed["buttons"]> } | undefined;
  /** When the background jobs have something due (recurring plans' next runs), for `:advance`. */
  dueTimes?: () => Promise<number[]>;
  /** Fetches a picture an inline result points to and writes it where the demo keeps files. */
  savePicture?: (url: string, name: string) => Promise<string | undefined>;
  /** A fresh link to the Mini App login page, signed for the demo user (it is good for 15 minutes). */
  webAppLink(): string;
  print(text: string): void;
  /** Partner mode (`--partner`): the demo user's partner user once signed up, for `:kyc` and `:deposit`. */
  partnerUserId?: () => Promise<number | undefined>;
}

export const HELP = [
  "Demo commands (they do not go to the bot):",
  "  :code              a fresh 2FA code from the sandbox's authenticator (:code send types it for you)",
  "  :webapp            a fresh link to the login page, to log in in your browser",
  "  #N                 tap button N of the newest message with buttons",
  "  #M.N               tap button N of message M (a message with buttons shows its number: bot #M>)",
  "  :advance 10m       move the sandbox clock (s, m, h); the bot's jobs run on the way, as they",
  "                     would live: orders settle, tokens expire, recurring buys run",
  "  :price btc 65000   set a sandbox price in EUR (for alerts)",
  "  :inline btc        type an inline query (@bot btc) and see the results",
  "  :group /balance    say something in a group chat with the bot",
  "  :contact           share your own phone number (the sign-up's button)",
  "  :kyc passed        partner mode: set your KYC status (not_started, pending, passed, failed, declined)",
  "  :deposit 1000      partner mode: a wire of 1000 EUR arrives in your account",
  "  :quit              leave (Ctrl-C too)",
  "Everything else is sent to the bot as your message, e.g. /help. Pictures and files the bot",
  "sends are written to the folder named at start, each path printed with its message.",
].join("\n");

const KYC = ["not_started", "pending", "passed", "failed", "declined"] as const;

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000 };
/** The longest step `:advance` takes without running the jobs: what is due hourly (digests) comes on time. */
const ADVANCE_STEP_MS = 3_600_000;

async function tapButton(line: string, ctx: DemoCommandContext): Promise<boolean> {
  const tap = /^#(?:(\d+)\.)?(\d+)$/.exec(line);
  if (!tap) return false;
  const messageId = tap[1] === undefined ? undefined : Number(tap[1]);
  const held = ctx.buttons(messageId);
  const button = held?.buttons[Number(tap[2]) - 1];
  if (held === undefined || !button) {
    ctx.print(
      held === undefined
        ? `(demo) ${messageId === undefined ? "No message has buttons." : `Message ${messageId} has no buttons.`}`
        : `(demo) There is no button ${tap[2]}; message ${held.messageId} has ${held.buttons.length}.`,
    );
    return true;
  }
  if (button.webApp) {
    ctx.print(`(demo) In Telegram this opens the login page. Open it in your browser: ${ctx.webAppLink()}`);
    return true;
  }
  if (!button.data) {
    ctx.print(`(demo) Button ${tap[2]} is a link: ${button.url ?? "?"}`);
    return true;
  }
  await ctx.me.tapData(button.messageId, button.data);
  return true;
}

/** Moves the clock by `ms`, running the jobs at each due point on the way and at least hourly. */
async function advanceClock(ms: number, ctx: DemoCommandContext): Promise<void> {
  const end = ctx.clock.now() + ms;
  do {
    const now = ctx.clock.now();
    const due = ((await ctx.dueTimes?.()) ?? []).filter((at) => at > now && at < end);
    const next = Math.min(end, now + ADVANCE_STEP_MS, ...due);
    ctx.clock.advance(next - now);
    await ctx.tick();
  } while (ctx.clock.now() < end);
}

/** An inline query's results, one line each (a chart's photo and its text card share one). */
async function showInlineResults(query: string, ctx: DemoCommandContext): Promise<void> {
  const id = await ctx.me.inlineQuery(query);
  const results = await ctx.me.inlineResults(id).catch(() => []);
  if (results.length === 0) ctx.print("(demo) The inline query gave no results.");
  // A chart comes as a photo result beside the same card as text: one line for both.
  const lines = new Map<string, string[]>();
  for (const result of results) {
    const title = "title" in result ? result.title : result.type;
    const description = "description" in result && result.description ? ` – ${result.description}` : "";
    const line = `${title}${description}`;
    const pictures = lines.get(line) ?? [];
    lines.set(line, pictures);
    if (result.type === "photo" && "photo_url" in result) {
      const saved = await ctx.savePicture?.(result.photo_url, `${result.id}.jpg`);
      if (saved) pictures.push(`[picture ${saved}]`);
    }
  }
  for (const [line, pictures] of lines) ctx.print(`(inline) ${[line, ...pictures].join(" ")}`);
}

export async function handleDemoCommand(line: string, ctx: DemoCommandContext): Promise<void> {
  if (line.startsWith("#")) {
    if (!(await tapButton(line, ctx)))
      ctx.print("(demo) Tap a button with #N (the newest message's) or #M.N (message M's).");
    return;
  }
  const [command, ...args] = line.slice(1).trim().split(/\s+/);
  switch (command) {
    case "kyc": {
      const status = KYC.find((s) => s === args[0]);
      const partnerUserId = await ctx.partnerUserId?.();
      if (partnerUserId === undefined || status === undefined) {
        ctx.print(`(demo) In partner mode (--partner), after /start: :kyc ${KYC.join("|")}`);
        return;
      }
      ctx.sandbox.faults.setPartnerUserStatus(partnerUserId, { kyc_status: status });
      ctx.print(`(demo) Your KYC status at the sandbox is now ${status}; the background jobs run once.`);
      await ctx.tick();
      return;
    }
    case "deposit": {
      const partnerUserId = await ctx.partnerUserId?.();
      if (partnerUserId === undefined || !/^\d+(\.\d{1,2})?$/.test(args[0] ?? "")) {
        ctx.print("(demo) In partner mode (--partner), after /start: :deposit 1000");
        return;
      }
      ctx.sandbox.deposit({ amount: new Big(args[0] ?? "0"), accountId: partnerUserId });
      ctx.print(`(demo) A wire of ${args[0]} EUR arrived in your account at the sandbox.`);
      return;
    }
    case "contact":
      await ctx.me.sendContact({ phone: "+4915123456789", userId: ctx.me.id });
      return;
    case "code": {
      const code = ctx.sandbox.currentCode();
      if (args[0] !== "send") {
        ctx.print(`(demo) Your authenticator shows: ${code}`);
        return;
      }
      ctx.print(`(demo) Your authenticator shows ${code}; sent as your message.`);
      await ctx.me.send(code);
      return;
    }
    case "advance": {
      const match = /^(\d+)([smh])$/.exec(args[0] ?? "");
      if (!match) {
        ctx.print("(demo) Say how far, e.g. :advance 90s, :advance 10m or :advance 2h.");
        return;
      }
      await advanceClock(Number(match[1]) * (UNITS[match[2] ?? "s"] ?? 1_000), ctx);
      ctx.print(`(demo) The sandbox clock is now ${new Date(ctx.clock.now()).toISOString()}.`);
      return;
    }
    case "price": {
      const [currency, price] = args;
      if (!currency || !price || !/^\d+(\.\d+)?$/.test(price)) {
        ctx.print("(demo) Say which and how much, e.g. :price btc 65000");
        return;
      }
      ctx.sandbox.setPrice(currency.toLowerCase(), price);
      // Past the market feed's cache, so the tick below reads the new price and alerts fire now.
      ctx.clock.advance(ctx.marketTtlMs ?? 0);
      ctx.print(`(demo) ${currency.toUpperCase()} now costs ${price} EUR at the sandbox.`);
      await ctx.tick();
      return;
    }
    case "inline":
      await showInlineResults(args.join(" "), ctx);
      return;
    case "group":
      await ctx.me.sendInGroup(args.join(" "));
      return;
    case "webapp":
      ctx.print(`(demo) Log in in your browser (the link is good for 15 minutes): ${ctx.webAppLink()}`);
      return;
    case "help":
      ctx.print(HELP);
      return;
    default:
      ctx.print(`(demo) Unknown demo command :${command ?? ""}. ${HELP.split("\n")[0]} Type :help.`);
  }
}
