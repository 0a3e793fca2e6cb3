/**
 * The current code of the operator's own TOTP secrets: the market-data account's (`market/`) and
 * the partner service account's (`partner/`), the only ones the bot holds and makes codes for
 * (SECURITY.md, rule 9). Its own module, below `config.ts` (which checks a secret makes a code at
 * start), `market/` and `partner/`, so none of them reaches into another for it.
 *
 * @example
 * const securityCode = operatorCode(config.marketData.totpSecret, clock.now());
 */
import { createGuardrails, generateSync } from "otplib";

/**
 * Authenticator secrets of 16 base32 characters (10 bytes) are common; otplib refuses anything
 * under 16 bytes unless told otherwise. Spaces and lower case, as an app shows them, are accepted.
 */
export function operatorCode(totpSecret: string, nowMs: number): string {
  return generateSync({
    secret: totpSecret.replace(/\s/g, "").toUpperCase(),
    epoch: Math.floor(nowMs / 1000),
    guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }),
  });
}
