/**
 * A price chart drawn on the server, as PNG bytes: the SVG is written here (a small template for
 * the title, axes, grid and legend), with d3-scale for the axes' "nice" bounds and ticks (linear
 * for values, UTC time for dates) and d3-shape for the lines' and the area's paths; resvg turns
 * the SVG into pixels. ECharts drew these before and was dropped for memory: its bundle and its
 * garbage cost some 50 MiB of the bot's RSS (bench/README.md, "(h) Price charts"), while the d3
 * modules are a few small files that allocate little per chart. resvg is its WebAssembly build:
 * no native module, so the same package runs on every platform and survives the image's
 * `npm ci --omit=optional` (the native build comes as optional per-platform packages). The font
 * is Inter, shipped as TTF files in an npm package (resvg reads TTF/OTF, not WOFF2); no system
 * font is looked up and nothing is downloaded.
 *
 * All of it is loaded at the first chart (src/support/lazy.ts), so a bot that never draws does not carry
 * it. Drawing runs in the bot's own thread: a worker thread was measured to cost more memory, not
 * less (bench/README.md). Knows nothing of Telegram: the words on the picture (title, note) come
 * in as text.
 *
 * Colours: an opaque white card with near-black text, grey axis labels and saturated lines.
 * Telegram shows a photo as it is, in light and in dark theme alike (a transparent PNG would sit
 * on the chat's wallpaper, which can be anything), so the picture brings its own background; a
 * light card gives the thin lines and small labels the most contrast and reads as a card in
 * dark theme. Several lines use the Okabe–Ito palette (told apart with colour blindness too).
 * Sizes: 960 × 540 px; labels 24 px, the title 32 px, so a phone that shows the picture ~360 pt
 * wide still prints them at ~9 and ~12 pt.
 *
 * A picture is PNG (lossless, for sendPhoto) or JPEG at a chosen width (inline photo results,
 * which the Bot API takes only as JPEG, and their thumbnails): resvg's pixels encoded by jpeg-js,
 * pure JavaScript, no native module.
 *
 * @example
 * const png = await drawChart({ title: "Bitcoin (BTC) · 24 h", lines: [{ name: "BTC", points }],
 *   unit: "eur", locale: "de", span: "day" }, { format: "png" });
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { lazy } from "../support/lazy.ts";

export const CHART_WIDTH = 960;
export const CHART_HEIGHT = 540;

const COLOURS = {
  background: "#ffffff",
  title: "#111827",
  note: "#6b7280",
  label: "#4b5563",
  grid: "#e5e7eb",
  /** One line: blue-600; several: Okabe–Ito. */
  single: "#2563eb",
  several: ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"],
} as const;

export interface ChartLine {
  /** Shown in the legend when there are several lines. */
  name: string;
  /** [ms since the epoch, value], oldest first. */
  points: readonly (readonly [number, number])[];
}

export interface ChartSpec {
  title: string;
  /** A second line under the title ("Data since …"), grey. */
  note?: string | undefined;
  lines: readonly ChartLine[];
  /** `eur`: the values are EUR prices; `percent`: each line as its change since its first point. */
  unit: "eur" | "percent";
  /** Number and date formats of the axes. */
  locale: string;
  /** How the time axis is labelled: hours of a day, or days (hours anyway when the data covers less than two days). */
  span: "day" | "days";
  /** The zone of the time axis (the reader's); UTC when absent. */
  zone?: string | undefined;
}

/** PNG at CHART_WIDTH × CHART_HEIGHT, or JPEG scaled to `width` (the height keeps the 16:9). */
export type ChartPicture = { format: "png" } | { format: "jpeg"; width: number; quality: number };

const fontFile = (path: string) => fileURLToPath(import.meta.resolve(`@expo-google-fonts/inter/${path}`));

/**
 * The axes' scales and the line's path (d3), resvg (its WebAssembly compiled once), jpeg-js and
 * the two weights of the font, loaded once.
 */
const engine = lazy(async () => {
  const [scale, shape, resvg, jpeg, regular, semiBold] = await Promise.all([
    import("d3-scale"),
    import("d3-shape"),
    import("@resvg/resvg-wasm"),
    import("jpeg-js"),
    readFile(fontFile("400Regular/Inter_400Regular.ttf")),
    readFile(fontFile("600SemiBold/Inter_600SemiBold.ttf")),
  ]);
  await resvg.initWasm(readFile(fileURLToPath(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm"))));
  return {
    scaleLinear: scale.scaleLinear,
    scaleUtc: scale.scaleUtc,
    line: shape.line,
    area: shape.area,
    Resvg: resvg.Resvg,
    encodeJpeg: jpeg.default.encode,
    // One options object for every chart: resvg still parses the fonts per picture (its
    // WebAssembly build has no font database to keep), but nothing is rebuilt here.
    fontOptions: { fontBuffers: [regular, semiBold], defaultFontFamily: "Inter", sansSerifFamily: "Inter" },
  };
});

type Engine = Awaited<ReturnType<typeof engine>>;

/** The chart as PNG (unless told otherwise) or JPEG bytes. */
export async function drawChart(spec: ChartSpec, picture: ChartPicture = { format: "png" }): Promise<Buffer> {
  const loaded = await engine();
  const { Resvg, encodeJpeg, fontOptions } = loaded;
  const renderer = new Resvg(svgOf(spec, loaded), {
    font: fontOptions,
    ...(picture.format === "jpeg" ? { fitTo: { mode: "width" as const, value: picture.width } } : {}),
  });
  try {
    const image = renderer.render();
    try {
      if (picture.format === "png") return Buffer.from(image.asPng());
      // The card is opaque white, so dropping the alpha channel changes nothing.
      const { data } = encodeJpeg(
        { data: image.pixels, width: image.width, height: image.height },
        picture.quality,
      );
      return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}

/** Font sizes and the layout's margins, in px of the 960 × 540 card. */
const TITLE_SIZE = 32;
const NOTE_SIZE = 22;
const LABEL_SIZE = 24;
const MARGIN = 24;
/** Between an axis and its labels. */
const LABEL_GAP = 10;
const DAY_MS = 24 * 60 * 60_000;

/**
 * The width of a text in Inter, estimated (there is no text measuring without a canvas): Inter's
 * digits and average letters are ~0.6 em wide; 0.62 leaves room, so a label never runs off the
 * card or into the plot.
 */
function textWidth(text: string, size: number): number {
  return text.length * size * 0.62;
}

/** The chart as an SVG document: title, note, value grid and labels, time labels, lines, legend. */
function svgOf(spec: ChartSpec, engine: Engine): string {
  const { scaleLinear, scaleUtc } = engine;
  const several = spec.lines.length > 1;
  const series = spec.lines
    .map((one) =>
      spec.unit === "percent" ? asChange(one.points) : one.points.map(([at, v]) => [at, v] as const),
    )
    .map((points, i) => ({ name: spec.lines[i]?.name ?? "", points }));
  const all = series.flatMap((one) => one.points);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="Inter">`,
    `<rect width="${CHART_WIDTH}" height="${CHART_HEIGHT}" fill="${COLOURS.background}"/>`,
    text(spec.title, MARGIN, 20 + TITLE_SIZE * 0.93, TITLE_SIZE, COLOURS.title, { weight: 600 }),
  ];
  if (spec.note) {
    parts.push(text(spec.note, MARGIN, 20 + TITLE_SIZE + 10 + NOTE_SIZE * 0.93, NOTE_SIZE, COLOURS.note));
  }

  const top = spec.note ? 128 : 84;
  const bottom = CHART_HEIGHT - (several ? 96 : 56);

  // Values: "nice" bounds around the data (not down to zero), about four steps.
  let [low, high] = extent(all.map(([, v]) => v));
  if (low === high) [low, high] = [low - Math.abs(low) * 0.01 - 1e-9, high + Math.abs(high) * 0.01 + 1e-9];
  const y = scaleLinear().domain([low, high]).nice(4).range([bottom, top]);
  const valueLabel = valueLabelOf(spec);
  const valueTicks = y.ticks(4).map((value) => ({ at: y(value), label: valueLabel(value) }));
  const left = MARGIN + Math.max(...valueTicks.map((tick) => textWidth(tick.label, LABEL_SIZE))) + LABEL_GAP;

  // Time: the reader's zone (UTC when none), ticks on whole hours or days. The plot ends 40 px from the card's edge, or more
  // where the last label, centred under its tick, would run off the card.
  const [start, end] = extent(all.map(([at]) => at));
  const x = scaleUtc().domain([start, end === start ? start + 1 : end]);
  const timeTicks = timeAxisWith(scaleUtc, spec, start, end).map(({ at, label }) => ({
    share: (at - start) / (end - start || 1),
    label,
    half: textWidth(label, LABEL_SIZE) / 2,
  }));
  const last = timeTicks.at(-1);
  const right =
    last && last.share > 0
      ? Math.min(CHART_WIDTH - 40, left + (CHART_WIDTH - 8 - last.half - left) / last.share)
      : CHART_WIDTH - 40;
  x.range([left, right]);
  for (const tick of valueTicks) {
    parts.push(
      `<path d="M${r(left)} ${r(tick.at)}H${r(right)}" stroke="${COLOURS.grid}" stroke-width="1"/>`,
      text(tick.label, left - LABEL_GAP, tick.at + LABEL_SIZE * 0.35, LABEL_SIZE, COLOURS.label, {
        anchor: "end",
      }),
    );
  }

  // A time label that would overlap its left neighbour or run off the card is left out.
  let freeFrom = 0;
  for (const { share, label, half } of timeTicks) {
    const at = left + share * (right - left);
    if (at - half < freeFrom || at + half > CHART_WIDTH) continue;
    parts.push(
      text(label, at, bottom + LABEL_GAP + LABEL_SIZE * 0.9, LABEL_SIZE, COLOURS.label, { anchor: "middle" }),
    );
    freeFrom = at + half + LABEL_SIZE;
  }
  parts.push(`<path d="M${r(left)} ${r(bottom)}H${r(right)}" stroke="${COLOURS.grid}" stroke-width="1"/>`);

  // The lines: one filled lightly below, several each in its colour.
  const colours = several ? COLOURS.several : [COLOURS.single];
  parts.push(
    ...linePaths(series, colours, { x: (point) => x(point[0]), y: (point) => y(point[1]), bottom }, engine),
  );

  if (several)
    parts.push(
      legend(
        series.map((one) => one.name),
        colours,
      ),
    );
  parts.push("</svg>");
  return parts.join("");
}

type Point = readonly [number, number];

/** The paths of the lines: a single one filled lightly below it, several each in its colour. */
function linePaths(
  series: ReadonlyArray<{ points: readonly Point[] }>,
  colours: readonly string[],
  at: { x: (point: Point) => number; y: (point: Point) => number; bottom: number },
  { line, area }: Engine,
): string[] {
  const several = series.length > 1;
  const paths: string[] = [];
  series.forEach((one, i) => {
    const colour = colours[i % colours.length];
    if (one.points.length === 0) return;
    if (!several) {
      const fill = area<readonly [number, number]>().x(at.x).y0(at.bottom).y1(at.y).digits(1)(one.points);
      paths.push(`<path d="${fill}" fill="${colour}" fill-opacity="0.08"/>`);
    }
    const path = line<readonly [number, number]>().x(at.x).y(at.y).digits(1)(one.points);
    paths.push(
      `<path d="${path}" fill="none" stroke="${colour}" stroke-width="${several ? 3 : 4}" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
  });
  return paths;
}

/** Names with a short bar of their line's colour, centred at the bottom of the card. */
function legend(names: readonly string[], colours: readonly string[]): string {
  const icon = 28;
  const widths = names.map((name) => icon + 8 + textWidth(name, LABEL_SIZE));
  const total = widths.reduce((sum, width) => sum + width, 0) + 24 * (names.length - 1);
  const baseline = CHART_HEIGHT - 16 - 6;
  let at = (CHART_WIDTH - total) / 2;
  const parts: string[] = [];
  names.forEach((name, i) => {
    parts.push(
      `<rect x="${r(at)}" y="${r(baseline - LABEL_SIZE * 0.35 - 4)}" width="${icon}" height="8" rx="4" fill="${colours[i % colours.length]}"/>`,
      text(name, at + icon + 8, baseline, LABEL_SIZE, COLOURS.title),
    );
    at += (widths[i] ?? 0) + 24;
  });
  return parts.join("");
}

function text(
  content: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  options: { weight?: number; anchor?: "middle" | "end" } = {},
): string {
  const weight = options.weight ? ` font-weight="${options.weight}"` : "";
  const anchor = options.anchor ? ` text-anchor="${options.anchor}"` : "";
  return `<text x="${r(x)}" y="${r(y)}" font-size="${size}" fill="${fill}"${weight}${anchor}>${escapeXml(content)}</text>`;
}

/** A number for the SVG, to a tenth of a pixel. */
function r(value: number): number {
  return Math.round(value * 10) / 10;
}

function escapeXml(content: string): string {
  return content.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The smallest and largest of some numbers ([0, 0] for none), without spreading a long array. */
function extent(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 0];
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return [low, high];
}

/** Each value as its change in percent from the line's first point. */
function asChange(points: ChartLine["points"]): [number, number][] {
  const base = points[0]?.[1];
  if (base === undefined || base === 0) return [];
  return points.map(([at, value]) => [at, ((value - base) / base) * 100]);
}

/**
 * Number and date formats, made once per locale and kept: an ICU formatter costs hundreds of
 * kilobytes of C++ heap that only a full GC gives back (its JS wrapper dies old), so a formatter
 * made per chart grew the C++ heap by tens of MiB over 60 charts (measured, bench/README.md).
 */
const FORMATS = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function formatOf<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let format = FORMATS.get(key);
  if (format === undefined) {
    format = make();
    FORMATS.set(key, format);
  }
  return format as T;
}

/**
 * The time axis's ticks from `start` to `end` (ms) and their labels. Data shorter than two days is
 * labelled by hours whatever the span asked for; ticks closer than the labels can tell apart (15 s
 * steps over one minute of data) are dropped, so no label repeats.
 */
export async function timeAxis(
  spec: Pick<ChartSpec, "locale" | "span" | "zone">,
  start: number,
  end: number,
): Promise<{ at: number; label: string }[]> {
  return timeAxisWith((await engine()).scaleUtc, spec, start, end);
}

function timeAxisWith(
  scaleUtc: Engine["scaleUtc"],
  spec: Pick<ChartSpec, "locale" | "span" | "zone">,
  start: number,
  end: number,
): { at: number; label: string }[] {
  const x = scaleUtc().domain([start, end === start ? start + 1 : end]);
  const timeLabel = timeLabelOf({ ...spec, span: end - start < 2 * DAY_MS ? "day" : spec.span });
  const seen = new Set<string>();
  return x
    .ticks(5)
    .map((tick) => ({ at: tick.getTime(), label: timeLabel(tick.getTime()) }))
    .filter((tick) => !seen.has(tick.label) && seen.add(tick.label));
}

function timeLabelOf(spec: Pick<ChartSpec, "locale" | "span" | "zone">): (value: number) => string {
  const timeZone = spec.zone ?? "UTC";
  const format = formatOf(
    `time:${spec.span}:${spec.locale}:${timeZone}`,
    () =>
      new Intl.DateTimeFormat(
        spec.locale,
        spec.span === "day"
          ? { hour: "numeric", minute: "2-digit", timeZone }
          : { day: "numeric", month: "short", timeZone },
      ),
  );
  return (value) => format.format(value);
}

function valueLabelOf(spec: ChartSpec): (value: number) => string {
  if (spec.unit === "percent") {
    const format = formatOf(
      `percent:${spec.locale}`,
      () => new Intl.NumberFormat(spec.locale, { maximumFractionDigits: 1, signDisplay: "exceptZero" }),
    );
    return (value) => `${format.format(value)} %`;
  }
  return (value) => {
    // As many decimals as the size of the price needs: 58,650 €, 0.5123 €.
    const digits = value >= 1000 ? 0 : value >= 1 ? 2 : 4;
    const format = formatOf(
      `eur:${digits}:${spec.locale}`,
      () =>
        new Intl.NumberFormat(spec.locale, {
          style: "currency",
          currency: "EUR",
          minimumFractionDigits: 0,
          maximumFractionDigits: digits,
        }),
    );
    return format.format(value);
  };
}
