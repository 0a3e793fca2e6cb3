/**
 * The address of a chart picture on the bot's own HTTP server, for inline answers (Telegram
 * fetches an InlineQueryResultPhoto's `photo_url` itself): what to draw, until when, and a keyed
 * hash of both, so the address cannot be guessed, changed or used past its time. The hash is the
 * Vault's (HMAC-SHA256 under a key derived from SECRETS_KEY): every instance checks what any
 * other signed, and nothing is stored per address. After a key rotation the older keys still
 * check (`hashes`), as long as they are configured.
 *
 * `/chart/<code>.<range>.<locale>.<expires, s>.<hash>.jpg` names the photo, `….<hash>.thumb.jpg` its
 * thumbnail: JPEG, as the Bot API asks of an InlineQueryResultPhoto's `photo_url` ("Photo must be
 * in JPEG format"). Both are the same signed chart; only the size differs.
 *
 * @example
 * const url = chartPhotoUrl(webAppUrl, vault, { code: "btc", range: "24h", locale: "de", expiresAt, size: "photo" });
 * const ref = readChartPhotoPath(path, vault, clock.now()); // undefined: 404
 */
import { timingSafeEqual } from "node:crypto";
import type { ChartPicture } from "./render.ts";

export const CHART_PHOTO_PATH = "/chart/";

/** The Vault's keyed hash (store/vault.ts), or anything that keys a hash the same way. */
export interface UrlSigner {
  hash(text: string): string;
  hashes(text: string): string[];
}

/** What a chart address names. */
export interface ChartPhotoRef {
  /** A currency code as the feed lists it (lower case). */
  code: string;
  /** The span, as market/history.ts names it (`24h`, `7d`, `30d`). */
  range: string;
  locale: string;
  /** Milliseconds since the epoch, whole seconds; the address answers 404 from then on. */
  expiresAt: number;
  /** The photo, or its small thumbnail. */
  size: ChartPhotoSize;
}

export type ChartPhotoSize = "photo" | "thumbnail";

/**
 * How each size is drawn: the photo at the chart's full 960 px, the thumbnail at 320 px (Telegram
 * shows it ~100 pt wide in the results list). Qualities chosen by size measured (bench/README.md).
 */
export const CHART_PHOTO_PICTURES = {
  photo: { format: "jpeg", width: 960, quality: 85 },
  thumbnail: { format: "jpeg", width: 320, quality: 75 },
} as const satisfies Record<ChartPhotoSize, ChartPicture>;

const SUFFIX: Record<ChartPhotoSize, string> = { photo: ".jpg", thumbnail: ".thumb.jpg" };

const TOKEN = /^[a-z0-9]{1,16}$/;
const LOCALE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/;
const PATH =
  /^\/chart\/([a-z0-9]{1,16})\.([a-z0-9]{1,4})\.([A-Za-z0-9-]{2,12})\.(\d{1,12})\.([A-Za-z0-9_-]{16,64})(\.thumb)?\.jpg$/;

function signed(ref: ChartPhotoRef): string {
  return `chart-photo:${ref.code}.${ref.range}.${ref.locale}.${Math.floor(ref.expiresAt / 1000)}`;
}

/** The picture's address under `baseUrl` (WEBAPP_URL: the public base of the bot's HTTP server). */
export function chartPhotoUrl(baseUrl: string, signer: UrlSigner, ref: ChartPhotoRef): string {
  if (!TOKEN.test(ref.code) || !TOKEN.test(ref.range) || !LOCALE.test(ref.locale)) {
    throw new RangeError(`not a chart address: ${ref.code}.${ref.range}.${ref.locale}`);
  }
  const seconds = Math.floor(ref.expiresAt / 1000);
  const base = baseUrl.replace(/\/+$/, "");
  return `${base}${CHART_PHOTO_PATH}${ref.code}.${ref.range}.${ref.locale}.${seconds}.${signer.hash(signed(ref))}${SUFFIX[ref.size]}`;
}

/** What a request's path names, when it was signed here and has not expired; else undefined. */
export function readChartPhotoPath(path: string, signer: UrlSigner, now: number): ChartPhotoRef | undefined {
  const match = PATH.exec(path);
  if (match === null) return undefined;
  const [, code = "", range = "", locale = "", seconds = "", hash = "", thumb] = match;
  const size: ChartPhotoSize = thumb === undefined ? "photo" : "thumbnail";
  const ref: ChartPhotoRef = { code, range, locale, expiresAt: Number(seconds) * 1000, size };
  if (!LOCALE.test(locale) || ref.expiresAt <= now) return undefined;
  const given = Buffer.from(hash);
  const valid = signer.hashes(signed(ref)).some((expected) => {
    const wanted = Buffer.from(expected);
    return wanted.length === given.length && timingSafeEqual(wanted, given);
  });
  return valid ? ref : undefined;
}
