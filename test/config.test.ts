import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, loadStoreConfig } from "../src/config/config.ts";

const KEY = Buffer.alloc(32, 7).toString("base64");
const base = {
  BOT_TOKEN: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abc",
  EXCHANGE_API_URL: "https://exchange.example/",
  EXCHANGE_CLIENT_ID: "7",
  EXCHANGE_CLIENT_SECRET: "s3cret",
  SECRETS_KEY: KEY,
};

function refusal(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("reads a complete environment with the documented defaults", () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      telegramApiRoot: "https://api.telegram.org",
      exchange: { url: "https://exchange.example", clientId: 7, clientSecret: "s3cret" },
      storeUrl: "sqlite://data/bot.sqlite",
      botMode: "polling",
      port: 8080,
      defaultLocale: "en",
      logLevel: "info",
      shutdownTimeoutMs: 25_000,
      cooling: { defaultHours: 24, minimumHours: 1 },
      allowlistDefault: true,
      unfreezeDelayMs: 3_600_000,
    });
    expect(loadConfig({ ...base, SHUTDOWN_TIMEOUT_SECONDS: "8" }).shutdownTimeoutMs).toBe(8_000);
    expect(
      loadConfig({ ...base, SAFETY_COOLING_OFF_HOURS: "48", SAFETY_COOLING_OFF_MIN_HOURS: "12" }).cooling,
    ).toEqual({ defaultHours: 48, minimumHours: 12 });
    expect(loadConfig({ ...base, UNFREEZE_DELAY_MINUTES: "15" }).unfreezeDelayMs).toBe(900_000);
    expect(loadConfig({ ...base, SAFETY_ALLOWLIST_DEFAULT: "off" }).allowlistDefault).toBe(false);
    expect(loadConfig({ ...base, SAFETY_ALLOWLIST_DEFAULT: "on" }).allowlistDefault).toBe(true);
  });

  it.each([
    ["BOT_TOKEN", { BOT_TOKEN: undefined }],
    ["BOT_TOKEN", { BOT_TOKEN: "nonsense" }],
    ["BOT_TOKEN", { BOT_TOKEN: "123456789:replace-with-your-token-from-botfather" }],
    ["EXCHANGE_CLIENT_SECRET", { EXCHANGE_CLIENT_SECRET: "replace-me" }],
    ["EXCHANGE_API_URL", { EXCHANGE_API_URL: undefined }],
    ["EXCHANGE_API_URL", { EXCHANGE_API_URL: "exchange.example" }],
    ["EXCHANGE_CLIENT_ID", { EXCHANGE_CLIENT_ID: "seven" }],
    ["EXCHANGE_CLIENT_SECRET", { EXCHANGE_CLIENT_SECRET: "" }],
    ["SECRETS_KEY", { SECRETS_KEY: undefined }],
    ["SECRETS_KEY", { SECRETS_KEY: "c2hvcnQ=" }],
    ["STORE_URL", { STORE_URL: "mysql://x" }],
    ["BOT_MODE", { BOT_MODE: "push" }],
    ["WEBHOOK_SECRET", { BOT_MODE: "webhook", WEBHOOK_URL: "https://bot.example/hook" }],
    ["WEBHOOK_URL", { BOT_MODE: "webhook", WEBHOOK_SECRET: "abc" }],
    ["PORT", { PORT: "99999" }],
    ["METRICS_PORT", { METRICS_PORT: "on" }],
    ["METRICS_PORT", { METRICS_PORT: "70000" }],
    ["METRICS_HOST", { METRICS_PORT: "9464", METRICS_HOST: "http://0.0.0.0" }],
    ["DEFAULT_LOCALE", { DEFAULT_LOCALE: "fr" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["SHUTDOWN_TIMEOUT_SECONDS", { SHUTDOWN_TIMEOUT_SECONDS: "0" }],
    ["SHUTDOWN_TIMEOUT_SECONDS", { SHUTDOWN_TIMEOUT_SECONDS: "2.5" }],
    ["SAFETY_COOLING_OFF_MIN_HOURS", { SAFETY_COOLING_OFF_MIN_HOURS: "0" }],
    ["SAFETY_COOLING_OFF_HOURS", { SAFETY_COOLING_OFF_HOURS: "73" }],
    ["SAFETY_COOLING_OFF_HOURS", { SAFETY_COOLING_OFF_HOURS: "6", SAFETY_COOLING_OFF_MIN_HOURS: "12" }],
    ["SAFETY_ALLOWLIST_DEFAULT", { SAFETY_ALLOWLIST_DEFAULT: "false" }],
    ["SAFETY_ALLOWLIST_DEFAULT", { SAFETY_ALLOWLIST_DEFAULT: "ON" }],
    ["UNFREEZE_DELAY_MINUTES", { UNFREEZE_DELAY_MINUTES: "0" }],
    ["UNFREEZE_DELAY_MINUTES", { UNFREEZE_DELAY_MINUTES: "1h" }],
    ["WEBAPP_URL", { WEBAPP_URL: "bot.example.com" }],
    ["WEBAPP_URL", { WEBAPP_URL: "http://bot.example.com" }],
    ["WEBAPP_URL", { WEBAPP_URL: "https://bot.example.com/?x=1" }],
    ["WEBAPP_URL", { WEBAPP_URL: "ftp://127.0.0.1" }],
  ])("names %s in one sentence when it is missing or malformed", (variable, change) => {
    const error = refusal({ ...base, ...change });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message.trim().split(/(?<=\.)\s+(?=[A-Z])/)).toHaveLength(1);
  });

  it("serves no metrics unless METRICS_PORT is set, and then on loopback unless METRICS_HOST says otherwise", () => {
    expect(loadConfig(base).metrics).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(loadConfig({ ...base, METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      port: 9464,
      host: "0.0.0.0",
    });
  });

  it("never repeats a secret value in its sentence", () => {
    const error = refusal({ ...base, BOT_TOKEN: "123:short-secret-token" });
    expect(error.message).not.toContain("short-secret-token");
  });

  it("lets the demo run without a bot token or secrets key", () => {
    const config = loadConfig({ ...base, BOT_TOKEN: undefined, SECRETS_KEY: undefined }, { purpose: "demo" });
    expect(config.botToken).toBeUndefined();
  });

  it("accepts webhook mode with URL and secret", () => {
    const config = loadConfig({
      ...base,
      BOT_MODE: "webhook",
      WEBHOOK_URL: "https://bot.example/telegram",
      WEBHOOK_SECRET: "s-e_cret",
    });
    expect(config.webhook).toEqual({ url: "https://bot.example/telegram", secret: "s-e_cret" });
  });
});

describe("loadConfig: WEBAPP_URL", () => {
  it("is off by default, takes an https base URL, and plain http only on loopback", () => {
    expect(loadConfig(base).webAppUrl).toBeUndefined();
    expect(loadConfig({ ...base, WEBAPP_URL: "https://bot.example.com/" }).webAppUrl).toBe(
      "https://bot.example.com",
    );
    expect(loadConfig({ ...base, WEBAPP_URL: "https://bot.example.com/mini" }).webAppUrl).toBe(
      "https://bot.example.com/mini",
    );
    expect(loadConfig({ ...base, WEBAPP_URL: "http://127.0.0.1:8080" }).webAppUrl).toBe(
      "http://127.0.0.1:8080",
    );
    expect(loadConfig({ ...base, WEBAPP_URL: "http://localhost:8080" }).webAppUrl).toBe(
      "http://localhost:8080",
    );
  });
});

describe("loadConfig: the market-data account", () => {
  it("accepts a 16-character base32 authenticator secret and refuses one that cannot make a code", () => {
    const withAccount = (secret: string) => ({
      ...base,
      MARKET_DATA_EMAIL: "prices@operator.example",
      MARKET_DATA_PASSWORD: "pw",
      MARKET_DATA_TOTP_SECRET: secret,
    });
    expect(loadConfig(withAccount("JBSWY3DPEHPK3PXP")).marketData?.totpSecret).toBe("JBSWY3DPEHPK3PXP");
    expect(refusal(withAccount("not base32!")).variable).toBe("MARKET_DATA_TOTP_SECRET");
    expect(refusal(withAccount("ABCD")).variable).toBe("MARKET_DATA_TOTP_SECRET");
  });
});

describe("loadConfig: partner mode", () => {
  const partner = {
    ...base,
    EXCHANGE_MODE: "partner",
    PARTNER_TOKEN: "partner-token-1",
    SUPPORT_CONTACT: "@acme_support",
    TERMS_URL: "https://acme.example/terms",
  };
  const service = {
    ...base,
    EXCHANGE_MODE: "partner",
    PARTNER_EMAIL: "service@acme.example",
    PARTNER_PASSWORD: "pw",
    PARTNER_TOTP_SECRET: "JBSWY3DPEHPK3PXP",
    SUPPORT_CONTACT: "support@acme.example",
    TERMS_URL: "https://acme.example/terms?v=2026-11",
  };

  it("is off by default: account mode, no partner settings", () => {
    expect(loadConfig(base)).toMatchObject({ exchangeMode: "account", partner: undefined });
  });

  it("reads a partner token or a service account, operators and the support contact", () => {
    expect(loadConfig({ ...partner, OPERATOR_IDS: " 42, 7 " }).partner).toEqual({
      auth: { kind: "token", token: "partner-token-1" },
      operatorIds: [42, 7],
      supportContact: "@acme_support",
      termsUrl: "https://acme.example/terms",
    });
    expect(loadConfig(service).partner).toEqual({
      auth: {
        kind: "service-account",
        email: "service@acme.example",
        password: "pw",
        totpSecret: "JBSWY3DPEHPK3PXP",
      },
      operatorIds: [],
      supportContact: "support@acme.example",
      termsUrl: "https://acme.example/terms?v=2026-11",
    });
    expect(
      loadConfig({ ...partner, SUPPORT_CONTACT: "https://acme.example/help" }).partner?.supportContact,
    ).toBe("https://acme.example/help");
  });

  it("names each bad variable in one sentence", () => {
    const cases: [Record<string, string | undefined>, string, RegExp][] = [
      [
        { ...base, EXCHANGE_MODE: "white-label" },
        "EXCHANGE_MODE",
        /must be account or partner, not "white-label"/,
      ],
      [
        { ...partner, PARTNER_TOKEN: undefined },
        "PARTNER_TOKEN",
        /PARTNER_TOKEN is missing: .*PARTNER_EMAIL/,
      ],
      [{ ...partner, PARTNER_TOKEN: "two words" }, "PARTNER_TOKEN", /without spaces/],
      [{ ...service, PARTNER_TOKEN: "t" }, "PARTNER_TOKEN", /both set/],
      [{ ...service, PARTNER_EMAIL: "nope" }, "PARTNER_EMAIL", /e-mail address, not "nope"/],
      [{ ...service, PARTNER_PASSWORD: "" }, "PARTNER_PASSWORD", /PARTNER_PASSWORD is missing/],
      [
        { ...service, PARTNER_TOTP_SECRET: undefined },
        "PARTNER_TOTP_SECRET",
        /PARTNER_TOTP_SECRET is missing/,
      ],
      [{ ...service, PARTNER_TOTP_SECRET: "ABCD" }, "PARTNER_TOTP_SECRET", /not a usable TOTP secret/],
      [{ ...partner, OPERATOR_IDS: "42,@boss" }, "OPERATOR_IDS", /"@boss" is not one/],
      [{ ...partner, SUPPORT_CONTACT: undefined }, "SUPPORT_CONTACT", /SUPPORT_CONTACT is missing/],
      [
        { ...partner, SUPPORT_CONTACT: "call us" },
        "SUPPORT_CONTACT",
        /@handle, an e-mail address or an http\(s\) URL/,
      ],
      [
        { ...partner, TERMS_URL: undefined },
        "TERMS_URL",
        /TERMS_URL is missing: set it to the https address/,
      ],
      [{ ...partner, TERMS_URL: "  " }, "TERMS_URL", /TERMS_URL is missing/],
      [{ ...partner, TERMS_URL: "http://acme.example/terms" }, "TERMS_URL", /must be the https address/],
      [{ ...partner, TERMS_URL: "acme.example/terms" }, "TERMS_URL", /not "acme.example\/terms"/],
    ];
    for (const [env, variable, sentence] of cases) {
      const error = refusal(env);
      expect(error.variable, variable).toBe(variable);
      expect(error.message).toMatch(sentence);
      expect(error.message.split(/(?<=\.)\s/).length, error.message).toBeLessThanOrEqual(2);
    }
  });
});

describe("loadStoreConfig (store chores: npm run rotate-secrets)", () => {
  const key = KEY;
  it("needs only SECRETS_KEY, and STORE_URL's default", () => {
    expect(loadStoreConfig({ SECRETS_KEY: `${key},${key}` })).toEqual({
      storeUrl: "sqlite://data/bot.sqlite",
      secretsKey: `${key},${key}`,
    });
    expect(loadStoreConfig({ SECRETS_KEY: key, STORE_URL: "redis://127.0.0.1:6379" }).storeUrl).toBe(
      "redis://127.0.0.1:6379",
    );
  });

  it("names each bad variable in one sentence", () => {
    expect(() => loadStoreConfig({})).toThrow("SECRETS_KEY is missing: set it to 32 random bytes in base64");
    expect(() => loadStoreConfig({ SECRETS_KEY: "short" })).toThrow("SECRETS_KEY must be 32 random bytes");
    expect(() => loadStoreConfig({ SECRETS_KEY: key, STORE_URL: "postgres://x" })).toThrow(
      "STORE_URL must be sqlite://PATH or redis://HOST:PORT.",
    );
  });
});
