/**
 * `GET /chart/…jpg` on the bot's HTTP server (with WEBAPP_URL): the chart an inline answer points
 * at (its photo and thumbnail, JPEG as the Bot API asks of inline photos), drawn when Telegram
 * fetches it. An address that was not signed here, was changed, or has
 * expired gets 404, as does one whose chart has nothing to draw; nothing is said about which.
 * The same picture asked again before it expires (the photo and its thumbnail, several users'
 * answers in one 10-minute window) comes from a small cache instead of being drawn again.
 *
 * @example
 * routes.push(chartPhotoRoute({ signer: vault, clock, draw: (ref) => chartPhotoJpeg(deps, ref) }));
 */
import type { Clock } from "../support/clock.ts";
import type { HttpRoute } from "../support/http-route.ts";
import { CHART_PHOTO_PATH, type ChartPhotoRef, readChartPhotoPath, type UrlSigner } from "./photo-url.ts";

/** Pictures kept for repeated fetches (about 60 KB each, thumbnails 10 KB). */
const CACHED = 32;

export interface ChartPhotoRouteOptions {
  signer: UrlSigner;
  clock: Clock;
  /** The JPEG for a checked address, or undefined when there is nothing to draw (404). */
  draw: (ref: ChartPhotoRef) => Promise<Buffer | undefined>;
  onError?: (error: unknown) => void;
}

export function chartPhotoRoute(options: ChartPhotoRouteOptions): HttpRoute {
  const cache = new Map<string, { jpeg: Promise<Buffer | undefined>; expiresAt: number }>();

  function pictureOf(path: string, ref: ChartPhotoRef): Promise<Buffer | undefined> {
    const now = options.clock.now();
    for (const [key, entry] of cache) if (entry.expiresAt <= now) cache.delete(key);
    const cached = cache.get(path);
    if (cached !== undefined) return cached.jpeg;
    const jpeg = options.draw(ref);
    cache.set(path, { jpeg, expiresAt: ref.expiresAt });
    // A failed drawing is not kept; the oldest entry makes room.
    jpeg.catch(() => cache.delete(path));
    if (cache.size > CACHED) cache.delete(cache.keys().next().value ?? "");
    return jpeg;
  }

  return (req, res, path) => {
    if (!path.startsWith(CHART_PHOTO_PATH)) return false;
    req.resume();
    const ref =
      req.method === "GET" ? readChartPhotoPath(path, options.signer, options.clock.now()) : undefined;
    if (ref === undefined) {
      res.writeHead(404).end();
      return true;
    }
    pictureOf(path, ref).then(
      (jpeg) => {
        if (jpeg === undefined) {
          res.writeHead(404).end();
          return;
        }
        const seconds = Math.max(0, Math.floor((ref.expiresAt - options.clock.now()) / 1000));
        res
          .writeHead(200, {
            "content-type": "image/jpeg",
            "content-length": jpeg.length,
            "cache-control": `public, max-age=${seconds}`,
            "x-content-type-options": "nosniff",
          })
          .end(jpeg);
      },
      (error: unknown) => {
        options.onError?.(error);
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
    return true;
  };
}
