/**
 * What every benchmark shares: the Bot API double and the sandbox exchange on loopback (in this
 * process), a watcher that times each update from its push until the bot's sendMessage for it is
 * recorded, and a closed-loop driver.
 */
import { performance } from "node:perf_hooks";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { type BotApiDouble, type FakeUser, startBotApiDouble } from "../../src/telegram-double/index.ts";

export interface Env {
  telegram: BotApiDouble;
  sandbox: Sandbox;
  replies: ReplyWatcher;
  close(): Promise<void>;
}

/**
 * Another Bot API double (its own token, updates and replies) beside the same sandbox: a second
 * bot can then stay up and idle while the first is driven, so paired runs alternate without
 * restarting either bot (see `rounds.ts`). Closing it closes only its double.
 */
export async function withOwnDouble(env: Env): Promise<Env> {
  const telegram = await startBotApiDouble();
  const replies = new ReplyWatcher(telegram);
  return {
    telegram,
    sandbox: env.sandbox,
    replies,
    async close() {
      replies.close();
      await telegram.close();
    },
  };
}

export async function startEnv(): Promise<Env> {
  // No rate limits anywhere: the double's are off by default, the sandbox's off with 0.
  const sandbox = await startSandbox({ rateLimitPerMinute: 0 });
  const telegram = await startBotApiDouble();
  const replies = new ReplyWatcher(telegram);
  return {
    telegram,
    sandbox,
    replies,
    async close() {
      replies.close();
      await telegram.close();
      await sandbox.close();
    },
  };
}

export interface Reply {
  /** performance.now() when the double recorded the sendMessage. */
  at: number;
  text: string;
}

/** Resolves "the next sendMessage to chat X" straight from the double's call listener. */
export class ReplyWatcher {
  #waiters = new Map<number, (reply: Reply) => void>();
  #unsubscribe: () => void;
  #telegram: BotApiDouble;

  constructor(telegram: BotApiDouble) {
    this.#telegram = telegram;
    this.#unsubscribe = telegram.on("call", (call) => {
      // A chart answer (/price with history) is a photo: its caption is the reply's text.
      if ((call.method !== "sendMessage" && call.method !== "sendPhoto") || call.chatId === undefined) return;
      const resolve = this.#waiters.get(call.chatId);
      if (resolve === undefined) return;
      this.#waiters.delete(call.chatId);
      resolve({ at: performance.now(), text: String(call.payload.text ?? call.payload.caption ?? "") });
    });
  }

  next(chatId: number, timeoutMs = 15_000): Promise<Reply> {
    if (this.#waiters.has(chatId)) throw new Error(`Already waiting for a reply in chat ${chatId}.`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(chatId);
        reject(
          new Error(
            `No sendMessage to chat ${chatId} within ${timeoutMs} ms.\n${this.#telegram.describeRecentCalls()}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.set(chatId, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  close(): void {
    this.#unsubscribe();
  }
}

export interface DriveOptions {
  users: FakeUser[];
  /** Updates to send in all. */
  total: number;
  /** Updates in flight at once: 1 = one at a time. */
  concurrency: number;
  text: string;
  /** Every reply must pass this, or the run fails (a benchmark of error replies measures nothing). */
  expect?: (text: string) => boolean;
}

export interface DriveResult {
  /** Per update: push to the double → the bot's sendMessage recorded. */
  latenciesMs: number[];
  /** performance.now() of each reply, in order of arrival, and of the start. */
  repliedAt: number[];
  startedAt: number;
  elapsedMs: number;
  /** Updates per second over the whole run. */
  throughput: number;
  firstReply: string;
}

/**
 * Closed loop: `concurrency` slots, each sends an update, waits for its reply, sends the next.
 * Updates go to the users in turn (update k to user k mod users), so with `total` equal to the
 * number of users each user sends exactly once; a user never has two updates in flight.
 */
export async function drive(env: Env, options: DriveOptions): Promise<DriveResult> {
  const { users, total, text } = options;
  const concurrency = Math.max(1, Math.min(options.concurrency, total));
  const latenciesMs: number[] = [];
  const repliedAt: number[] = [];
  const busy = new Map<number, Promise<void>>();
  let next = 0;
  let failed = false;
  let firstReply: string | undefined;
  const slot = async () => {
    while (next < total && !failed) {
      const user = users[next++ % users.length] as FakeUser;
      // Wait for this user's previous update (only when there are fewer users than slots).
      const previous = busy.get(user.id);
      let done = () => {};
      const mine = new Promise<void>((resolve) => {
        done = resolve;
      });
      busy.set(user.id, mine);
      try {
        if (previous !== undefined) await previous;
        const reply = env.replies.next(user.id);
        const t0 = performance.now();
        await user.send(text);
        const { at, text: got } = await reply;
        latenciesMs.push(at - t0);
        repliedAt.push(at);
        firstReply ??= got;
        if (options.expect && !options.expect(got)) {
          throw new Error(`Unexpected reply to ${text} for user ${user.id}: ${got.slice(0, 200)}`);
        }
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        if (busy.get(user.id) === mine) busy.delete(user.id);
        done();
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => slot()));
  const elapsedMs = performance.now() - start;
  return {
    latenciesMs,
    repliedAt,
    startedAt: start,
    elapsedMs,
    throughput: (total / elapsedMs) * 1000,
    firstReply: firstReply ?? "",
  };
}

/** `count` distinct users with ids from `firstId`. */
export function makeUsers(env: Env, firstId: number, count: number): FakeUser[] {
  return Array.from({ length: count }, (_, i) => env.telegram.user(firstId + i, { firstName: `Bench ${i}` }));
}
