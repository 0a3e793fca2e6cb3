/**
 * The import rules of the house, the one source: `npm test` runs them (test/layers.test.ts, through
 * dependency-cruiser's `cruise()`), the CLI runs them
 * (`npx depcruise src --config .dependency-cruiser.cjs --output-type err`), and ARCHITECTURE.md's
 * table "Folders and what each may import" is written from them (`npm run import-rules`; the test
 * fails when the table is stale).
 *
 * LAYERS below is the table: every file under src/ belongs to the layer whose `files` entry matches
 * it longest (an entry ending in `/` is a folder), and may import
 * - its own layer's files and the files of every `open` layer (every folder may import them);
 * - what its `may` list names: project paths (`path`, `types`: `import type` only) and packages
 *   (`pkg`, `types`); a package named by any layer is fenced to the layers that name it, the others
 *   (big.js, Node's own modules) are free;
 * - or, with `EVERYTHING_IN_PRODUCTION`, anything but the test doubles and the demo; `EVERYTHING`:
 *   anything.
 * The rules after it (RULES) hold everywhere: no circles (type-only imports count: a circle of
 * types is a circle of concepts), nothing imports `process/main.ts`, only the composition root and
 * the demo import the composition root, production never imports the doubles or the demo, and the
 * rules inside `bot/`.
 *
 * Parsed with swc (TypeScript 7 has no JavaScript API for dependency-cruiser): swc records
 * `import type` and `import()` as dependencies of their own types ("type-only", "dynamic-import"),
 * so `tsPreCompilationDeps` (which only steers the tsc parser, and warns without it) stays off.
 */

/** @typedef {{ path: string, note?: string, typesOnly?: boolean }} PathItem */
/** @typedef {{ package: string, note?: string, typesOnly?: boolean }} PackageItem */
/**
 * @typedef {object} Layer
 * @property {string[]} files paths under src/ (a folder ends with `/`)
 * @property {boolean} [open] every folder may import it
 * @property {string} job what it is for (the table's "its job")
 * @property {Array<PathItem | PackageItem> | "everything" | "everything in production"} may
 */

const path = (to, note) => ({ path: to, ...(note ? { note } : {}) });
const pkg = (name, note) => ({ package: name, ...(note ? { note } : {}) });
/** `import type` only: a project path (ends with `/` or `.ts`) or a package. */
const types = (to, note) => ({
  ...(/\/$|\.ts$/.test(to) ? { path: to } : { package: to }),
  typesOnly: true,
  ...(note ? { note } : {}),
});
const EVERYTHING_IN_PRODUCTION = "everything in production";
const EVERYTHING = "everything";
/** Never imported by production code: `npm start`'s graph and the Docker image leave them out. */
const NOT_IN_PRODUCTION = ["sandbox/", "telegram-double/", "demo/"];

/** @type {Layer[]} */
const LAYERS = [
  {
    files: [
      "process/main.ts",
      "process/services.ts",
      "process/jobs.ts",
      "process/jobs/",
      "process/webhook.ts",
      "process/readiness.ts",
      "process/uncaught.ts",
      "process/start-checks.ts",
      "process/metrics-server.ts",
      "chores/backup.ts",
      "chores/rotate-secrets.ts",
    ],
    job: "composition root: config → store → exchange → sessions → orders → bot; the background jobs (`jobs.ts` runs the list, one file per job in `jobs/`, the lease in `jobs/leadership.ts`; the daily digest gathered beside its job in `jobs/digest.ts`, from alerts, orders, the feed, partner balances, sent through the Notifier); HTTP server; `/readyz`; uncaught errors logged before exit; start-up checks (the port, one process per SQLite file, Redis settings); `/metrics` on its own port; `npm run backup`; the key-rotation chore (`npm run rotate-secrets`)",
    may: EVERYTHING_IN_PRODUCTION,
  },
  {
    files: ["config/"],
    job: "the only reader of `process.env`: `config.ts`'s `loadConfig` built from per-section parsers (`sections/`: a zod schema each, whose fields carry the sentences); one sentence per bad variable",
    may: [
      path("support/totp.ts", "a TOTP secret checked by making a code"),
      pkg("zod", "the sections' schemas"),
      types("pino", "the log level's type"),
    ],
  },
  {
    files: ["support/clock.ts", "support/logger.ts"],
    open: true,
    job: "time, injected (tests move it instead of sleeping); the one logger (pino, its redaction)",
    may: [pkg("pino", "the logger's redaction")],
  },
  {
    files: ["domain/translate.ts", "domain/currency.ts"],
    open: true,
    job: "the shared vocabulary: `Translate` (a locale's lookup, whoever words the sentence) and `Refusal` (a sentence not yet worded); the euro's code and the words users type for it",
    may: [],
  },
  {
    files: ["domain/time-zone.ts", "domain/time-zone-cities.ts"],
    open: true,
    job: 'a user\'s time zone as they type it (a city in English or German — Intl\'s zone cities and a maintained table of other names and big cities —, an IANA name, a UTC offset) and the wall-clock arithmetic of quiet hours, the digest and recurring plans (Intl\'s zone data: summer time by the zone\'s rules), and how a zone is named after a time (`zoneLabel`: "UTC", "UTC+05:30", "(Europe/Berlin)"), the same on every screen and notice',
    may: [],
  },
  {
    files: ["domain/reader-zone.ts"],
    open: true,
    job: "the time zone of whoever a message is worded for, while it is worded (set per update by `bot/`, per notice by `notify/`; read by the time formatters), so every time shown is in the reader's zone, named",
    may: [],
  },
  {
    files: ["process/draining.ts"],
    job: "whether the process is shutting down (set on SIGTERM/SIGINT by `process/main.ts`; the HTTP server answers new webhook requests 503 from then on, a readiness check reads it)",
    may: [],
  },
  {
    files: ["support/http-route.ts"],
    open: true,
    job: "the shape of a route on the bot's HTTP server, for the folders that offer one (charts, the Mini App login) beside the webhook",
    may: [],
  },
  {
    files: ["support/http-body.ts"],
    job: "a request body read up to a limit, 413 past it (the webhook, 1 MiB; the Mini App login)",
    may: [],
  },
  {
    files: ["domain/money.ts"],
    job: "decimals (big.js): the only place amounts are parsed and formatted",
    may: [],
  },
  {
    files: ["domain/iban.ts"],
    job: "IBANs grouped and masked (below `bot/`: a withdrawal's quote keeps the masked IBAN in the ledger)",
    may: [],
  },
  {
    files: ["domain/crypto-address.ts"],
    job: "a recipient address for /send: what a person pasted, cleaned, and checked against the chosen currency's format before anything goes to the exchange (a domain check, below `bot/` like `domain/iban.ts`)",
    may: [path("support/lazy.ts"), pkg("multicoin-address-validator", "loaded at the first check")],
  },
  {
    files: ["support/in-flight.ts"],
    job: "counts work under way, for whoever must wait for it (a shutdown, a test)",
    may: [],
  },
  {
    files: ["support/totp.ts"],
    job: "the current code of the operator's own TOTP secrets (market-data and partner service accounts; SECURITY.md, rule 9)",
    may: [pkg("otplib")],
  },
  {
    files: ["support/webapp-paths.ts"],
    job: "where the Mini App login page lives: `bot/`'s login button and `webapp/`'s route both read it",
    may: [],
  },
  {
    files: ["process/connect-telegram.ts"],
    job: "`npm start`'s first call to Telegram (getMe), worded for an operator",
    may: [pkg("grammy")],
  },
  {
    files: ["support/lazy.ts"],
    job: "a package imported at its first use, once: what most updates never need (QR encoder, address validator, phone metadata) stays out of a running bot's memory",
    may: [],
  },
  {
    files: ["support/http-collect.ts"],
    job: "one request through an undici Dispatcher, the answer collected whole into a Buffer (no Node stream per answer); shared by `exchange/http.ts` and the Bot API fetch (`bot/transport/undici-fetch.ts`)",
    may: [pkg("undici")],
  },
  {
    files: ["exchange/"],
    job: "typed client of the exchange API (undici), typed errors, tolerant schemas; every partner method returns a typed result: the payloads the spec leaves open are read tolerantly (`partner-schemas.ts` over the readers `partner-read.ts`, `partner-records.ts`, `partner-transaction.ts`), an unknown shape a typed `unrecognised` value or `rest` the screens show",
    may: [
      path("domain/money.ts"),
      path("support/http-collect.ts"),
      path("support/in-flight.ts"),
      pkg("undici"),
      pkg("zod", "the tolerant schemas"),
    ],
  },
  {
    files: ["store/"],
    job: "`Store` (Keyv over SQLite or Redis, fails closed; only the backend the URL names is loaded), the Vault (sealing and keyed hashes), keyed-hash indexes (`hashed-index.ts`), key rotation over every stored value (`rotation.ts`), grammY's `StorageAdapter` over the Store, a Store that reports its round trips (`observed.ts`); one bot process per SQLite file (`sqlite-lock.ts`), its online backup (`sqlite-backup.ts`), the start-up check of Redis's settings (`redis-settings.ts`)",
    may: [pkg("keyv"), pkg("@keyv/*", "SQLite and Redis"), types("grammy", "its StorageAdapter")],
  },
  {
    files: ["session/"],
    job: 'login, token expiry, failed-login limits, profiles: "a live client for this user"',
    may: [path("exchange/"), path("store/")],
  },
  {
    files: ["orders/"],
    job: "the money pipeline: one descriptor per kind (`kinds/`), the Ledger, placing exactly once, reconciliation (account and partner kinds; `clients.ts` says who the exchange is asked as)",
    may: [
      path("exchange/"),
      path("session/"),
      path("store/"),
      types("partner/", "its services"),
      path("domain/money.ts"),
      path("domain/iban.ts"),
    ],
  },
  {
    files: ["partner/"],
    job: "partner mode below the bot: the service account's token (renewed once for all instances), Telegram ↔ partner user links and the e-mail index, PINs (scrypt, lock), the KYC re-check, master-balance alerts",
    may: [
      path("exchange/"),
      path("session/", "failure limits"),
      path("support/totp.ts", "the service account's code"),
      path("store/"),
    ],
  },
  {
    files: ["market/"],
    job: "one price feed for everyone, cached and coalesced; its prices kept as a time series for charts (`history.ts`: 5-minute, hourly and 4-hour samples, bounded, written by the jobs' tick)",
    may: [
      path("exchange/"),
      path("session/"),
      path("support/totp.ts", "the market-data account's code"),
      path("store/", "the price history"),
    ],
  },
  {
    files: ["alerts/"],
    job: "alert rules, the index evaluated per price tick, the scheduler, the jobs lease",
    may: [path("market/"), path("store/"), path("domain/money.ts")],
  },
  {
    files: ["safety/"],
    job: "the safety net's own records below the bot (saved addresses, cooling-offs, freezes, self-set caps) and the security events it raises (`security-events.ts`: one door, `SecurityNotices.tell`, connected to the delivery queue by the composition root)",
    may: [
      path("store/"),
      path("session/"),
      path("orders/", "its guards"),
      path("domain/money.ts"),
      path("domain/crypto-address.ts"),
      path("domain/iban.ts"),
    ],
  },
  {
    files: ["plans/"],
    job: "recurring buys below the bot: the schedule (`schedule.ts`: daily, weekly, monthly at an hour of the user's zone), plans and their runs in the store (`book.ts`: claimed once per date, listed by due hour), and the runs (`runner.ts`: partner mode a partner buy through the pipeline with the run's derived idempotency key, account mode a reminder; missed runs after downtime)",
    may: [
      path("orders/"),
      types("partner/", "its services"),
      path("store/"),
      path("exchange/", "its errors"),
    ],
  },
  {
    files: ["notify/"],
    job: "the delivery queue under Telegram's broadcast limits; the Notifier: a kind's mode (on, silent, off) and quiet hours (`quiet-hours.ts`), notices held in the store until they end (`held.ts`)",
    may: [pkg("grammy", "the Bot API"), path("store/"), path("session/")],
  },
  {
    files: ["charts/"],
    job: "price charts drawn on the server (an SVG of its own with `d3-scale`'s axes and `d3-shape`'s paths, resvg's WebAssembly build to PNG, or JPEG through `jpeg-js` for inline photos, the Inter font from npm; loaded at the first chart), the signed, expiring addresses of chart pictures and the route that serves them to Telegram (inline answers, JPEG photo and thumbnail); knows nothing of Telegram",
    may: [
      path("support/lazy.ts"),
      path("support/clock.ts"),
      path("support/http-route.ts", "the shape of a route"),
      pkg("d3-scale"),
      pkg("d3-shape"),
      pkg("@resvg/resvg-wasm"),
      pkg("jpeg-js"),
    ],
  },
  {
    files: ["bot/"],
    job: "grammY: `createBot(deps)`, middleware, features, flows, ui",
    may: [
      path("alerts/"),
      path("charts/"),
      types("config/config.ts", "the settings' shape"),
      path("domain/"),
      path("exchange/"),
      path("market/"),
      path("notify/"),
      path("orders/"),
      path("partner/"),
      path("plans/"),
      path("safety/"),
      path("session/"),
      path("store/"),
      path("support/"),
      pkg("grammy"),
      pkg("@grammyjs/*", "grammY's plugins"),
      pkg("undici", "the Bot API's fetch, transport/undici-fetch.ts"),
      pkg(
        "csv-stringify",
        "the statement for people, ui/statement-csv.ts, and Koinly's import file, ui/koinly-csv.ts",
      ),
      pkg("qrcode", "deposit addresses, loaded at first use"),
      pkg("libphonenumber-js", "phone numbers, loaded at first use"),
      pkg("ibantools"),
    ],
  },
  {
    files: ["webapp/"],
    job: "the Mini App login: `initData` checked, the page, `POST /webapp/login` (routes on the bot's HTTP server)",
    may: [
      path("bot/", "i18n, login patterns, formatters"),
      path("session/"),
      path("exchange/", "its errors"),
      path("support/http-body.ts"),
      path("support/webapp-paths.ts"),
      path("support/http-route.ts", "the shape of a route"),
      pkg("@telegram-apps/init-data-node"),
      types("grammy"),
    ],
  },
  {
    files: ["process/metrics.ts"],
    job: "`/metrics` (prom-client, its own Registry): loaded by `process/main.ts` only with `METRICS_PORT`; the layers report through hooks of their own (update logger and error boundary, the exchange client's `onCall`, `store/observed.ts`, Sessions' `onLogin`), connected in `process/main.ts` / `process/services.ts`; imported by the composition root only (the rule `composition-root`)",
    may: [pkg("prom-client")],
  },
  {
    files: ["sandbox/"],
    job: "a stateful exchange on real HTTP, for the demo and the tests",
    may: [
      path("domain/money.ts"),
      path("exchange/schemas.ts"),
      pkg("otplib", "the codes it checks"),
      pkg("ibantools"),
    ],
  },
  {
    files: ["telegram-double/"],
    job: "a Bot API double over HTTP, for the demo and the tests",
    may: [types("grammy", "the Bot API's shapes")],
  },
  {
    files: ["demo/"],
    job: "the terminal chat (`npm run demo`)",
    may: EVERYTHING,
  },
];

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A regular expression for a path under src/ (a folder: everything under it). */
const srcPattern = (entry) => `^src/${literal(entry)}${entry.endsWith("/") ? "" : "$"}`;
/** The files of an npm package, `@scope/*` for all of a scope, as resolved through node_modules. */
const packagePattern = (name) =>
  `(^|/)node_modules/${name.endsWith("/*") ? literal(name.slice(0, -1)) : `${literal(name)}/`}`;

const fenced = [
  ...new Set(
    LAYERS.flatMap((layer) => (Array.isArray(layer.may) ? layer.may : [])).flatMap(
      (item) => item.package ?? [],
    ),
  ),
];
const openFiles = LAYERS.filter((layer) => layer.open).flatMap((layer) => layer.files);

/** The entries of other layers inside this layer's entries: those files belong to them. */
function nestedIn(layer) {
  return LAYERS.filter((other) => other !== layer)
    .flatMap((other) => other.files)
    .filter((entry) =>
      layer.files.some((own) => own.endsWith("/") && entry.startsWith(own) && entry !== own),
    );
}

const patternOf = (item) => ("path" in item ? srcPattern(item.path) : packagePattern(item.package));

function layerRules(layer) {
  const name = `layer ${layer.files[0]}`;
  const from = { path: layer.files.map(srcPattern), pathNot: nestedIn(layer).map(srcPattern) };
  if (layer.may === EVERYTHING) return [];
  if (layer.may === EVERYTHING_IN_PRODUCTION)
    return [
      {
        name,
        comment: `${layer.files[0]} may import everything in production`,
        severity: "error",
        from,
        to: { path: NOT_IN_PRODUCTION.map(srcPattern) },
      },
    ];
  const values = layer.may.filter((item) => !item.typesOnly);
  const typesOnly = layer.may.filter((item) => item.typesOnly);
  const always = [...layer.files, ...openFiles].map(srcPattern);
  const rules = [
    {
      name,
      comment: `${layer.files[0]} may import only its own files, the open ones and what its row names (ARCHITECTURE.md)`,
      severity: "error",
      from,
      to: {
        path: ["^src/", ...fenced.map(packagePattern)],
        pathNot: [...always, ...layer.may.map(patternOf)],
      },
    },
  ];
  if (typesOnly.length > 0)
    rules.push({
      name: `${name} (types only)`,
      comment: `${layer.files[0]} may import ${typesOnly.map((item) => item.path ?? item.package).join(", ")} for types only`,
      severity: "error",
      from,
      to: {
        path: typesOnly.map(patternOf),
        pathNot: [...always, ...values.map(patternOf)],
        dependencyTypesNot: ["type-only"],
      },
    });
  return rules;
}

const notInProduction = NOT_IN_PRODUCTION.map(srcPattern);

/** The rules that hold everywhere, beside the layers. */
const RULES = [
  {
    name: "no-circular",
    comment:
      "No import circles, type-only imports included: a module and what it imports form a layer cake, never a ring.",
    severity: "error",
    from: { path: "^src/" },
    to: { circular: true },
  },
  {
    name: "no-main",
    comment:
      "Nothing imports `process/main.ts`: it is the entry `npm start` runs, and importing it starts the bot.",
    severity: "error",
    from: {},
    to: { path: srcPattern("process/main.ts") },
  },
  {
    name: "composition-root",
    comment:
      "Only the composition root (`process/`, `chores/`) and the demo import the composition root: the layers are wired from above, never reach up into their wiring.",
    severity: "error",
    from: { pathNot: ["^src/process/", "^src/chores/", srcPattern("demo/")] },
    to: { path: ["^src/process/", "^src/chores/"] },
  },
  {
    name: "not-in-production",
    comment:
      "Production code never imports `sandbox/`, `telegram-double/` or `demo/` (test/production-graph.test.ts checks `npm start`'s graph and the image too).",
    severity: "error",
    from: { path: "^src/", pathNot: notInProduction },
    to: { path: notInProduction },
  },
  {
    name: "feature-to-feature",
    comment:
      "A feature never imports another feature: what two features share lives in `bot/flows/` or `bot/ui/` (or below `bot/`).",
    severity: "error",
    from: { path: "^src/bot/features/" },
    to: { path: "^src/bot/features/" },
  },
  {
    name: "features-from-bot-only",
    comment:
      "Only `bot/` imports features (`bot.ts`, `partner-features.ts`): not the layers below, not the composition root.",
    severity: "error",
    from: { pathNot: "^src/bot/" },
    to: { path: "^src/bot/features/" },
  },
  {
    name: "flows-no-feature",
    comment: "`bot/flows/` helps features and imports none.",
    severity: "error",
    from: { path: "^src/bot/flows/" },
    to: { path: "^src/bot/features/" },
  },
  {
    name: "ui-keyboards-and-formatters",
    comment: "`bot/ui/` holds keyboards and formatters only: no feature, flow or middleware.",
    severity: "error",
    from: { path: "^src/bot/ui/" },
    to: { path: "^src/bot/(features|flows|middleware)/" },
  },
  {
    name: "resolved",
    comment: "Every import resolves: one the cruise cannot follow is one no rule can check.",
    severity: "error",
    from: { path: "^src/" },
    to: { couldNotResolve: true },
  },
  {
    name: "no-dev-dependency",
    comment: "What ships imports no devDependency (the image installs without them).",
    severity: "error",
    from: { path: "^src/", pathNot: notInProduction },
    to: { dependencyTypes: ["npm-dev"] },
  },
];

module.exports = {
  forbidden: [...RULES, ...LAYERS.flatMap(layerRules)],
  options: {
    parser: "swc",
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    // The symlinked node_modules of a worktree read as node_modules/…, so the package fences hold.
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".js", ".cjs", ".mjs", ".json"],
    },
  },
};

// dependency-cruiser refuses keys of its own it does not know: the layers and rules ride along
// unseen (not enumerable), for the table's writer and the tests.
Object.defineProperties(module.exports, {
  layers: { value: LAYERS },
  rules: { value: RULES },
  notInProduction: { value: NOT_IN_PRODUCTION },
});
