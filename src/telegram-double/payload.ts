import { badRequest } from "./errors.ts";
import type { FileSummary } from "./state.ts";

/** A file that came in a multipart upload, standing in the payload where grammY put "attach://…". */
export class Upload implements FileSummary {
  readonly filename: string;
  readonly size: number;
  readonly mime: string;

  /** What was uploaded, kept so a test can read the file back (a statement, a picture). */
  readonly bytes: Uint8Array | undefined;

  constructor(filename: string, size: number, mime: string, bytes?: Uint8Array) {
    this.filename = filename;
    this.size = size;
    this.mime = mime;
    this.bytes = bytes;
  }

  /** Its summary for logs: without the bytes. */
  toJSON(): FileSummary {
    return { filename: this.filename, size: this.size, mime: this.mime };
  }

  /** Its summary with the bytes, as a sent message keeps it. */
  kept(): FileSummary {
    return this.bytes === undefined ? this.toJSON() : { ...this.toJSON(), bytes: this.bytes };
  }
}

/** A method's parameters: parsed JSON, or form fields (objects JSON-decoded, files as `Upload`s). */
export type Payload = Record<string, unknown>;

/** An integer parameter; form fields and query strings carry numbers as text. */
export function int(p: Payload, key: string): number | undefined {
  const v = p[key];
  if (v === undefined || v === null || v === "") return undefined;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : Number.NaN;
  if (!Number.isInteger(n)) throw badRequest(`field "${key}" must be of type Integer`);
  return n;
}

export function str(p: Payload, key: string): string | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw badRequest(`field "${key}" must be of type String`);
}

export function bool(p: Payload, key: string): boolean {
  const v = p[key];
  return v === true || v === "true" || v === 1 || v === "1";
}

/** An object or array parameter; in form data it arrives as JSON text. */
export function json<T>(p: Payload, key: string): T | undefined {
  const v = p[key];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") return v as T;
  try {
    return JSON.parse(v) as T;
  } catch {
    throw badRequest(`can't parse ${key} JSON object`);
  }
}
