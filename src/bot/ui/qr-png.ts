/**
 * A QR code as PNG bytes, for the deposit address pictures and the GiroCode. The encoder is loaded
 * at the first picture (src/support/lazy.ts): most updates never draw one.
 *
 * @example
 * const png = await qrPng("bc1q…", { scale: 8 });
 */
import type { QRCodeErrorCorrectionLevel } from "qrcode";
import { lazy } from "../../support/lazy.ts";

const qrcode = lazy(() => import("qrcode"));

export async function qrPng(
  text: string,
  options: { scale: number; errorCorrectionLevel?: QRCodeErrorCorrectionLevel },
): Promise<Uint8Array> {
  const { default: QRCode } = await qrcode();
  return new Uint8Array(await QRCode.toBuffer(text, { type: "png", margin: 2, ...options }));
}
