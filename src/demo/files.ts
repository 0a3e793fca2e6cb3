/**
 * Where the demo puts the pictures and files the bot sends (charts, QR codes, statements), so that
 * they can be opened: one folder, printed once at start, each file named by the order it came in.
 * The folder outlives the demo (the temporary store does not); what an earlier run wrote there is
 * cleared at start, nothing else.
 *
 * @example
 * const files = new DemoFiles("demo-files"); files.prepare();
 * files.save("btc-24h.png", bytes); // "demo-files/001-btc-24h.png"
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";

/** DEMO_FILES_DIR, else this folder under the one the demo was started in. */
export const DEMO_FILES_DIR = "demo-files";

/** The names this class gives: a number, a dash, the bot's own file name. */
const WRITTEN = /^\d{3,}-/;

export class DemoFiles {
  readonly folder: string;
  #count = 0;

  constructor(folder: string) {
    this.folder = folder;
  }

  /** Makes the folder and clears what an earlier demo wrote there. */
  prepare(): void {
    mkdirSync(this.folder, { recursive: true });
    for (const name of readdirSync(this.folder)) {
      if (WRITTEN.test(name)) rmSync(join(this.folder, name), { force: true });
    }
  }

  /** Writes one file; its path as the demo prints it (relative to where it was started, if inside). */
  save(filename: string, bytes: Uint8Array): string {
    this.#count += 1;
    // The bot's name, without anything that could lead out of the folder.
    const safe = filename.replace(/[^\w.-]+/g, "_").replace(/^\.+/, "") || "file";
    const path = join(this.folder, `${String(this.#count).padStart(3, "0")}-${safe}`);
    writeFileSync(path, bytes);
    return shown(path);
  }

  /** The folder as the demo prints it. */
  shown(): string {
    return shown(this.folder);
  }
}

function shown(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}
