import { AccountApi, type AccountSession } from "../../src/exchange/account.ts";
import { HttpClient } from "../../src/exchange/http.ts";
import { PartnerApi } from "../../src/exchange/partner.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.ts";
import { ManualClock } from "../../src/support/clock.ts";

/** 10 s into a 30 s TOTP step, so "the previous step" is unambiguous. */
export const START = Date.parse("2026-03-10T12:00:10Z");

export interface Harness {
  sandbox: Sandbox;
  clock: ManualClock;
  http: HttpClient;
  api: AccountApi;
  partner: PartnerApi;
  login(email?: string, password?: string): Promise<AccountSession>;
  close(): Promise<void>;
}

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
  const clock = new ManualClock(START);
  const sandbox = await startSandbox({ clock, ...options });
  // No retries: the tests look at what the sandbox answered, not at the client's policy.
  const http = new HttpClient({ baseUrl: sandbox.url, retries: 0, timeoutMs: 5_000 });
  const api = new AccountApi(http, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
  const partner = new PartnerApi(http, sandbox.partnerToken);
  return {
    sandbox,
    clock,
    http,
    api,
    partner,
    async login(email = sandbox.demo.email, password = sandbox.demo.password) {
      const session = await api.login({ email, password, securityCode: sandbox.currentCode(email) });
      return api.session(session.access_token);
    },
    async close() {
      await http.close();
      await sandbox.close();
    },
  };
}

export { failure } from "../support/failure.ts";

/** Body of a plain-fetch reply: tests read whatever shape the route answers. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON shapes
export type Json = any;

/** Plain fetch with JSON, for the shapes the typed client does not expose. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export async function loginToken(sandbox: Sandbox, email = sandbox.demo.email): Promise<string> {
  const password = email === sandbox.demo.email ? sandbox.demo.password : "business-password-1";
  const reply = await call(sandbox, "POST", "/v1/auth/login", {
    body: {
      email,
      password,
      security_code: sandbox.currentCode(email),
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
    },
  });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.access_token as string;
}
