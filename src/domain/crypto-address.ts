/**
 * Recipient addresses for /send: what a person pastes, cleaned, and checked against the format of
 * the chosen currency before anything goes to the exchange (the exchange stays the authority; this
 * check is for the user's sake: a typo or an address of another coin is caught while they can
 * still fix it).
 *
 * The format check is multicoin-address-validator (checksums included: base58check, bech32 and
 * bech32m, EIP-55 mixed case, XRP's base58). ERC-20 tokens use their chain's format (`usdc` → `eth`).
 * A currency the library does not know is not checked here (`unchecked`), the exchange decides.
 * The library and its chain tables are loaded at the first check (src/support/lazy.ts), not at start-up.
 *
 * @example
 * cleanAddress(" bitcoin:BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ?amount=0.01 ");
 * // "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
 * await checkAddress("0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", "btc", ["btc", "eth"]);
 * // { ok: false, reason: "other-currency", other: "eth" }
 */
import { lazy } from "../support/lazy.ts";

const validator = lazy(() => import("multicoin-address-validator"));
type Validator = Awaited<ReturnType<typeof validator>>["default"];

/** Tokens that live on another coin's chain and use its address format. */
const CHAIN_OF: Readonly<Record<string, string>> = {
  usdc: "eth",
  usdt: "eth",
  dai: "eth",
  link: "eth",
};

/** The payment-link scheme of each chain's wallets (BIP-21, EIP-681 and their kin), for the prompt's example. */
const PAYMENT_SCHEME: Readonly<Record<string, string>> = {
  btc: "bitcoin",
  eth: "ethereum",
  ltc: "litecoin",
  xrp: "ripple",
  bch: "bitcoincash",
  doge: "dogecoin",
};

/** How a payment link for `currency` begins (`ethereum:…` for ETH and its tokens), or undefined when none is known. */
export function paymentLinkExample(currency: string): string | undefined {
  const scheme = PAYMENT_SCHEME[chainOf(currency)];
  return scheme === undefined ? undefined : `${scheme}:…`;
}

/** Longer input is not an address (the longest common formats stay under 100 characters). */
const MAX_ADDRESS_LENGTH = 128;

export type AddressCheck =
  | { ok: true; address: string; checked: boolean }
  | { ok: false; reason: "empty" | "too-long" | "invalid" }
  /** A valid address, but of `other` (a currency the exchange lists), not of the one chosen. */
  | { ok: false; reason: "other-currency"; other: string };

/** The currency whose address format `currency` uses. */
export function chainOf(currency: string): string {
  const code = currency.toLowerCase();
  return CHAIN_OF[code] ?? code;
}

/**
 * What a person pasted, as an address: spaces, line breaks and invisible characters removed, a
 * payment-URI scheme (`bitcoin:`, `ethereum:`, `litecoin:`, `ripple:`, …) and its `?amount=…`
 * parameters dropped, an EIP-681 chain id (`@1`) dropped, the recipient of an ERC-20
 * `…/transfer?address=0x…` link taken, and an upper-case bech32 address (as QR codes carry them)
 * lower-cased.
 */
export function cleanAddress(input: string): string {
  let text = input.replace(/[\s\u200B-\u200D\u2060\uFEFF]+/g, "");
  const uri = /^([a-z][a-z0-9+.-]{1,20}):(?!\/\/)(.*)$/i.exec(text);
  if (uri?.[2] !== undefined) {
    const rest = uri[2];
    const [path = "", query = ""] = rest.split("?", 2);
    const recipient = /\/transfer$/i.test(path) ? new URLSearchParams(query).get("address") : null;
    text = recipient ?? path.replace(/\/.*$/, "");
    text = text.replace(/@\d+$/, "");
  }
  if (/^(?:BC1|LTC1|TB1)[A-Z0-9]+$/.test(text)) text = text.toLowerCase();
  return text;
}

/** Is `address` (already cleaned) an address of `currency`? `known` lists the exchange's codes. */
export async function checkAddress(
  address: string,
  currency: string,
  known: readonly string[] = [],
): Promise<AddressCheck> {
  if (address === "") return { ok: false, reason: "empty" };
  if (address.length > MAX_ADDRESS_LENGTH) return { ok: false, reason: "too-long" };
  const { default: WAValidator } = await validator();
  const chain = chainOf(currency);
  if (WAValidator.findCurrency(chain) === null) return { ok: true, address, checked: false };
  if (isValidFor(WAValidator, address, chain)) return { ok: true, address, checked: true };
  const other = known.find(
    (code) => chainOf(code) !== chain && isValidFor(WAValidator, address, chainOf(code)),
  );
  return other === undefined
    ? { ok: false, reason: "invalid" }
    : { ok: false, reason: "other-currency", other };
}

function isValidFor(WAValidator: Validator, address: string, chain: string): boolean {
  if (WAValidator.findCurrency(chain) === null) return false;
  try {
    return WAValidator.validate(address, chain, { networkType: "prod" });
  } catch {
    // The library throws on some malformed input instead of answering false.
    return false;
  }
}
