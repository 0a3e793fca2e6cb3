/**
 * The EPC QR code ("GiroCode", EPC069-12) of a SEPA credit transfer: a banking app scans it and
 * fills in beneficiary, IBAN, BIC, amount and reference. Made only when the fields allow a valid
 * one: a valid IBAN and a beneficiary name are required; BIC, amount and reference are optional.
 *
 * Lines (version 002, UTF-8): BCD · 002 · 1 · SCT · BIC · name · IBAN · EUR amount · purpose ·
 * structured reference (an RF creditor reference) or · unstructured text (anything else), at most
 * 331 bytes, error correction level M.
 *
 * @example
 * const payload = giroCodePayload({ name: "Sandbox Exchange GmbH", iban, bic, reference: "RF18…" });
 * if (payload) await ctx.replyWithPhoto(new InputFile(await giroCodePng(payload), "girocode.png"));
 */
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from "ibantools";
import type { Big } from "../../domain/money.ts";
import { qrPng } from "./qr-png.ts";

export interface Transfer {
  /** The beneficiary (account holder), not the bank's name. */
  name: string;
  iban: string;
  bic?: string | undefined;
  /** EUR; absent: the payer types it. */
  amount?: Big | undefined;
  /** An RF creditor reference, or any remittance text. */
  reference?: string | undefined;
}

const MAX_BYTES = 331;
const MAX_NAME = 70;
const MAX_TEXT = 140;
const MAX_RF = 25;

/** An ISO 11649 creditor reference: `RF`, two check digits, up to 21 letters or digits, mod 97 = 1. */
export function isCreditorReference(text: string): boolean {
  const compact = text.replace(/\s+/g, "").toUpperCase();
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(compact)) return false;
  const rearranged = `${compact.slice(4)}${compact.slice(0, 4)}`;
  let rest = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/** The payload text, or undefined when the fields do not make a valid GiroCode. */
export function giroCodePayload(transfer: Transfer): string | undefined {
  const iban = electronicFormatIBAN(transfer.iban) ?? "";
  if (!isValidIBAN(iban)) return undefined;
  const name = transfer.name.replace(/\s+/g, " ").trim();
  if (name === "" || name.length > MAX_NAME) return undefined;
  const bic = transfer.bic?.replace(/\s+/g, "").toUpperCase() ?? "";
  if (bic !== "" && !isValidBIC(bic)) return undefined;
  let amount = "";
  if (transfer.amount !== undefined) {
    if (transfer.amount.lt("0.01") || transfer.amount.gt("999999999.99")) return undefined;
    amount = `EUR${transfer.amount.toFixed(2)}`;
  }
  const reference = transfer.reference?.replace(/\s+/g, " ").trim() ?? "";
  const structured = isCreditorReference(reference) ? reference.replace(/\s+/g, "").toUpperCase() : "";
  const text = structured === "" ? reference.slice(0, MAX_TEXT) : "";
  if (structured.length > MAX_RF) return undefined;
  const lines = ["BCD", "002", "1", "SCT", bic, name, iban, amount, "", structured, text];
  while (lines.at(-1) === "") lines.pop();
  const payload = lines.join("\n");
  return Buffer.byteLength(payload, "utf8") <= MAX_BYTES ? payload : undefined;
}

/** The QR picture of a payload (EPC069-12 asks for error correction level M). */
export async function giroCodePng(payload: string): Promise<Uint8Array> {
  return qrPng(payload, { errorCorrectionLevel: "M", scale: 6 });
}
