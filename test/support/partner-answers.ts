/**
 * A test double's answer for a partner client method, in a shape the exchange might send: read as
 * the client reads it (exchange/partner-schemas.ts, PARTNER_READINGS), so the bot gets what the
 * client would hand it. Methods with a documented payload are answered as given.
 *
 * @example
 * if (key === "userBalance") return async (...args: unknown[]) => readAsClient("userBalance", args, shape);
 */
import { PARTNER_READINGS } from "../../src/exchange/partner-schemas.ts";

type Reading = (...args: unknown[]) => { parse(raw: unknown): unknown };

export function readAsClient(method: string, args: readonly unknown[], raw: unknown): unknown {
  if (!Object.hasOwn(PARTNER_READINGS, method)) return raw;
  const reading = PARTNER_READINGS[method as keyof typeof PARTNER_READINGS] as Reading;
  return reading(...args).parse(raw);
}
