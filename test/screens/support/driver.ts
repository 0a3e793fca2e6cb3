/**
 * Drives one catalogue run (a mode and a locale): each step is an action of a user (a message, a
 * tap, a moved clock, a tick of the background jobs) followed by waiting until the bot is quiet, so
 * every screen the step produced is recorded under its title. Steps never match reply texts: the
 * same script runs in every locale, and button taps go by callback data, which no locale changes.
 */
import { drainUpdates } from "../../../src/bot/bot.ts";
import { type BackgroundJobs, startBackgroundJobs } from "../../../src/process/jobs.ts";
import type { FakeUser, SentMessage } from "../../../src/telegram-double/index.ts";
import type { Harness } from "../../support/harness.ts";
import type { ScreenLog } from "./screens.ts";

export class Driver {
  /** The message ids the bot looked up during the current step (what it asked, in any locale). */
  readonly stepKeys: string[] = [];
  /** Where the current step's messages start in the double's message log. */
  #stepStart = 0;
  /** Every command a user of this run sent, without its slash ("buy", "master"). */
  readonly commandsSent = new Set<string>();
  #jobs: BackgroundJobs | undefined;

  readonly h: Harness;
  readonly log: ScreenLog;
  readonly locale: string;

  constructor(h: Harness, log: ScreenLog, locale: string) {
    this.h = h;
    this.log = log;
    this.locale = locale;
  }

  /** Waits until no update, Bot API call, exchange request or notice is under way, twice over. */
  async settle(): Promise<void> {
    let seen = -1;
    while (seen !== this.h.telegram.callLog.length) {
      seen = this.h.telegram.callLog.length;
      await this.h.telegram.waitUntilIdle({ quietMs: 12, timeoutMs: 20_000 });
      await drainUpdates(this.h.bot);
      await this.h.exchangeIdle();
      await this.h.noticesIdle();
      await this.#jobs?.notifier.queue.idle();
    }
  }

  /** Starts a step: its screens go under `title`, and its buttons are the ones `lastButtons` offers. */
  title(title: string): void {
    this.log.title = title;
    this.stepKeys.length = 0;
    this.#stepStart = this.h.telegram.messageLog.length;
  }

  /**
   * `user` types `text`; its screens go under `title` (default: the text itself). `locale`: the
   * language the answer and what follows must be in from now on (a step that switches it).
   */
  async send(user: FakeUser, text: string, title = text, locale?: string): Promise<void> {
    this.title(title);
    if (locale !== undefined) this.log.locale = locale;
    const command = /^\/([a-z]+)/.exec(text);
    if (command) this.commandsSent.add(command[1] as string);
    await user.send(text);
    await this.settle();
  }

  /** Ends whatever flow is open (/cancel), then sends `text`: a fresh start for the next step. */
  async fresh(user: FakeUser, text: string, title = text): Promise<void> {
    await this.send(user, "/cancel", `/cancel (before ${title})`);
    await this.send(user, text, title);
  }

  /** Several messages in a row, each its own step: a flow's answers. */
  async answer(user: FakeUser, flow: string, ...texts: string[]): Promise<void> {
    for (const text of texts) await this.send(user, text, `${flow} ← "${text}"`);
  }

  /** Sends in a group (commands there are answered in the group). */
  async sendInGroup(user: FakeUser, text: string): Promise<void> {
    this.title(`group: ${text}`);
    await user.sendInGroup(text);
    await this.settle();
  }

  /**
   * Taps the button whose callback data matches `data` on the newest message that has one (or
   * on `on`); throws, listing the buttons there are, when none does.
   */
  async tap(user: FakeUser, data: RegExp, title: string, on?: SentMessage, locale?: string): Promise<void> {
    const found = this.button(user, data, on);
    if (found === undefined) {
      const last = user
        .messages()
        .filter((m) => m.replyMarkup && "inline_keyboard" in m.replyMarkup)
        .at(-1);
      throw new Error(`No button ${String(data)} for "${title}". Last keyboard: ${describeKeyboard(last)}`);
    }
    this.title(`${title} (tap)`);
    if (locale !== undefined) this.log.locale = locale;
    await user.tapData(found.messageId, found.data);
    await this.settle();
  }

  /**
   * Taps again a button that was shown earlier (the newest matching, or the `index`th: -2 the
   * one before): an old or repeated tap, as a person scrolling up would.
   */
  async tapData(user: FakeUser, data: RegExp, title: string, index?: number): Promise<void> {
    const all: Array<{ messageId: number; data: string }> = [];
    for (const item of this.h.telegram.messageLog.items) {
      const markup = item.replyMarkup;
      if (item.chatId !== user.id || markup === undefined || !("inline_keyboard" in markup)) continue;
      for (const button of markup.inline_keyboard.flat())
        if (
          "callback_data" in button &&
          button.callback_data !== undefined &&
          data.test(button.callback_data)
        )
          all.push({ messageId: item.messageId, data: button.callback_data });
    }
    const found = all.at(index ?? -1);
    if (found === undefined) return;
    this.title(`${title} (tap)`);
    await user.tapData(found.messageId, found.data);
    await this.settle();
  }

  /** Like `tap`, but a missing button is skipped (a step that only some states show). */
  async tapIf(user: FakeUser, data: RegExp, title: string): Promise<boolean> {
    if (this.button(user, data) === undefined) return false;
    await this.tap(user, data, title);
    return true;
  }

  /** The newest button whose callback data matches. */
  button(user: FakeUser, data: RegExp, on?: SentMessage): { messageId: number; data: string } | undefined {
    const messages = on ? [on] : [...user.messages()].reverse();
    for (const message of messages) {
      const markup = message.replyMarkup;
      if (markup === undefined || !("inline_keyboard" in markup)) continue;
      for (const button of markup.inline_keyboard.flat())
        if (
          "callback_data" in button &&
          button.callback_data !== undefined &&
          data.test(button.callback_data)
        )
          return { messageId: message.messageId, data: button.callback_data };
    }
    return undefined;
  }

  /**
   * Callback data of every button on the newest message with an inline keyboard that the last
   * step sent or edited (none: a notice's buttons from before are not this step's).
   */
  lastButtons(user: FakeUser): string[] {
    const last = this.h.telegram.messageLog.items
      .slice(this.#stepStart)
      .filter((m) => m.chatId === user.id && m.replyMarkup && "inline_keyboard" in m.replyMarkup)
      .at(-1);
    const markup = last?.replyMarkup;
    if (markup === undefined || !("inline_keyboard" in markup)) return [];
    return markup.inline_keyboard
      .flat()
      .flatMap((b) => ("callback_data" in b && b.callback_data !== undefined ? [b.callback_data] : []));
  }

  /** The background jobs (alerts, orders, plans, sessions, KYC, digest), ticked only when asked. */
  get jobs(): BackgroundJobs {
    this.#jobs ??= startBackgroundJobs({
      deps: this.h.deps,
      api: this.h.bot.api,
      intervalMs: 3_600_000,
      autoStart: false,
    });
    return this.#jobs;
  }

  /** Moves the clock by `ms` and runs the background jobs once; their notices go under `title`. */
  async tick(title: string, ms = 0): Promise<void> {
    this.title(`notice: ${title}`);
    if (ms > 0) this.h.clock.advance(ms);
    await this.jobs.tick();
    await this.settle();
  }

  async stop(): Promise<void> {
    await this.#jobs?.stop();
  }
}

function describeKeyboard(message: SentMessage | undefined): string {
  const markup = message?.replyMarkup;
  if (markup === undefined || !("inline_keyboard" in markup)) return "none";
  return markup.inline_keyboard
    .flat()
    .map((b) => `${b.text}=${"callback_data" in b ? b.callback_data : "?"}`)
    .join(", ");
}
