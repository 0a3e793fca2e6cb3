/**
 * createBot(deps): the plugins, middleware and features, in a fixed, visible order.
 *
 *   answer deadline (typing…, exchange calls fit in 20 s) → update logger → error boundary → i18n → inline queries (no chat, no session) →
 *     groups: the group feature (prices only, else a redirect)
 *     private chats: flood limit → (Redis: chat lease with) the chat's reads → the chosen locale → session → conversations → /cancel, /logout → the flows (only while
 *       one runs or a feature enters one) → the features that can take the update → unknown input
 *       (partner mode: sign-up, /verify, the KYC gate and the partner features instead of the
 *       account features; see partner-mode.ts)
 *   → unanswered buttons (any chat, inline messages too)
 *
 * @example
 * const bot = createBot(deps, { token, apiRoot: "http://127.0.0.1:8081" });
 * await bot.init();
 * bot.start();
 */
import { autoRetry } from "@grammyjs/auto-retry";
import { conversations } from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import {
  Bot,
  type ChatTypeContext,
  type Composer,
  Context,
  type Middleware,
  type MiddlewareFn,
  session,
  type Transformer,
} from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { withReaderZone } from "../domain/reader-zone.ts";
import { storageAdapter } from "../store/adapter.ts";
import { encryptedAdapter } from "../store/encrypted-adapter.ts";
import { webAppLoginPageUrl } from "../support/webapp-paths.ts";
import { knownCommands, MENU_COMMANDS, PARTNER_MENU_COMMANDS } from "./commands.ts";
import type { BotContext, FlowContext, PrivateContext, SessionData } from "./context.ts";
import type { BotDeps } from "./deps.ts";
import { addressesAddConversation, addressesFeature } from "./features/addresses.ts";
import { alertConversation, alertsFeature, alertsPause } from "./features/alerts.ts";
import { balanceFeature } from "./features/balance.ts";
import { banksAddConversation, banksFeature, banksRemoveConversation } from "./features/banks.ts";
import { cancelFeature } from "./features/cancel.ts";
import { depositFeature, depositNewConversation } from "./features/deposit.ts";
import { feesConversation, feesFeature } from "./features/fees.ts";
import { freezeFeature, unfreezeConversation, unfreezeFeature } from "./features/freeze.ts";
import { groupFeature } from "./features/group.ts";
import { helpFeature } from "./features/help.ts";
import { inlineFeature } from "./features/inline.ts";
import { languageFeature } from "./features/language.ts";
import { limitsFeature } from "./features/limits.ts";
import { loginConversation, loginFeature } from "./features/login.ts";
import { logoutFeature } from "./features/logout.ts";
import { meFeature } from "./features/me.ts";
import { notificationsConversation, notificationsFeature } from "./features/notifications.ts";
import { ordersFeature } from "./features/orders.ts";
import { partnerBankAddConversation } from "./features/partner/banks.ts";
import { partnerProfileConversation } from "./features/partner/me.ts";
import { partnerPinConversation } from "./features/partner/pin.ts";
import { partnerSignUpConversation } from "./features/partner/signup.ts";
import { partnerTradeConversation } from "./features/partner/trade.ts";
import { partnerVerifyConversation, verifyInGroup } from "./features/partner/verify.ts";
import { partnerWithdrawConversation } from "./features/partner/withdraw.ts";
import { priceCommands, priceConversation, pricesFeature } from "./features/prices.ts";
import { recurringConversation, recurringFeature } from "./features/recurring.ts";
import { safetyCapConversation, safetyFeature, safetyLoosenConversation } from "./features/safety.ts";
import { sendConversation, sendFeature } from "./features/send.ts";
import { phraseConversation, settingsFeature } from "./features/settings.ts";
import { startFeature } from "./features/start.ts";
import { tradeConversation, tradeFeature } from "./features/trade.ts";
import { transactionsFeature } from "./features/transactions.ts";
import { staleButtons, unknownInput } from "./features/unanswered.ts";
import { withdrawConversation, withdrawFeature } from "./features/withdraw.ts";
import { orderCodeConversation } from "./flows/order-code.ts";
import { deferChosenLocale, negotiateChosenLocale } from "./i18n.ts";
import { type AnswerDeadlineOptions, answerDeadline } from "./middleware/answer-deadline.ts";
import { ChatLock, type ChatLockOptions } from "./middleware/chat-lock.ts";
import { rememberClientLocale } from "./middleware/client-locale.ts";
import { createErrorHandler } from "./middleware/error-boundary.ts";
import { type FloodLimitOptions, floodLimit } from "./middleware/flood-limit.ts";
import { InFlight } from "./middleware/in-flight.ts";
import { orderWatch } from "./middleware/order-watch.ts";
import { type UpdateObserver, updateLogger } from "./middleware/update-logger.ts";
import { partnerMode } from "./partner-mode.ts";
import { type FlowSpec, installConversations } from "./runtime/conversations.ts";
import { branchOn, commandsOf, routeFeatures } from "./runtime/feature-router.ts";
import { flowsOnDemand } from "./runtime/flows-on-demand.ts";
import { Chain } from "./runtime/middleware-chain.ts";
import { retryingFetch } from "./transport/telegram-fetch.ts";
import { webAppLoginButtons } from "./ui/keyboards.ts";

export interface BotOptions {
  token: string;
  /** TELEGRAM_API_ROOT: Telegram, a self-hosted Bot API server or a test double. */
  apiRoot?: string;
  /** Skips the getMe call at init (tests, benchmarks). */
  botInfo?: UserFromGetMe;
  /** Retry Bot API calls on 429 after `retry_after` (default on). */
  autoRetry?: boolean;
  /** Per-user flood limit (default 30 updates per 10 s). */
  floodLimit?: FloodLimitOptions;
  /** One update per chat at a time across instances: set when the store is shared (Redis). */
  chatLock?: boolean | ChatLockOptions;
  /** When "typing…" shows and by when the final sentence is out (default 2 s and 20 s). */
  answerDeadline?: AnswerDeadlineOptions;
  /** Told of each update handled and each error answered (metrics, when METRICS_PORT is set). */
  observer?: UpdateObserver;
}

/** Where grammY's session lives: one key per user. */
export const SESSION_PREFIX = "session:";
/** Where conversations keep their (encrypted) state: one key per private chat. */
export const CONVERSATION_PREFIX = "conversation:";
const CONVERSATION_TTL_MS = 60 * 60_000;

/** The store key of a private chat's conversation state, for wiping it at logout. */
export function conversationKey(chatId: number): string {
  return `${CONVERSATION_PREFIX}${chatId}`;
}

/** Session and sequentialize use the same key: the user (rule 1: one user, one session). */
export function userKey(ctx: Context): string | undefined {
  return ctx.from?.id.toString();
}

export function createBot(deps: BotDeps, options: BotOptions): Bot<BotContext> {
  const { bot, webAppButtons } = newBot(deps, options);
  const guarded = outerStack(bot, deps, options);
  // Inline queries have no chat: answered here, before any session or conversation.
  guarded.use(branchOn<BotContext, BotContext>(Context.has.filterQuery("inline_query"), inlineFeature(deps)));

  guarded.use(
    branchOn<BotContext, ChatTypeContext<BotContext, "group" | "supergroup">>(
      Context.has.chatType(["group", "supergroup"]),
      priceCommands(deps),
      // Partner mode: a share token typed with /verify in a group is deleted, never imported.
      ...(deps.partner ? [verifyInGroup()] : []),
      groupFeature(deps),
    ),
  );

  const inPrivate = new Chain<PrivateContext>();
  guarded.use(branchOn<BotContext, PrivateContext>(Context.has.chatType("private"), inPrivate));
  privateChatScope(bot, inPrivate, deps, options);
  sessionAndFlowState(inPrivate, deps, webAppButtons);
  // /cancel, /logout and Freeze work in the middle of any flow: they are seen before the flows.
  const beforeFlows = deps.partner
    ? [cancelFeature(deps), freezeFeature(deps)]
    : [cancelFeature(deps), logoutFeature(deps), freezeFeature(deps)];
  inPrivate.use(routeFeatures(beforeFlows));
  // Every conversation comes before every command handler: while a flow runs, what the user sends
  // (another command included) reaches the flow first, which answers it or steps aside. With none
  // running, the conversations are skipped until a feature enters one (runtime/flows-on-demand.ts).
  const flows = new Chain<PrivateContext>();
  installConversations(flows, conversationsOf(deps));
  inPrivate.use(flowsOnDemand(flows));
  // Each update runs through only the features that can take it, in this order (runtime/feature-router.ts).
  const features = featuresOf(deps);
  inPrivate.use(routeFeatures(features));
  // Last: what no feature took still gets an answer (a sentence in private chats only), with the
  // closest of the commands these features register when the user seems to have mistyped one.
  const known = knownCommands(
    commandsOf([...beforeFlows, ...features]),
    deps.partner ? PARTNER_MENU_COMMANDS : MENU_COMMANDS,
  );
  KNOWN_COMMANDS.set(bot, known);
  inPrivate.use(unknownInput(known));
  guarded.use(staleButtons());
  return bot;
}

/** The Bot and its API client: the Bot API's address, retries, the Mini App's Log in buttons. */
function newBot(
  deps: BotDeps,
  options: BotOptions,
): { bot: Bot<BotContext>; webAppButtons: Transformer | undefined } {
  const bot = new Bot<BotContext>(options.token, {
    client: {
      apiRoot: options.apiRoot ?? deps.config.telegramApiRoot,
      ...(options.autoRetry !== false ? { fetch: retryingFetch() } : {}),
    },
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
  });
  if (options.autoRetry !== false) {
    // 429s are already retried by the fetch beneath; this adds 5xx. Network errors are not
    // retried here (auto-retry would try them for up to an hour): the caller sees them.
    bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60, rethrowHttpErrors: true }));
  }

  // WEBAPP_URL: every Log in button opens the Mini App login page.
  const webAppUrl = deps.config.webAppUrl;
  const webAppButtons = webAppUrl ? webAppLoginButtons(webAppLoginPageUrl(webAppUrl)) : undefined;
  if (webAppButtons) bot.api.config.use(webAppButtons);
  return { bot, webAppButtons };
}

/**
 * What every update goes through, in any chat: counted in flight, the answer deadline, one at a
 * time per user, logged, under the error boundary, then i18n. Returns the guarded chain.
 */
function outerStack(bot: Bot<BotContext>, deps: BotDeps, options: BotOptions): Composer<BotContext> {
  // The bot's own use() is grammY's (two async functions per level and update): one level, the
  // rest runs flat (runtime/middleware-chain.ts).
  const stack = new Chain<BotContext>();
  bot.use(stack);
  const inFlight = new InFlight();
  IN_FLIGHT.set(bot, inFlight);
  stack.use(inFlight.middleware);
  // Before sequentialize: time spent waiting behind the user's previous update counts too.
  stack.use(answerDeadline(options.answerDeadline));
  stack.use(sequentialize(userKey));
  stack.use(updateLogger(deps.log, options.observer));
  const guarded = stack.errorBoundary(createErrorHandler(deps.log, options.observer));
  // A private chat's chosen locale is read with the chat's other reads (its profile among them;
  // on Redis after the lease), not in a round trip of its own before them.
  if (deps.chatReads) {
    guarded.use((ctx, next) => {
      if (ctx.chat?.type === "private") deferChosenLocale(ctx);
      return next();
    });
  }
  guarded.use(deps.i18n);
  return guarded;
}

/** A private chat's update: the flood limit, the chat lock and its reads (Redis), its locale and zone. */
function privateChatScope(
  bot: Bot<BotContext>,
  inPrivate: Chain<PrivateContext>,
  deps: BotDeps,
  options: BotOptions,
): void {
  const chatReads = deps.chatReads;
  // First in private chats: a flood must not reach the store or replay a conversation.
  inPrivate.use(floodLimit(options.floodLimit));
  // The chat's reads below (session, conversation, pause, flags, profile) in one round trip (on
  // SQLite one statement for what the cache does not hold), read only once the chat is this
  // update's: with the chat lock (Redis), in the round trip that takes it.
  if (options.chatLock) {
    const lockOptions = options.chatLock === true ? {} : options.chatLock;
    const lock = new ChatLock(deps.store, deps.log, {
      ...lockOptions,
      ...(chatReads ? { reads: chatReads } : {}),
    });
    CHAT_LOCKS.set(bot, lock);
    inPrivate.use(lock.middleware);
  } else if (chatReads) inPrivate.use((_ctx, next) => chatReads.scope(next));
  if (chatReads) {
    inPrivate.use(async (ctx, next) => {
      await negotiateChosenLocale(ctx);
      return next();
    });
  }
  // Every time this update words is in the user's zone (bot/ui/format.ts reads it); the profile is
  // the one i18n read, from Profiles' cache. The app's language is kept from it for later notices.
  inPrivate.use(async (ctx, next) => {
    // A store that is down fails the update further on, with its own words; the zone is not why.
    const profile = await deps.profiles.get(ctx.from.id).catch(() => undefined);
    await rememberClientLocale(deps.profiles, ctx.from.id, ctx.from.language_code, profile);
    return withReaderZone(profile?.timeZone, next);
  });
}

/** The user's session and the chat's conversation state (encrypted, expiring), both in the store. */
function sessionAndFlowState(
  inPrivate: Chain<PrivateContext>,
  deps: BotDeps,
  webAppButtons: Transformer | undefined,
): void {
  inPrivate.use(
    session<SessionData, BotContext>({
      initial: () => ({}),
      getSessionKey: userKey,
      storage: storageAdapter<SessionData>(deps.store, SESSION_PREFIX),
    }),
  );
  inPrivate.use(
    conversations<BotContext, FlowContext>({
      storage: {
        type: "key",
        adapter: encryptedAdapter(
          // A flow abandoned mid-way (a typed password in its state) does not outlive this.
          storageAdapter(deps.store, CONVERSATION_PREFIX, { ttlMs: CONVERSATION_TTL_MS }),
          deps.vault,
        ),
        // Only private chats ever hold a flow; the key is the chat (= the user there).
        getStorageKey: (ctx) => (ctx.chat?.type === "private" ? ctx.chat.id.toString() : undefined),
      },
      plugins: [
        // 429s inside flows are retried by the client's fetch (transport/telegram-fetch.ts), beneath the
        // conversation's recorder; a transformer here would wait again on every replay.
        deps.i18n,
        // A flow's context has its own API client, without the bot's transformers.
        ...(webAppButtons ? [installTransformer<FlowContext>(webAppButtons)] : []),
      ],
    }),
  );
}

/** Every conversation of the mode, in one list; while one runs, updates reach them in this order. */
function conversationsOf(deps: BotDeps): FlowSpec[] {
  const partnerDeps = deps.partner && { ...deps, partner: deps.partner };
  return partnerDeps
    ? [
        partnerSignUpConversation(partnerDeps),
        partnerVerifyConversation(partnerDeps),
        partnerProfileConversation(partnerDeps),
        partnerBankAddConversation(partnerDeps),
        partnerTradeConversation(partnerDeps),
        partnerWithdrawConversation(partnerDeps),
        recurringConversation(partnerDeps),
        // The PIN step of a confirmed partner withdrawal.
        orderCodeConversation(partnerDeps),
        notificationsConversation(partnerDeps),
        safetyLoosenConversation(partnerDeps),
        safetyCapConversation(partnerDeps),
        partnerPinConversation(partnerDeps),
      ]
    : [
        loginConversation(deps),
        banksAddConversation(deps),
        banksRemoveConversation(deps),
        sendConversation(deps),
        withdrawConversation(deps),
        priceConversation(deps),
        alertConversation(deps),
        feesConversation(deps),
        tradeConversation(deps),
        recurringConversation(deps),
        // The fresh-code step of a confirmed send or withdrawal.
        orderCodeConversation(deps),
        depositNewConversation(deps),
        phraseConversation(deps),
        notificationsConversation(deps),
        addressesAddConversation(deps),
        safetyLoosenConversation(deps),
        safetyCapConversation(deps),
        unfreezeConversation(deps),
      ];
}

/** The features of the mode, in the order an update is offered to them. */
function featuresOf(deps: BotDeps): Array<Middleware<PrivateContext>> {
  const partnerDeps = deps.partner && { ...deps, partner: deps.partner };
  return partnerDeps
    ? // EXCHANGE_MODE=partner: sign-up, the KYC gate and the partner features (bot/partner-mode.ts).
      partnerMode(partnerDeps)
    : [
        // Any update from a user paused by a 403 resumes their alerts.
        alertsPause(deps),
        // Price alerts need no login.
        alertsFeature(deps),
        // Open orders are reconciled when their owner comes back (after the update is handled).
        orderWatch(deps),
        startFeature(deps),
        helpFeature(),
        languageFeature(deps),
        loginFeature(deps),
        banksFeature(deps),
        sendFeature(deps),
        withdrawFeature(deps),
        meFeature(deps),
        balanceFeature(deps),
        pricesFeature(deps),
        limitsFeature(deps),
        feesFeature(deps),
        tradeFeature(deps),
        recurringFeature(deps),
        // The quote cards' Confirm and Cancel, for every kind of order.
        ordersFeature(deps),
        depositFeature(deps),
        transactionsFeature(deps),
        settingsFeature(deps),
        notificationsFeature(deps),
        addressesFeature(deps),
        safetyFeature(deps),
        unfreezeFeature(deps),
      ];
}

function installTransformer<C extends Context>(transformer: Transformer): MiddlewareFn<C> {
  return (ctx, next) => {
    ctx.api.config.use(transformer);
    return next();
  };
}

const KNOWN_COMMANDS = new WeakMap<Bot<BotContext>, readonly string[]>();

/** The commands a private chat of this bot understands (its mode's features), as typos are matched. */
export function knownCommandsOf(bot: Bot<BotContext>): readonly string[] {
  return KNOWN_COMMANDS.get(bot) ?? [];
}

const IN_FLIGHT = new WeakMap<Bot<BotContext>, InFlight>();

/** Waits until every update the bot is handling is done: call after stopping the runner. */
export function drainUpdates(bot: Bot<BotContext>): Promise<void> {
  return IN_FLIGHT.get(bot)?.drain() ?? Promise.resolve();
}

/** How many updates the bot is handling now. */
export function updatesInFlight(bot: Bot<BotContext>): number {
  return IN_FLIGHT.get(bot)?.count ?? 0;
}

const CHAT_LOCKS = new WeakMap<Bot<BotContext>, ChatLock>();

/**
 * Gives back the chat leases of updates still running (a shutdown that cannot wait for them any
 * longer), so their chats' next updates go ahead on another instance at once.
 */
export function releaseChatLeases(bot: Bot<BotContext>): Promise<void> {
  return CHAT_LOCKS.get(bot)?.releaseAll() ?? Promise.resolve();
}
