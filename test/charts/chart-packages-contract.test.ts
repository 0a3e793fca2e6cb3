/**
 * What the chart engine (src/charts/render.ts) reads of its packages by file path, below their
 * JavaScript API, so @resvg/resvg-wasm and @expo-google-fonts/inter are pinned to exact versions
 * (ARCHITECTURE.md) and an upgrade that moves or changes these files fails here first:
 * - `@resvg/resvg-wasm/index_bg.wasm`: the WebAssembly module, handed to `initWasm` as bytes;
 * - `@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf` and
 *   `600SemiBold/Inter_600SemiBold.ttf`: TrueType files (resvg reads TTF/OTF, not WOFF2) of the
 *   family "Inter", the name the SVG asks for.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pinOf } from "../support/pinned.ts";

const WASM = "@resvg/resvg-wasm/index_bg.wasm";
const FONTS = ["400Regular/Inter_400Regular.ttf", "600SemiBold/Inter_600SemiBold.ttf"];
const fileOf = (specifier: string) => fileURLToPath(import.meta.resolve(specifier));

/** A TrueType (or OpenType) file: its version tag. */
const TTF_TAGS = ["00010000", "4f54544f", "74727565"];

describe("the pins", () => {
  it.each(["@resvg/resvg-wasm", "@expo-google-fonts/inter"])(
    "%s: one exact version, the one installed",
    (name) => {
      const { asked, installed } = pinOf(name);
      expect(asked).toMatch(/^\d+\.\d+\.\d+$/);
      expect(installed).toBe(asked);
    },
  );
});

describe("the files render.ts reads by path", () => {
  it("resvg's WebAssembly module is where render.ts looks, and is valid WebAssembly", async () => {
    const bytes = await readFile(fileOf(WASM));
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x00, 0x61, 0x73, 0x6d]));
    // tsconfig's lib has no WebAssembly types (no DOM): the one function needed, typed here.
    const wasm = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } })
      .WebAssembly;
    expect(wasm.validate(bytes)).toBe(true);
  });

  it.each(FONTS)("Inter's %s is a TrueType file of the family Inter", async (path) => {
    const bytes = await readFile(fileOf(`@expo-google-fonts/inter/${path}`));
    expect(TTF_TAGS).toContain(bytes.subarray(0, 4).toString("hex"));
    // The family name, as the 'name' table stores it for Windows (UTF-16BE).
    expect(bytes.includes(Buffer.from("Inter", "utf16le").swap16())).toBe(true);
  });

  it("resvg loads them: initWasm takes the module's bytes, and text in Inter is drawn with the fonts", async () => {
    const resvg = await import("@resvg/resvg-wasm");
    await resvg.initWasm(readFile(fileOf(WASM)));
    const fontBuffers = await Promise.all(
      FONTS.map((path) => readFile(fileOf(`@expo-google-fonts/inter/${path}`))),
    );
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" font-family="Inter">' +
      '<rect width="120" height="40" fill="#fff"/><text x="4" y="30" font-size="28" font-weight="600">Hi 42</text></svg>';
    const inked = (fonts: Buffer[]) => {
      const renderer = new resvg.Resvg(svg, {
        font: {
          fontBuffers: fonts,
          loadSystemFonts: false,
          defaultFontFamily: "Inter",
          sansSerifFamily: "Inter",
        },
      });
      const image = renderer.render();
      const pixels = image.pixels;
      let dark = 0;
      for (let i = 0; i < pixels.length; i += 4) if ((pixels[i] ?? 255) < 128) dark++;
      image.free();
      renderer.free();
      return dark;
    };
    // Without the files nothing is written: the text's ink comes from them.
    expect(inked([])).toBe(0);
    expect(inked(fontBuffers)).toBeGreaterThan(50);
  });
});
