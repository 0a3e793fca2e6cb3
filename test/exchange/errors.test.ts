import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ExchangeError,
  type ExchangeErrorKind,
  kindForStatus,
  readErrorBody,
  refusalOf,
} from "../../src/exchange/errors.ts";
import { parseResponse } from "../../src/exchange/parse.ts";

describe("kindForStatus", () => {
  it.each<[number, ExchangeErrorKind]>([
    [401, "unauthenticated"],
    [403, "forbidden"],
    [404, "not-found"],
    [422, "validation"],
    [429, "rate-limited"],
    [500, "server"],
    [502, "server"],
    [503, "server"],
    [504, "server"],
    [599, "server"],
    [400, "http"],
    [405, "http"],
    [409, "http"],
    [418, "http"],
    [302, "http"],
  ])("%i is %s", (status, kind) => {
    expect(kindForStatus(status)).toBe(kind);
  });
});

describe("readErrorBody", () => {
  it("reads Laravel's message and field errors", () => {
    expect(
      readErrorBody({
        message: "The given data was invalid.",
        errors: { amount: ["Too small.", "Not a number."], iban: ["Invalid."] },
      }),
    ).toEqual({
      message: "The given data was invalid.",
      fieldErrors: { amount: ["Too small.", "Not a number."], iban: ["Invalid."] },
    });
    expect(readErrorBody({ message: "Unauthenticated." })).toEqual({
      message: "Unauthenticated.",
      fieldErrors: {},
    });
  });

  it("falls back to `error` when there is no `message`", () => {
    expect(readErrorBody({ error: "x" })).toEqual({ message: "x", fieldErrors: {} });
    expect(readErrorBody({ message: "m", error: "e" }).message).toBe("m");
  });

  it("tolerates field errors that are not lists of strings", () => {
    expect(
      readErrorBody({ errors: { a: "one", b: [1, "two", null, { x: 1 }], c: null } }).fieldErrors,
    ).toEqual({
      a: ["one"],
      b: ["two"],
      c: [],
    });
    expect(readErrorBody({ errors: ["a list, not a map"] }).fieldErrors).toEqual({});
    expect(readErrorBody({ errors: "a string" }).fieldErrors).toEqual({});
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "Server Error"],
    ["a number", 500],
    ["an array", [{ message: "inside an array" }]],
    ["an object with a non-string message", { message: { text: "x" }, error: 5 }],
  ])("gives no message and no field errors for %s", (_label, body) => {
    expect(readErrorBody(body)).toEqual({ message: undefined, fieldErrors: {} });
  });
});

describe("refusalOf", () => {
  const refused = (
    kind: ExchangeErrorKind,
    status: number,
    more: { fieldErrors?: Record<string, string[]>; body?: unknown } = {},
  ) => new ExchangeError("refused", { kind, method: "POST", path: "/x", status, ...more });

  it("keeps the exchange's first field message for the ledger, and a code for the person's sentence", () => {
    const error = refused("validation", 422, {
      fieldErrors: { iban: ["The iban is invalid."] },
      body: { message: "Nope" },
    });
    expect(refusalOf(error)).toEqual({ code: "details", said: "The iban is invalid." });
  });

  it("falls back to the body's message, then the status", () => {
    expect(refusalOf(refused("http", 400, { body: { message: "Bad Request" } })).said).toBe("Bad Request");
    expect(refusalOf(refused("http", 409)).said).toBe("HTTP 409");
  });

  it("tells a forbidden refusal apart", () => {
    expect(refusalOf(refused("forbidden", 403)).code).toBe("forbidden");
  });
});

describe("ExchangeError", () => {
  it("is an Error that carries what the caller needs", () => {
    const error = new ExchangeError("POST /v1/buy: 422 The given data was invalid.", {
      kind: "validation",
      method: "POST",
      path: "/v1/buy",
      status: 422,
      requestId: "r-1",
      fieldErrors: { amount: ["Too small."] },
      body: { message: "The given data was invalid." },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ExchangeError");
    expect(error.message).toBe("POST /v1/buy: 422 The given data was invalid.");
    expect(error).toMatchObject({
      kind: "validation",
      method: "POST",
      path: "/v1/buy",
      status: 422,
      requestId: "r-1",
      fieldErrors: { amount: ["Too small."] },
      retryAfterMs: undefined,
    });
    expect(error.cause).toBeUndefined();
    expect(String(error)).toBe("ExchangeError: POST /v1/buy: 422 The given data was invalid.");
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ kind: "validation", status: 422 });
  });

  it("defaults fieldErrors to an empty map and keeps a sanitized cause", () => {
    const cause = { name: "SocketError", code: "UND_ERR_SOCKET", message: "other side closed" };
    const error = new ExchangeError("GET /v1/balance: could not reach the exchange", {
      kind: "network",
      method: "GET",
      path: "/v1/balance",
      cause,
    });
    expect(error.fieldErrors).toEqual({});
    expect(error.status).toBeUndefined();
    expect(error.cause).toEqual(cause);
    expect(inspect(error)).toContain("UND_ERR_SOCKET");
  });

  it.each<[ExchangeErrorKind, boolean]>([
    ["timeout", true],
    ["network", true],
    ["server", true],
    ["unauthenticated", false],
    ["forbidden", false],
    ["not-found", false],
    ["validation", false],
    ["rate-limited", false],
    ["bad-response", false],
    ["http", false],
  ])("a %s error has outcomeUnknown %s", (kind, unknown) => {
    const error = new ExchangeError("x", { kind, method: "POST", path: "/v1/send" });
    expect(error.outcomeUnknown).toBe(unknown);
  });
});

describe("parseResponse", () => {
  const balance = z.object({
    balance: z.string(),
    owner: z.object({ iban: z.string(), tier: z.enum(["basic"]) }),
    items: z.array(z.object({ price: z.number() })),
  });

  it("returns the parsed body when it has the expected shape", () => {
    const data = { balance: "12.50", owner: { iban: "DE89", tier: "basic" }, items: [{ price: 1.5 }] };
    expect(parseResponse(balance, { status: 200, data, requestId: undefined }, "GET", "/v1/balance")).toEqual(
      data,
    );
  });

  it("throws bad-response naming the wrong fields, never their values", () => {
    const secretish = "DE89370400440532013000";
    const data = {
      balance: 12.5,
      owner: { iban: Number(secretish.slice(2)), tier: "platinum-personal-value" },
      items: [{ price: 1 }, { price: "not-a-price-value" }],
    };
    let thrown: unknown;
    try {
      parseResponse(balance, { status: 200, data, requestId: "r-9" }, "GET", "/v1/balance");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ExchangeError);
    const error = thrown as ExchangeError;
    expect(error).toMatchObject({
      kind: "bad-response",
      method: "GET",
      path: "/v1/balance",
      status: 200,
      requestId: "r-9",
    });
    for (const field of ["balance", "owner.iban", "owner.tier", "items.1.price"]) {
      expect(error.message).toContain(field);
    }
    expect(error.message).not.toContain("items.0");
    expect(error.cause).toMatchObject({ name: "SchemaMismatch" });
    const rendered = [inspect(error, { depth: 10 }), String(error), JSON.stringify(error), error.stack ?? ""];
    for (const text of rendered) {
      for (const value of ["12.5", secretish.slice(2), "platinum-personal-value", "not-a-price-value"]) {
        expect(text).not.toContain(value);
      }
    }
    expect(error.body).toBeUndefined();
  });

  it("names the body itself when the whole answer has the wrong type", () => {
    for (const data of [null, "Server Error", [1, 2]]) {
      let thrown: unknown;
      try {
        parseResponse(balance, { status: 200, data, requestId: undefined }, "GET", "/v1/balance");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ExchangeError);
      expect((thrown as ExchangeError).kind).toBe("bad-response");
      expect((thrown as ExchangeError).message).toContain("(body)");
      expect((thrown as ExchangeError).message).not.toContain("Server Error");
    }
  });
});
