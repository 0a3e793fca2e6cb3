/**
 * Deposit addresses that look like the real thing (so a bot's QR code and copy buttons are
 * exercised with realistic text) and a shape check for send targets. They are random, not derived
 * from keys: nothing ever pays into them.
 */
import { randomBytes } from "node:crypto";

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const RIPPLE58 = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz";

function pick(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

export function generateAddress(currency: string): string {
  switch (currency) {
    case "btc":
      return `bc1q${pick(BECH32, 38)}`;
    case "ltc":
      return `ltc1q${pick(BECH32, 38)}`;
    case "xrp":
      return `r${pick(RIPPLE58, 33)}`;
    default:
      // eth and the ERC-20 usdc share the account format.
      return `0x${randomBytes(20).toString("hex")}`;
  }
}

const SHAPES: Readonly<Record<string, RegExp>> = {
  btc: /^(?:bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|tb1[02-9ac-hj-np-z]{11,71})$/,
  ltc: /^(?:ltc1[02-9ac-hj-np-z]{11,71}|[LM3][1-9A-HJ-NP-Za-km-z]{26,33})$/,
  xrp: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
  eth: /^0x[0-9a-fA-F]{40}$/,
  usdc: /^0x[0-9a-fA-F]{40}$/,
};

/** A plausibility check, as an exchange's form validation would do; not a checksum test. */
export function looksLikeAddress(currency: string, address: string): boolean {
  return SHAPES[currency]?.test(address) ?? false;
}
