/**
 * Every error ends here: exchange errors become a localized sentence (with a reference id that
 * is also in the log line), "not logged in" becomes a Log in button, a store that is down says
 * nothing was done, anything else a generic apology. Nothing crashes the process, and nothing secret is logged (ExchangeError holds none).
 */
import { randomBytes } from "node:crypto";
import type { BotError } from "grammy";
import type { Translate } from "../../domain/translate.ts";
import { ExchangeError, refusalOf } from "../../exchange/errors.ts";
import { NotLoggedInError } from "../../session/errors.ts";
import { StoreUnavailableError } from "../../store/errors.ts";
import type { Logger } from "../../support/logger.ts";
import type { BotContext } from "../context.ts";
import { negotiateChosenLocale } from "../i18n.ts";
import { loginKeyboard } from "../ui/keyboards.ts";
import type { UpdateObserver } from "./update-logger.ts";

export function errorReference(): string {
  return randomBytes(4).toString("hex").toUpperCase();
}

/** The sentence for an exchange error; `ref` ties it to the log line. */
export function exchangeErrorText(t: Translate, error: ExchangeError, ref: string): string {
  switch (error.kind) {
    case "network":
      return t("error-exchange-network", { ref });
    case "timeout":
      return t("error-exchange-timeout", { ref });
    case "rate-limited":
      return t("error-exchange-rate-limited", { seconds: Math.ceil((error.retryAfterMs ?? 60_000) / 1000) });
    case "server":
      return t("error-exchange-server", { ref });
    case "validation":
    case "http":
      // The exchange documents no error body: what it says (often just the HTTP reason phrase,
      // in English) is for the log, the user gets a sentence in their language.
      return t("error-exchange-refused", { ref });
    case "not-found":
      return t("error-exchange-not-found");
    case "forbidden":
      return t("error-exchange-forbidden");
    case "unauthenticated":
      return t("session-expired");
    case "bad-response":
      return t("error-exchange-bad-response", { ref });
  }
}

/**
 * Why the exchange refused, in the user's language. The exchange documents no error body, and
 * what it sends (a field message in English, or just the HTTP reason phrase) is for the log: a
 * user reads a sentence of their own locale, never "Unprocessable Entity".
 */
export function refusalWords(t: Translate, error: ExchangeError): string {
  return t(refusalKey(error));
}

/** The sentence's key of `refusalWords`, for an outcome worded later (a conversation's step). */
export function refusalKey(error: ExchangeError): "exchange-refused-forbidden" | "exchange-refused-details" {
  return refusalOf(error).code === "forbidden" ? "exchange-refused-forbidden" : "exchange-refused-details";
}

/** The error's kind for metrics (UpdateObserver.updateFailed): a small fixed set. */
export function errorKind(error: unknown): string {
  if (error instanceof NotLoggedInError) return "not-logged-in";
  if (error instanceof ExchangeError) return `exchange-${error.kind}`;
  if (error instanceof StoreUnavailableError) return "store-unavailable";
  return "other";
}

export function createErrorHandler(log: Logger, observer?: Pick<UpdateObserver, "updateFailed">) {
  return async (err: BotError<BotContext>): Promise<void> => {
    const { ctx, error } = err;
    observer?.updateFailed(errorKind(error));
    // In the language the user chose, also when the update failed before its lease (bot.ts).
    // A profile that cannot be read leaves the client's language (the negotiator's own fallback).
    await negotiateChosenLocale(ctx).catch(() => undefined);
    const ref = errorReference();
    const updateId = ctx.update.update_id;
    let text: string;
    let withLogin = false;
    if (error instanceof NotLoggedInError) {
      text = ctx.t(error.reason === "expired" ? "session-expired" : "login-required");
      withLogin = true;
      log.info({ ref, updateId, reason: error.reason }, "not logged in");
    } else if (error instanceof ExchangeError) {
      text = exchangeErrorText(ctx.t, error, ref);
      withLogin = error.kind === "unauthenticated";
      log.warn(
        {
          ref,
          updateId,
          kind: error.kind,
          status: error.status,
          method: error.method,
          path: error.path,
          requestId: error.requestId,
        },
        "exchange error",
      );
    } else if (error instanceof StoreUnavailableError) {
      // Nothing was done (the store fails closed): the user may simply try again.
      text = ctx.t("error-store-unavailable", { ref });
      log.error({ ref, updateId, err: error }, "store unavailable");
    } else {
      text = ctx.t("error-generic", { ref });
      log.error({ ref, updateId, err: error }, "unhandled error in update");
    }
    try {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
      if (ctx.chat) await ctx.reply(text, withLogin ? { reply_markup: loginKeyboard(ctx.t) } : {});
    } catch (replyError) {
      log.warn({ ref, err: replyError }, "could not tell the user about an error");
    }
  };
}
