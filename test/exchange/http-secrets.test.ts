/**
 * SECURITY.md, rule 2: passwords, 2FA codes and tokens never appear in errors. The server here is
 * as careless as it gets: it echoes the whole request (body, headers, URL) back in its answer.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeError } from "../../src/exchange/errors.ts";
import { HttpClient, type HttpRequest } from "../../src/exchange/http.ts";
import {
  closedPortUrl,
  drop,
  echo,
  html,
  json,
  type RawServer,
  type Responder,
  startRawServer,
  truncated,
} from "../support/raw-server.ts";

const PASSWORD = "hunter2-secret";
const CODE = "123456";
const CLIENT_SECRET = "cs-secret";
const TOKEN = "tok-secret";
const SECRETS = [PASSWORD, CODE, CLIENT_SECRET, TOKEN];

const login: HttpRequest = {
  method: "POST",
  path: "/v1/auth/login",
  body: {
    email: "me@example.com",
    password: PASSWORD,
    security_code: CODE,
    client_id: 7,
    client_secret: CLIENT_SECRET,
  },
  token: TOKEN,
};

const servers: RawServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function failWith(
  baseUrlOrResponder: string | Responder,
  request: HttpRequest,
): Promise<ExchangeError> {
  let baseUrl: string;
  if (typeof baseUrlOrResponder === "string") {
    baseUrl = baseUrlOrResponder;
  } else {
    const server = await startRawServer(baseUrlOrResponder);
    servers.push(server);
    baseUrl = server.url;
  }
  const http = new HttpClient({ baseUrl, retries: 0, timeoutMs: 5_000 });
  clients.push(http);
  try {
    await http.request(request);
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected the request to fail");
}

/** Every way an error ends up as text: a log line, a reply, a crash report. */
function renderings(error: ExchangeError): Record<string, string> {
  return {
    inspect: inspect(error, { depth: 10 }),
    string: String(error),
    json: JSON.stringify(error),
    message: error.message,
    stack: error.stack ?? "",
    cause: inspect(error.cause, { depth: 10 }),
    causeJson: JSON.stringify(error.cause) ?? "",
    body: JSON.stringify(error.body) ?? "",
    fieldErrors: JSON.stringify(error.fieldErrors),
  };
}

function expectNoSecrets(error: ExchangeError, secrets: string[] = SECRETS) {
  for (const [where, rendered] of Object.entries(renderings(error))) {
    for (const secret of secrets) {
      expect(rendered.includes(secret), `${where} contains ${secret}`).toBe(false);
    }
  }
}

describe("secrets never reach an ExchangeError", () => {
  it("proves the server really echoes the secrets (so the checks below mean something)", async () => {
    const error = await failWith(echo(422), login);
    // What the client kept is the echo with the secrets cut out.
    expect(error.body).toMatchObject({
      method: "POST",
      url: "/v1/auth/login",
      body: { email: "me@example.com", password: "[redacted]", client_secret: "[redacted]" },
      headers: { authorization: "Bearer [redacted]" },
    });
    expect(error.fieldErrors.echo?.[0]).toContain("[redacted]");
  });

  it.each<[string, Responder]>([
    ["a 422 JSON echo", echo(422)],
    ["a 500 JSON echo", echo(500)],
    ["a 401 JSON echo", echo(401)],
    ["a 200 HTML echo", echo(200, "html")],
    ["a 502 HTML echo", echo(502, "html")],
  ])("%s", async (_label, responder) => {
    const error = await failWith(responder, login);
    expect(JSON.stringify(error.body)).toContain("[redacted]");
    expectNoSecrets(error);
  });

  it("a GET whose query and caller-named secrets are echoed", async () => {
    const iban = "DE89370400440532013000";
    const error = await failWith(echo(422), {
      method: "GET",
      path: "/v1/fees/send",
      query: { iban, token: "query-token-secret" },
      token: TOKEN,
      secrets: [iban],
    });
    expect(error.body).toMatchObject({ url: expect.stringContaining("[redacted]") });
    expectNoSecrets(error, [TOKEN, iban, "query-token-secret"]);
  });

  it("a 2FA code sent as a number and echoed back as a JSON number", async () => {
    // v1/send and v1/fiat-withdrawal send security_code as an integer: the exchange's API reference types it so.
    const error = await failWith(echo(422), {
      method: "POST",
      path: "/v1/send",
      body: { amount: "0.5", address: "bc1q-somewhere", currency_code: "btc", security_code: 654321 },
      token: TOKEN,
      secrets: ["654321"],
    });
    expectNoSecrets(error, [TOKEN, "654321"]);
  });

  it("a secret the server returns in a field of its own, as a string or a number", async () => {
    const error = await failWith(
      json(422, {
        message: `The code ${CODE} is wrong.`,
        errors: { security_code: [`The security code ${CODE} is invalid.`] },
        input: { security_code: Number(CODE), password: PASSWORD, nested: [{ secret: CLIENT_SECRET }] },
      }),
      login,
    );
    expect(error.fieldErrors).toEqual({ security_code: ["The security code [redacted] is invalid."] });
    expectNoSecrets(error);
  });

  it("a secret that straddles the end of the part of a text body that is kept", async () => {
    // Only the first 1,000 characters of a non-JSON body are kept: no piece of a secret may survive.
    for (const padding of [990, 995, 999]) {
      const error = await failWith(html(200, `${"x".repeat(padding)}${PASSWORD} and more`), login);
      expect(error.kind).toBe("bad-response");
      expect(String(error.body)).not.toMatch(/hunte/);
      const errorSrv = await failWith(html(500, `${"x".repeat(padding)}${PASSWORD} and more`), login);
      expect(String(errorSrv.body)).not.toMatch(/hunte/);
    }
  });

  it("a network error: connection refused", async () => {
    const error = await failWith(await closedPortUrl(), login);
    expect(error.kind).toBe("network");
    expectNoSecrets(error);
  });

  it("a network error: connection dropped", async () => {
    const error = await failWith(drop(), login);
    expect(error.kind).toBe("network");
    expectNoSecrets(error);
  });

  it("a body cut off after the secret was half echoed", async () => {
    const error = await failWith(truncated(200, `{"password":"${PASSWORD}","token":"${TOKEN}`), login);
    expect(error.kind).toBe("network");
    expectNoSecrets(error);
  });
});
