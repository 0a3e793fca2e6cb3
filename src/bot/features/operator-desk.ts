/**
 * The operator desk (partner mode), for OPERATOR_IDS only:
 *
 *   /master                      the master balance of every currency the exchange lists
 *   /master eur                  one currency
 *   /master alert                the low-balance alerts set
 *   /master alert eur 1000       tell the operators when the EUR master balance falls below 1000
 *   /master alert eur off        stop watching EUR
 *   /user 42 | /user a@b.example a partner user's profile and KYC status
 *   /alltx                       every user's transactions, paged (`atx:<page>`)
 *   /pairs, /currencies          as the exchange lists them
 *   /plans                       recurring plans: how many active, the last 24 h's runs by outcome, the failed ones
 *   /plans 42 | /plans a@b.example   one partner user's plans and runs
 *   /freeze 42 | /freeze a@b…    freeze a partner user's money actions (safety/freezes.ts); they are told
 *   /unfreeze 42                 at once (the operator checked who they spoke to); told, with Freeze
 *   /pinreset 42                 a forgotten PIN removed; the user is told (with Freeze) and sets one with /pin
 *
 * Every handler sits behind one filter on the sender's id: for anyone else these commands do not
 * exist, and the update falls through to the ordinary unknown-command answer (unanswered.ts).
 *
 * Tolerant readings: a currency's code in the currencies list is its `code`, `currency_code`,
 * `currency` or `symbol` field (or the item itself when it is a string); the partner API cannot
 * look a user up by e-mail, so `/user EMAIL` finds those who signed up through this bot (their
 * e-mail is indexed, hashed, at sign-up).
 */
import type { Composer } from "grammy";
import { type Big, decimalFrom, formatAmount, parseAmount } from "../../domain/money.ts";
import { ExchangeError } from "../../exchange/errors.ts";
import { MasterAlerts } from "../../partner/master-alerts.ts";
import type { PartnerServices } from "../../partner/services.ts";
import type { PrivateContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { freezeAndCloseCards } from "../flows/freeze.ts";
import { Chain } from "../runtime/middleware-chain.ts";
import { amountRefusalText } from "../ui/amount.ts";
import { CALLBACK } from "../ui/callback-data.ts";
import { chunkBlocks } from "../ui/chunks.ts";
import { editInPlace } from "../ui/edit.ts";
import { fieldMessages, PERSON_LABELS } from "../ui/fields.ts";
import { MAX_FIELDS_PAGE, pagedFields, pageQuery } from "../ui/paged-fields.ts";
import { deskPlansText, deskUserPlansText } from "../ui/plan-text.ts";
import { transactionItemLines } from "../ui/transaction-text.ts";
import { userText } from "../ui/user-text.ts";

const CODE = /^[a-z0-9]{1,12}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

type DeskDeps = Pick<BotDeps, "store" | "plans" | "freezes" | "orders" | "securityNotices" | "clock"> & {
  partner: PartnerServices;
};

export function operatorDesk(deps: DeskDeps): Composer<PrivateContext> {
  const outer = new Chain<PrivateContext>();
  const { api, operators } = deps.partner;
  const desk = outer.filter((ctx) => operators.has(ctx.from.id));
  const alerts = new MasterAlerts(deps.store);

  desk.command("master", async (ctx) => {
    await masterCommand(deps, alerts, ctx, ctx.match);
  });

  desk.command("user", async (ctx) => {
    await userCommand(deps, ctx, ctx.match);
  });

  // A typed `/freeze` alone is the operator's own Freeze (features/freeze.ts), taken before the flows.
  desk.command("freeze", async (ctx) => {
    const found = await linkedUser(deps, ctx, ctx.match);
    if (found === undefined) return;
    // No exchange session in partner mode: the record, the open cards cancelled, the user told.
    const { freezes, orders, securityNotices } = deps;
    await freezeAndCloseCards(ctx.api, { freezes, orders, securityNotices }, found.telegramId, "operator");
    await ctx.reply(ctx.t("operator-freeze-done", { user: found.user }));
  });

  desk.command("unfreeze", async (ctx) => {
    const found = await linkedUser(deps, ctx, ctx.match);
    if (found === undefined) return;
    if (!(await deps.freezes.unfreeze(found.telegramId))) {
      await ctx.reply(ctx.t("operator-unfreeze-not-frozen", { user: found.user }));
      return;
    }
    const at = deps.clock.now();
    await deps.securityNotices.tell(found.telegramId, { type: "unfreeze-scheduled", at });
    await ctx.reply(ctx.t("operator-unfreeze-done", { user: found.user }));
  });

  desk.command("pinreset", async (ctx) => {
    const found = await linkedUser(deps, ctx, ctx.match);
    if (found === undefined) return;
    await deps.partner.pins.remove(found.telegramId);
    await deps.securityNotices.tell(found.telegramId, { type: "pin-reset" });
    await ctx.reply(ctx.t("operator-pinreset-done", { user: found.user }));
  });

  desk.command("alltx", async (ctx) => {
    const { text, keyboard } = await allPage(deps, ctx, 0);
    await ctx.reply(text, { parse_mode: "HTML", reply_markup: keyboard });
  });

  desk.callbackQuery(CALLBACK.deskTxPage.pattern, async (ctx) => {
    await ctx.answerCallbackQuery();
    const { text, keyboard } = await allPage(
      deps,
      ctx,
      Math.min(CALLBACK.deskTxPage.read(ctx).page, MAX_FIELDS_PAGE),
    );
    await editInPlace(ctx, text, keyboard);
  });

  desk.command("plans", async (ctx) => {
    await plansCommand(deps, ctx, ctx.match);
  });

  desk.command("pairs", async (ctx) =>
    replyList(ctx, ctx.t("operator-pairs-title"), (await api.pairs()).items),
  );
  desk.command("currencies", async (ctx) =>
    replyList(ctx, ctx.t("operator-currencies-title"), (await api.currencies()).items),
  );
  return outer;
}

async function masterLine(
  api: PartnerServices["api"],
  ctx: PrivateContext,
  code: string,
  locale: string,
): Promise<string> {
  try {
    const { balance } = await api.masterBalance(code);
    return ctx.t("operator-master-line", { amount: formatAmount(balance, code, locale) });
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    return ctx.t("operator-master-unavailable", { currency: code.toUpperCase() });
  }
}

/** `/master alert [CODE AMOUNT|off]`: the master-balance alerts listed, set or removed. */
async function alertCommand(
  api: PartnerServices["api"],
  alerts: MasterAlerts,
  ctx: PrivateContext,
  words: string[],
): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  const [currency, amountText] = words;
  if (currency === undefined) {
    const set = await alerts.list();
    if (set.length === 0) {
      await ctx.reply(ctx.t("operator-alert-none"));
      return;
    }
    const lines = set.map((alert) => {
      const threshold = decimalFrom(alert.threshold);
      return ctx.t("operator-alert-line", {
        amount: threshold ? formatAmount(threshold, alert.currency, locale) : alert.threshold,
        state: alert.armed ? ctx.t("operator-alert-armed") : ctx.t("operator-alert-fired"),
      });
    });
    await ctx.reply([ctx.t("operator-alert-title"), ...lines].join("\n"));
    return;
  }
  const code = currency.toLowerCase();
  if (!CODE.test(code) || amountText === undefined || words.length > 2) {
    await ctx.reply(ctx.t("operator-alert-usage"));
    return;
  }
  if (["off", "aus", "delete", "remove"].includes(amountText.toLowerCase())) {
    const removed = await alerts.remove(code);
    await ctx.reply(
      removed
        ? ctx.t("operator-alert-removed", { currency: code.toUpperCase() })
        : ctx.t("operator-alert-not-set", { currency: code.toUpperCase() }),
    );
    return;
  }
  const parsed = parseAmount(amountText, code, await ctx.i18n.getLocale());
  if (!parsed.ok) {
    await ctx.reply(amountRefusalText(ctx.t, parsed));
    return;
  }
  // The currency must be one the master balance knows: read it once now.
  let balance: Big;
  try {
    balance = (await api.masterBalance(code)).balance;
  } catch (error) {
    if (error instanceof ExchangeError && (error.kind === "validation" || error.kind === "not-found")) {
      await ctx.reply(ctx.t("operator-master-unknown", { currency: code.toUpperCase() }));
      return;
    }
    throw error;
  }
  await alerts.set(code, parsed.value, ctx.from.id);
  await ctx.reply(
    ctx.t("operator-alert-set", {
      amount: formatAmount(parsed.value, code, locale),
      balance: formatAmount(balance, code, locale),
    }),
  );
}

/** `/master [CODE]`: the master balance of one currency or of every one the partner lists. */
async function masterCommand(
  deps: DeskDeps,
  alerts: MasterAlerts,
  ctx: PrivateContext,
  typed: string,
): Promise<void> {
  const words = typed.trim().split(/\s+/).filter(Boolean);
  if (words[0]?.toLowerCase() === "alert") return alertCommand(deps.partner.api, alerts, ctx, words.slice(1));
  const locale = await ctx.i18n.getLocale();
  const one = words[0]?.toLowerCase();
  if (one !== undefined && !CODE.test(one)) {
    await ctx.reply(ctx.t("operator-master-usage"));
    return;
  }
  const codes = one !== undefined ? [one] : (await deps.partner.api.currencies()).codes;
  const lines = await Promise.all(
    (codes.length > 0 ? codes : ["eur"]).map((code) => masterLine(deps.partner.api, ctx, code, locale)),
  );
  for (const text of chunkBlocks([ctx.t("operator-master-title"), lines.join("\n")])) await ctx.reply(text);
}

/** `/user ID|E-MAIL`: the partner user's fields and their Telegram id. */
async function userCommand(deps: DeskDeps, ctx: PrivateContext, words: string): Promise<void> {
  const typed = words.trim();
  const locale = await ctx.i18n.getLocale();
  let partnerUserId: number | undefined;
  if (/^\d{1,15}$/.test(typed)) partnerUserId = Number(typed);
  else if (EMAIL.test(typed)) partnerUserId = await findByEmail(deps, typed.toLowerCase());
  else {
    await ctx.reply(ctx.t("operator-user-usage"));
    return;
  }
  let user: unknown;
  try {
    user = partnerUserId === undefined ? undefined : await deps.partner.api.getUser(partnerUserId);
  } catch (error) {
    if (!(error instanceof ExchangeError && error.kind === "not-found")) throw error;
  }
  if (partnerUserId === undefined || user === undefined) {
    await ctx.reply(ctx.t("operator-user-not-found", { user: userText(typed, 64) }));
    return;
  }
  const telegramId = await deps.partner.users.telegramIdOf(partnerUserId);
  const title = ctx.t("operator-user-title", {
    id: String(partnerUserId),
    telegram: telegramId === undefined ? "—" : String(telegramId),
  });
  const options = { empty: ctx.t("partner-me-empty"), labels: PERSON_LABELS };
  for (const text of fieldMessages(ctx.t, title, user, locale, options)) {
    await ctx.reply(text, { parse_mode: "HTML" });
  }
}

function findByEmail(deps: DeskDeps, email: string): Promise<number | undefined> {
  return deps.partner.users.partnerIdByEmail(email);
}

/**
 * The Telegram user behind `/freeze USER` (a partner user id or e-mail), or undefined after
 * saying why not (a usage line, not found, no chat with this bot).
 */
async function linkedUser(
  deps: DeskDeps,
  ctx: PrivateContext,
  match: string,
): Promise<{ user: string; telegramId: number } | undefined> {
  const typed = match.trim();
  let partnerUserId: number | undefined;
  if (/^\d{1,15}$/.test(typed)) partnerUserId = Number(typed);
  else if (EMAIL.test(typed)) partnerUserId = await findByEmail(deps, typed.toLowerCase());
  else {
    await ctx.reply(ctx.t("operator-freeze-usage"));
    return undefined;
  }
  if (partnerUserId === undefined) {
    await ctx.reply(ctx.t("operator-user-not-found", { user: userText(typed, 64) }));
    return undefined;
  }
  const telegramId = await deps.partner.users.telegramIdOf(partnerUserId);
  if (telegramId === undefined) {
    await ctx.reply(ctx.t("operator-user-not-linked", { user: String(partnerUserId) }));
    return undefined;
  }
  return { user: String(partnerUserId), telegramId };
}

/** Page `page` (from 0) of every partner user's transactions: /alltx. */
async function allPage(deps: DeskDeps, ctx: PrivateContext, page: number) {
  const locale = await ctx.i18n.getLocale();
  const { items } = await deps.partner.api.allTransactions(pageQuery(page));
  return pagedFields(ctx.t, items, locale, {
    page,
    pageData: CALLBACK.deskTxPage.data,
    title: ctx.t("operator-alltx-title"),
    empty: ctx.t("operator-alltx-none"),
    // Each row in the users' own words (its kind, its state, the amount with its currency).
    lines: (item) => transactionItemLines(ctx.t, item, locale, { ids: true }),
  });
}

async function replyList(ctx: PrivateContext, title: string, payload: readonly unknown[]): Promise<void> {
  const locale = await ctx.i18n.getLocale();
  for (const text of fieldMessages(ctx.t, title, payload, locale, {
    empty: ctx.t("operator-list-empty"),
  })) {
    await ctx.reply(text, { parse_mode: "HTML" });
  }
}

/** `/plans [ID|E-MAIL]`: every recurring plan and its recent runs, or one user's. */
async function plansCommand(deps: DeskDeps, ctx: PrivateContext, words: string): Promise<void> {
  const typed = words.trim();
  const locale = await ctx.i18n.getLocale();
  const now = deps.clock.now();
  const runs = await deps.plans.recentRuns(now);
  if (typed === "") {
    const all = await deps.plans.all();
    for (const text of chunkBlocks(deskPlansText(ctx.t, all, runs, locale))) await ctx.reply(text);
    return;
  }
  const partnerUserId = /^\d{1,15}$/.test(typed)
    ? Number(typed)
    : EMAIL.test(typed)
      ? await findByEmail(deps, typed.toLowerCase())
      : undefined;
  const telegramId =
    partnerUserId === undefined ? undefined : await deps.partner.users.telegramIdOf(partnerUserId);
  if (partnerUserId === undefined || telegramId === undefined) {
    await ctx.reply(ctx.t("operator-user-not-found", { user: userText(typed, 64) }));
    return;
  }
  const plans = await deps.plans.list(telegramId);
  const theirs = runs.filter((run) => run.userId === telegramId);
  const text = deskUserPlansText(ctx.t, { partnerUserId, telegramId }, plans, theirs, locale);
  for (const chunk of chunkBlocks(text)) await ctx.reply(chunk);
}
