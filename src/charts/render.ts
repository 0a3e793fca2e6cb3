/**
 * A price chart drawn on the server, as PNG bytes: Apache ECharts lays it out and renders SVG
 * (its server-side renderer, no DOM), resvg turns the SVG into pixels. resvg is its WebAssembly
 * build: no native module, so the same package runs on every platform and survives the image's
 * `npm ci --omit=optional` (the native build comes as optional per-platform packages). The font
 * is Inter, shipped as TTF files in an npm package (resvg reads TTF/OTF, not WOFF2); no system
 * font is looked up and nothing is downloaded.
 *
 * All of it is loaded at the first chart (src/lazy.ts), so a bot that never draws does not carry
 * it. Drawing runs in the bot's own thread: a worker thread was measured to cost more memory, not
 * less (bench/README.md, "(h) Price charts"). Knows nothing of Telegram: the words on the picture
 * (title, note) come in as text.
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
import { lazy } from "../lazy.ts";

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
  /** How the time axis is labelled: hours of a day, or days. */
  span: "day" | "days";
}

/** PNG at CHART_WIDTH × CHART_HEIGHT, or JPEG scaled to `width` (the height keeps the 16:9). */
export type ChartPicture = { format: "png" } | { format: "jpeg"; width: number; quality: number };

const fontFile = (path: string) => fileURLToPath(import.meta.resolve(`@expo-google-fonts/inter/${path}`));

/** ECharts, resvg (its WebAssembly compiled once) and the two weights of the font, loaded once. */
const engine = lazy(async () => {
  const [echarts, resvg, jpeg, regular, semiBold] = await Promise.all([
    import("echarts/dist/echarts.common.min.js"),
    import("@resvg/resvg-wasm"),
    import("jpeg-js"),
    readFile(fontFile("400Regular/Inter_400Regular.ttf")),
    readFile(fontFile("600SemiBold/Inter_600SemiBold.ttf")),
  ]);
  await resvg.initWasm(readFile(fileURLToPath(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm"))));
  return {
    echarts: echarts.default,
    Resvg: resvg.Resvg,
    encodeJpeg: jpeg.default.encode,
    fonts: [regular, semiBold],
  };
});

/** Loads the engine now (the bench times a chart apart from the first load). */
export async function loadChartEngine(): Promise<void> {
  await engine();
}

/** The chart as PNG (unless told otherwise) or JPEG bytes. */
export async function drawChart(spec: ChartSpec, picture: ChartPicture = { format: "png" }): Promise<Buffer> {
  const { echarts, Resvg, encodeJpeg, fonts } = await engine();
  const chart = echarts.init(null, null, {
    renderer: "svg",
    ssr: true,
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
  });
  let svg: string;
  try {
    chart.setOption(optionOf(spec));
    svg = expandFontShorthand(chart.renderToSVGString());
  } finally {
    chart.dispose();
  }
  const renderer = new Resvg(svg, {
    font: { fontBuffers: fonts, defaultFontFamily: "Inter", sansSerifFamily: "Inter" },
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

/**
 * ECharts writes some labels' font as the CSS shorthand (`font: normal normal 24px Inter`), which
 * resvg does not read (it drew them at its default 12 px): written out as the four properties.
 */
function expandFontShorthand(svg: string): string {
  return svg.replace(
    /style="font: ?(normal|italic|oblique) (normal|bold|bolder|lighter|\d{3}) (\d+(?:\.\d+)?)px ([^";]+)"/g,
    'style="font-style:$1;font-weight:$2;font-size:$3px;font-family:$4"',
  );
}

function optionOf(spec: ChartSpec): Record<string, unknown> {
  const several = spec.lines.length > 1;
  const axisLabel = { fontSize: 24, color: COLOURS.label, fontFamily: "Inter" };
  const top = spec.note ? 128 : 84;
  return {
    animation: false,
    useUTC: true,
    backgroundColor: COLOURS.background,
    textStyle: { fontFamily: "Inter" },
    color: several ? COLOURS.several : [COLOURS.single],
    title: {
      text: spec.title,
      subtext: spec.note ?? "",
      left: 24,
      top: 20,
      itemGap: 10,
      textStyle: { fontSize: 32, fontWeight: 600, color: COLOURS.title },
      subtextStyle: { fontSize: 22, color: COLOURS.note },
    },
    legend: several
      ? {
          bottom: 16,
          left: "center",
          icon: "roundRect",
          itemWidth: 28,
          itemHeight: 8,
          textStyle: { fontSize: 24, color: COLOURS.title },
        }
      : { show: false },
    grid: {
      left: 24,
      right: 40,
      top,
      bottom: several ? 96 : 56,
      // ECharts measures text without the font (no canvas on the server): room for its misjudgement.
      outerBounds: { left: 24, right: 24, top: 0, bottom: 0 },
    },
    xAxis: {
      type: "time",
      axisLabel: { ...axisLabel, hideOverlap: true, formatter: timeLabel(spec) },
      axisLine: { lineStyle: { color: COLOURS.grid } },
      axisTick: { show: false },
      splitNumber: 4,
    },
    yAxis: {
      type: "value",
      scale: true,
      splitNumber: 4,
      axisLabel: { ...axisLabel, formatter: valueLabel(spec) },
      splitLine: { lineStyle: { color: COLOURS.grid } },
    },
    series: spec.lines.map((line) => ({
      type: "line",
      name: line.name,
      data: spec.unit === "percent" ? asChange(line.points) : line.points.map(([at, value]) => [at, value]),
      showSymbol: false,
      lineStyle: { width: several ? 3 : 4 },
      ...(several ? {} : { areaStyle: { opacity: 0.08 } }),
    })),
  };
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

function timeLabel(spec: ChartSpec): (value: number) => string {
  const format = formatOf(
    `time:${spec.span}:${spec.locale}`,
    () =>
      new Intl.DateTimeFormat(
        spec.locale,
        spec.span === "day"
          ? { hour: "numeric", minute: "2-digit", timeZone: "UTC" }
          : { day: "numeric", month: "short", timeZone: "UTC" },
      ),
  );
  return (value) => format.format(value);
}

function valueLabel(spec: ChartSpec): (value: number) => string {
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
