/**
 * The little web framework of the sandbox: replies, Laravel-shaped errors, input checks and the
 * two timestamp formats of the exchange's API. Laravel is the model because the real exchange's error
 * bodies look like it: `{message, errors: {field: [sentences]}}` with 422 for bad input.
 */
import Big from "big.js";
import { decimalFrom } from "../domain/money.ts";

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

/** Thrown by handlers; the server turns it into the reply it carries. */
export class HttpError extends Error {
  readonly reply: Reply;
  constructor(status: number, body: Record<string, unknown>, headers?: Record<string, string>) {
    super(typeof body.message === "string" ? body.message : `HTTP ${status}`);
    this.reply = json(body, status, headers);
  }
}

export function notFound(message = "Not Found."): HttpError {
  return new HttpError(404, { message });
}

/** Laravel's answer for a route-model binding that finds nothing. */
export function modelNotFound(model: string, id: string | number): HttpError {
  return new HttpError(404, { message: `No query results for model [App\\Models\\${model}] ${id}` });
}

export function unauthenticated(): HttpError {
  return new HttpError(401, { message: "Unauthenticated." });
}

/** Laravel's summary line: the first message, plus how many more there are. */
export function validationError(errors: Record<string, string[]>): HttpError {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? "The given data was invalid.";
  const more = messages.length - 1;
  const message = more > 0 ? `${first} (and ${more} more error${more > 1 ? "s" : ""})` : first;
  return new HttpError(422, { message, errors });
}

/** One field, one sentence: the common case of a business rule refusing an order. */
export function refuse(field: string, sentence: string): HttpError {
  return validationError({ [field]: [sentence] });
}

/** `currency_code` → `currency code`, as Laravel writes attribute names in its sentences. */
export function attribute(field: string): string {
  return field.replace(/_/g, " ");
}

export type Input = Record<string, unknown>;

/**
 * Collects every problem of a request before answering, as Laravel's validator does, so a
 * client sees all its mistakes at once.
 */
export class Checks {
  readonly errors: Record<string, string[]> = {};
  readonly #input: Input;

  constructor(input: Input) {
    this.#input = input;
  }

  add(field: string, sentence: string): void {
    const list = this.errors[field] ?? [];
    list.push(sentence);
    this.errors[field] = list;
  }

  has(field: string): boolean {
    return (this.errors[field]?.length ?? 0) > 0;
  }

  #present(field: string): unknown {
    const value = this.#input[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string" && value.trim() === "") return undefined;
    return value;
  }

  /** `required|string|max:255` */
  string(field: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.#present(field);
    if (value === undefined) {
      if (options.required !== false) this.add(field, `The ${attribute(field)} field is required.`);
      return undefined;
    }
    if (typeof value !== "string") {
      this.add(field, `The ${attribute(field)} field must be a string.`);
      return undefined;
    }
    const max = options.max ?? 255;
    if (value.length > max) {
      this.add(field, `The ${attribute(field)} field must not be greater than ${max} characters.`);
      return undefined;
    }
    return value.trim();
  }

  /** `required|in:...`, compared without regard to case (codes are lower-case in the spec). */
  oneOf<T extends string>(
    field: string,
    allowed: readonly T[],
    options: { required?: boolean } = {},
  ): T | undefined {
    const value = this.#present(field);
    if (value === undefined) {
      if (options.required !== false) this.add(field, `The ${attribute(field)} field is required.`);
      return undefined;
    }
    const text = typeof value === "string" ? value.trim().toLowerCase() : "";
    const found = allowed.find((a) => a === text);
    if (found === undefined) this.add(field, `The selected ${attribute(field)} is invalid.`);
    return found;
  }

  /** `required|numeric|gt:0|decimal:0,N`: a JSON number or a numeric string, kept exact. */
  amount(field: string, decimals: number, options: { required?: boolean } = {}): Big | undefined {
    const value = this.#present(field);
    if (value === undefined) {
      if (options.required !== false) this.add(field, `The ${attribute(field)} field is required.`);
      return undefined;
    }
    const parsed = decimalFrom(value);
    if (parsed === undefined) {
      this.add(field, `The ${attribute(field)} field must be a number.`);
      return undefined;
    }
    if (parsed.lte(0)) {
      this.add(field, `The ${attribute(field)} field must be greater than 0.`);
      return undefined;
    }
    if (!parsed.round(decimals, Big.roundDown).eq(parsed)) {
      this.add(field, `The ${attribute(field)} field must have 0-${decimals} decimal places.`);
      return undefined;
    }
    if (parsed.gt("1e12")) {
      this.add(field, `The ${attribute(field)} field must not be greater than 1000000000000.`);
      return undefined;
    }
    return parsed;
  }

  /** `required|integer|min:0` */
  integer(
    field: string,
    options: { required?: boolean; min?: number; max?: number } = {},
  ): number | undefined {
    const value = this.#present(field);
    if (value === undefined) {
      if (options.required === true) this.add(field, `The ${attribute(field)} field is required.`);
      return undefined;
    }
    const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
    if (!Number.isInteger(n)) {
      this.add(field, `The ${attribute(field)} field must be an integer.`);
      return undefined;
    }
    if (options.min !== undefined && n < options.min) {
      this.add(field, `The ${attribute(field)} field must be at least ${options.min}.`);
      return undefined;
    }
    if (options.max !== undefined && n > options.max) {
      this.add(field, `The ${attribute(field)} field must not be greater than ${options.max}.`);
      return undefined;
    }
    return n;
  }

  /** Throws the 422 if anything was wrong. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw validationError(this.errors);
  }
}

// ── Time formats ────────────────────────────────────────────────────────────────────────────────

/** `2026-01-01 12:00:00.123`: the spec's "datetime with milliseconds, no zone" (UTC here). */
export function dateTimeMs(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

/** `2026-01-01T12:00:00.000000Z`: how Laravel serializes a model's timestamps. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Money leaves as a fixed-point string with the currency's decimals. */
export function fixed(value: Big, decimals: number): string {
  return value.toFixed(decimals);
}

/** For the fields the spec types as numbers: exact text first, then the nearest double. */
export function num(value: Big): number {
  return Number(value.toFixed());
}
