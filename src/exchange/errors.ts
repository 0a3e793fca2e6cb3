/**
 * One error type for everything that can go wrong talking to the exchange, with a `kind` that
 * says what the caller can do about it. The exchange does not specify its error bodies:
 * Laravel-style bodies are read for their message and field errors, anything else (HTML, empty,
 * truncated) still becomes a well-formed ExchangeError.
 *
 * Nothing secret is ever kept here: no request body, no headers, and any secret value the request
 * carried is cut out of the response text before it is stored.
 *
 * @example
 * try { await account.buy({ amount, currencyCode: "btc" }); }
 * catch (error) {
 *   if (error instanceof ExchangeError && error.kind === "validation") console.log(error.fieldErrors);
 * }
 */
export type ExchangeErrorKind =
  /** No answer: refused, reset or dropped connection, DNS failure. */
  | "network"
  /** Our own deadline passed (connect or total). A POST that timed out may or may not have happened. */
  | "timeout"
  /** 401: the token is missing, wrong or expired; log in again. */
  | "unauthenticated"
  /** 403 */
  | "forbidden"
  /** 404 */
  | "not-found"
  /** 422: the exchange refused the input; `fieldErrors` says why per field. */
  | "validation"
  /** 429: wait `retryAfterMs` before asking again. */
  | "rate-limited"
  /** 5xx */
  | "server"
  /** A success status with a body that is not JSON or not the documented shape. */
  | "bad-response"
  /** Any other 4xx. */
  | "http";

export interface ExchangeErrorDetails {
  kind: ExchangeErrorKind;
  method: string;
  /** The path without its query: queries can carry personal data (an IBAN). */
  path: string;
  status?: number;
  requestId?: string;
  /** Laravel's `errors`: field name to messages. Empty when the body had none. */
  fieldErrors?: Record<string, string[]>;
  retryAfterMs?: number;
  /** The parsed response body (or up to 1,000 characters of its text), secrets cut out. */
  body?: unknown;
  /** A sanitized description of the low-level failure (network errors, schema mismatches). */
  cause?: { name: string; code?: string; message: string };
}

export class ExchangeError extends Error {
  override readonly name = "ExchangeError";
  readonly kind: ExchangeErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly fieldErrors: Record<string, string[]>;
  readonly retryAfterMs: number | undefined;
  readonly body: unknown;

  constructor(message: string, details: ExchangeErrorDetails) {
    super(message, details.cause ? { cause: details.cause } : undefined);
    this.kind = details.kind;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.requestId = details.requestId;
    this.fieldErrors = details.fieldErrors ?? {};
    this.retryAfterMs = details.retryAfterMs;
    this.body = details.body;
  }

  /** True when the request may have reached the exchange and changed something there. */
  get outcomeUnknown(): boolean {
    return this.kind === "timeout" || this.kind === "network" || this.kind === "server";
  }
}

/**
 * What a refusal was, decided once for everyone who tells it: `code` for whoever words it for a
 * person (bot/: a sentence of their locale), `said` the exchange's own words (the first field
 * message, else its message, else the status) for the ledger and the log only: the exchange
 * documents no error body, and what it sends is English or an HTTP reason phrase.
 */
export function refusalOf(error: ExchangeError): { code: "forbidden" | "details"; said: string } {
  const code = error.kind === "forbidden" ? "forbidden" : "details";
  const fieldMessage = Object.values(error.fieldErrors).flat()[0];
  if (fieldMessage) return { code, said: fieldMessage };
  const body = error.body as { message?: unknown } | undefined;
  if (typeof body?.message === "string" && body.message) return { code, said: body.message };
  return { code, said: `HTTP ${error.status ?? "?"}` };
}

export function kindForStatus(status: number): ExchangeErrorKind {
  if (status === 401) return "unauthenticated";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 422) return "validation";
  if (status === 429) return "rate-limited";
  if (status >= 500) return "server";
  return "http";
}

/** Reads `{message, errors}` from a Laravel-style body; tolerates any other shape. */
export function readErrorBody(body: unknown): {
  message: string | undefined;
  fieldErrors: Record<string, string[]>;
} {
  const fieldErrors: Record<string, string[]> = {};
  if (typeof body !== "object" || body === null) {
    return { message: undefined, fieldErrors };
  }
  const record = body as Record<string, unknown>;
  const message =
    typeof record.message === "string"
      ? record.message
      : typeof record.error === "string"
        ? record.error
        : undefined;
  const errors = record.errors;
  if (typeof errors === "object" && errors !== null && !Array.isArray(errors)) {
    for (const [field, value] of Object.entries(errors)) {
      const list = Array.isArray(value) ? value : [value];
      fieldErrors[field] = list.filter((m): m is string => typeof m === "string");
    }
  }
  return { message, fieldErrors };
}
