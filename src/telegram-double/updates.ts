import type { Update, WebhookInfo } from "grammy/types";
import { type BotApiError, badRequest, conflict } from "./errors.ts";

/** The update types Telegram sends when `allowed_updates` is empty or was never set. */
const DEFAULT_EXCLUDED = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

/** An update as fed to the double, before it gets its `update_id`. */
export type NewUpdate = Omit<Update, "update_id">;

export interface GetUpdatesParams {
  offset?: number;
  limit?: number;
  timeout?: number;
  allowed_updates?: string[];
}

export interface WebhookParams {
  url: string;
  secret_token?: string;
  max_connections?: number;
  allowed_updates?: string[];
  drop_pending_updates?: boolean;
}

interface Poll {
  limit: number;
  resolve(updates: Update[]): void;
  reject(error: BotApiError): void;
  timer: NodeJS.Timeout;
}

interface Webhook {
  url: string;
  secret: string | undefined;
  maxConnections: number;
  inFlight: Set<number>;
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

/** What a webhook's HTTP response asked for: grammY's "webhook reply" puts a method call in the body. */
export type WebhookReplyHandler = (method: string, payload: Record<string, unknown>) => Promise<void>;

/**
 * Updates waiting for the bot, handed out the way Telegram does: by long polling (an update stays
 * until a later `offset` confirms it) or by POSTing to a webhook (it stays until the webhook answers
 * 2xx, and is retried with backoff otherwise).
 *
 * @example
 * const queue = new UpdateQueue(async () => {});
 * queue.push({ message: someMessage }); // 1
 * await queue.getUpdates({ offset: 0, timeout: 30 }, () => {}); // [{ update_id: 1, message: ... }]
 */
export class UpdateQueue {
  #pending: Update[] = [];
  #history = new Map<number, Update>();
  #nextId = 1;
  #poll: Poll | undefined;
  #allowed: Set<string> | undefined;
  #webhook: Webhook | undefined;
  #closed = false;
  #onWebhookReply: WebhookReplyHandler;
  #listeners = new Set<() => void>();

  constructor(onWebhookReply: WebhookReplyHandler) {
    this.#onWebhookReply = onWebhookReply;
  }

  /** Updates not yet confirmed by the bot (fetched with a later offset, or answered by its webhook). */
  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Whether a getUpdates request is being held open, waiting for an update. */
  get isPolling(): boolean {
    return this.#poll !== undefined;
  }

  /** Called whenever the pending count drops, for `waitUntilIdle`. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  push(update: NewUpdate): number {
    const full = { ...update, update_id: this.#nextId++ } as Update;
    this.#history.set(full.update_id, full);
    this.#enqueue(full);
    return full.update_id;
  }

  /** Queues an update that was already delivered once, with the same id: Telegram sometimes does. */
  redeliver(updateId: number): void {
    const update = this.#history.get(updateId);
    if (update === undefined) throw new Error(`No update ${updateId} was ever pushed.`);
    this.#enqueue(structuredClone(update));
  }

  #enqueue(update: Update): void {
    if (this.#closed) throw new Error("The Bot API double is closed.");
    this.#pending.push(update);
    this.#pump();
  }

  async getUpdates(params: GetUpdatesParams, onAbort: (cb: () => void) => void): Promise<Update[]> {
    if (this.#webhook !== undefined) {
      throw conflict(
        "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    // Telegram lets the newest poller win and ends the older request with 409.
    this.#endPoll(
      conflict("terminated by other getUpdates request; make sure that only one bot instance is running"),
    );
    const limit = Math.min(100, Math.max(1, params.limit ?? 100));
    const offset = params.offset ?? 0;
    if (offset > 0) this.#confirmBelow(offset);
    else if (offset < 0) this.#pending = this.#pending.slice(offset);
    if (params.allowed_updates !== undefined) {
      this.#allowed = params.allowed_updates.length === 0 ? undefined : new Set(params.allowed_updates);
    }
    this.#dropDisallowed();
    const timeout = params.timeout ?? 0;
    if (this.#pending.length > 0 || timeout <= 0 || this.#closed) return this.#pending.slice(0, limit);
    return await new Promise<Update[]>((resolve, reject) => {
      const poll: Poll = {
        limit,
        resolve,
        reject,
        timer: setTimeout(() => this.#endPoll(), timeout * 1000),
      };
      this.#poll = poll;
      // A client that gave up (grammY's bot.stop() aborts its request) no longer holds the poll.
      onAbort(() => {
        if (this.#poll === poll) this.#endPoll();
      });
    });
  }

  /** Ends the waiting long poll: with the given error, or with whatever is pending (maybe nothing). */
  #endPoll(error?: BotApiError): void {
    const poll = this.#poll;
    if (poll === undefined) return;
    this.#poll = undefined;
    clearTimeout(poll.timer);
    if (error !== undefined) poll.reject(error);
    else poll.resolve(this.#pending.slice(0, poll.limit));
  }

  #confirmBelow(offset: number): void {
    const before = this.#pending.length;
    this.#pending = this.#pending.filter((u) => u.update_id >= offset);
    if (this.#pending.length !== before) this.#changed();
  }

  #dropDisallowed(): void {
    const before = this.#pending.length;
    this.#pending = this.#pending.filter((u) => this.#isAllowed(u));
    if (this.#pending.length !== before) this.#changed();
  }

  #isAllowed(update: Update): boolean {
    const type = Object.keys(update).find((k) => k !== "update_id") ?? "";
    return this.#allowed === undefined ? !DEFAULT_EXCLUDED.has(type) : this.#allowed.has(type);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  setWebhook(params: WebhookParams): void {
    if (typeof params.url !== "string" || params.url === "") {
      this.deleteWebhook(params.drop_pending_updates === true);
      return;
    }
    let parsed: URL;
    try {
      parsed = new URL(params.url);
    } catch {
      throw badRequest("bad webhook: Failed to resolve host: Name or service not known");
    }
    // Telegram requires HTTPS; the double accepts plain HTTP too, since its webhooks live on loopback.
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
    }
    const secret = params.secret_token;
    if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
      throw badRequest("bad webhook: Secret token contains unallowed characters");
    }
    this.#endPoll(conflict("terminated by setWebhook request"));
    if (params.drop_pending_updates === true) this.#dropAll();
    if (params.allowed_updates !== undefined) {
      this.#allowed = params.allowed_updates.length === 0 ? undefined : new Set(params.allowed_updates);
    }
    const maxConnections = Math.min(100, Math.max(1, params.max_connections ?? 40));
    const same = this.#webhook;
    // The same webhook again ("Webhook is already set": every instance of a deploy sets it at
    // start): the deliveries under way go on, none is made a second time.
    if (same?.url === params.url && same.secret === secret && same.maxConnections === maxConnections) {
      this.#pump();
      return;
    }
    this.#webhook = { url: params.url, secret, maxConnections, inFlight: new Set() };
    this.#pump();
  }

  deleteWebhook(dropPending: boolean): void {
    this.#webhook = undefined;
    if (dropPending) this.#dropAll();
  }

  #dropAll(): void {
    if (this.#pending.length === 0) return;
    this.#pending = [];
    this.#changed();
  }

  webhookInfo(): WebhookInfo {
    const hook = this.#webhook;
    const info: WebhookInfo = {
      url: hook?.url ?? "",
      has_custom_certificate: false,
      pending_update_count: this.#pending.length,
    };
    if (hook !== undefined) {
      info.max_connections = hook.maxConnections;
      if (hook.lastErrorDate !== undefined) info.last_error_date = hook.lastErrorDate;
      if (hook.lastErrorMessage !== undefined) info.last_error_message = hook.lastErrorMessage;
      if (this.#allowed !== undefined)
        info.allowed_updates = [...this.#allowed] as WebhookInfo["allowed_updates"];
    }
    return info;
  }

  /** Hands pending updates to the waiting poller or to the webhook. */
  #pump(): void {
    if (this.#closed) return;
    if (this.#poll !== undefined) {
      this.#dropDisallowed();
      if (this.#pending.length > 0) this.#endPoll();
      return;
    }
    const hook = this.#webhook;
    if (hook === undefined) return;
    this.#dropDisallowed();
    // Telegram may deliver up to max_connections updates at once, so their order is not guaranteed.
    for (const update of this.#pending) {
      if (hook.inFlight.size >= hook.maxConnections) break;
      if (hook.inFlight.has(update.update_id)) continue;
      hook.inFlight.add(update.update_id);
      void this.#deliver(hook, update, 0);
    }
  }

  async #deliver(hook: Webhook, update: Update, attempt: number): Promise<void> {
    let error: string | undefined;
    try {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (hook.secret !== undefined) headers["x-telegram-bot-api-secret-token"] = hook.secret;
      const res = await fetch(hook.url, {
        method: "POST",
        headers,
        body: JSON.stringify(update),
        signal: AbortSignal.timeout(60_000),
      });
      const body = await res.text();
      if (res.ok) {
        await this.#webhookReply(body);
      } else {
        error = `Wrong response from the webhook: ${res.status} ${res.statusText}`;
      }
    } catch (e) {
      error = `Connection refused: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (this.#webhook !== hook || this.#closed) return;
    if (error === undefined) {
      hook.inFlight.delete(update.update_id);
      const i = this.#pending.indexOf(update);
      if (i >= 0) this.#pending.splice(i, 1);
      this.#changed();
      this.#pump();
      return;
    }
    hook.lastErrorDate = Math.floor(Date.now() / 1000);
    hook.lastErrorMessage = error;
    // Telegram keeps retrying a failing webhook, backing off; the double caps the wait at two seconds.
    setTimeout(
      () => {
        if (this.#webhook === hook && !this.#closed && this.#pending.includes(update)) {
          void this.#deliver(hook, update, attempt + 1);
        } else hook.inFlight.delete(update.update_id);
      },
      Math.min(2000, 100 * 2 ** attempt),
    ).unref();
  }

  async #webhookReply(body: string): Promise<void> {
    if (body.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return;
    }
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "method" in parsed &&
      typeof parsed.method === "string"
    ) {
      const { method, ...payload } = parsed as Record<string, unknown>;
      await this.#onWebhookReply(method as string, payload).catch(() => {});
    }
  }

  close(): void {
    this.#closed = true;
    this.#endPoll();
    this.#webhook = undefined;
  }
}
