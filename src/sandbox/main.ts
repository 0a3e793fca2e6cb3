/**
 * `npm run sandbox`: the sandbox exchange alone, on loopback, until Ctrl-C.
 * PORT (default 8787) and HOST (default 127.0.0.1) choose where it listens.
 */
import { startSandbox } from "./server.ts";

const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number (0-65535), not "${process.env.PORT}".`);
  process.exit(1);
}

const sandbox = await startSandbox({ host: process.env.HOST ?? "127.0.0.1", port });
const { url, demo } = sandbox;
console.log(`Sandbox exchange listening on ${url}

  EXCHANGE_API_URL=${url}
  EXCHANGE_CLIENT_ID=${sandbox.clientId}
  EXCHANGE_CLIENT_SECRET=${sandbox.clientSecret}
  partner API token:  ${sandbox.partnerToken}

Demo account
  e-mail:       ${demo.email}
  password:     ${demo.password}
  TOTP secret:  ${demo.totpSecret}   (add it to an authenticator app, or ask the sandbox:)
  current code: curl ${url}/_sandbox/code

Controls: POST ${url}/_sandbox/clock/advance {"ms":60000}, POST ${url}/_sandbox/prices {"currency":"btc","price":"65000"},
          POST ${url}/_sandbox/faults {...}, POST ${url}/_sandbox/faults/reset
Ctrl-C stops it.`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: closing the sandbox.`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
