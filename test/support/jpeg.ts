/**
 * Reads a JPEG far enough to check it: the SOI marker first, the EOI marker last, and the
 * picture's size from its baseline frame header (SOF0), walking the segments from the start.
 */
export interface JpegInfo {
  width: number;
  height: number;
  /** Colour components: 3 for YCbCr. */
  components: number;
}

export function readJpeg(bytes: Buffer): JpegInfo {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error("no SOI marker: not a JPEG");
  if (bytes.at(-2) !== 0xff || bytes.at(-1) !== 0xd9) throw new Error("no EOI marker at the end");
  for (let at = 2; at + 4 <= bytes.length; ) {
    if (bytes[at] !== 0xff) throw new Error(`no segment marker at ${at}`);
    const marker = bytes[at + 1] ?? 0;
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xc0) {
      return {
        height: bytes.readUInt16BE(at + 5),
        width: bytes.readUInt16BE(at + 7),
        components: bytes[at + 9] ?? 0,
      };
    }
    if (marker === 0xda) break;
    at += 2 + length;
  }
  throw new Error("no SOF0 (baseline) frame header before the scan");
}
