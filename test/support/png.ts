/**
 * A PNG read back for tests: the signature checked, IHDR's size and format, the IDAT chunks
 * inflated (scanlines, each a filter byte and a row).
 *
 * @example
 * const image = readPng(bytes);
 * expect([image.width, image.height]).toEqual([960, 540]);
 */
import { inflateSync } from "node:zlib";

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Png {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** The decompressed scanlines (a filter byte, then the row). */
  raw: Buffer;
}

export function readPng(bytes: Buffer): Png {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error("not a PNG: the signature is wrong");
  let offset = 8;
  let header: Omit<Png, "raw"> | undefined;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        bitDepth: body[8] ?? 0,
        colourType: body[9] ?? 0,
      };
    }
    if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  if (header === undefined) throw new Error("not a PNG: no IHDR chunk");
  return { ...header, raw: inflateSync(Buffer.concat(data)) };
}
