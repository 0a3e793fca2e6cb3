/**
 * Time-based codes on the sandbox clock, not the wall clock: a test that advances the clock by an
 * hour gets the code of that hour, and `currentCode()` always agrees with what login accepts.
 */
import { generateSecret, generateSync, verifySync } from "otplib";

const STEP_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

/** The 6-digit code for this instant of the sandbox clock. */
export function totpCodeAt(secret: string, nowMs: number): string {
  return generateSync({ secret, epoch: Math.floor(nowMs / 1000) });
}

/**
 * Accepts the current step and the one before or after (±30 s), as authenticator-app servers
 * usually do for clock skew. A number is padded to six digits: a code like 012345 loses its
 * leading zero when a client sends it as a JSON integer (the spec types it `integer`).
 */
export function checkTotp(secret: string, code: unknown, nowMs: number): boolean {
  const text = normalizeCode(code);
  if (text === undefined) return false;
  try {
    return verifySync({
      secret,
      token: text,
      epoch: Math.floor(nowMs / 1000),
      epochTolerance: STEP_SECONDS,
    }).valid;
  } catch {
    return false;
  }
}

export function normalizeCode(code: unknown): string | undefined {
  if (typeof code === "number") {
    if (!Number.isInteger(code) || code < 0 || code > 999_999) return undefined;
    return String(code).padStart(6, "0");
  }
  if (typeof code === "string" && /^\d{6}$/.test(code.trim())) return code.trim();
  return undefined;
}
