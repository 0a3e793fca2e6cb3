/**
 * Real pictures: the chart engine draws PNG bytes, read back here (signature, IHDR's width and
 * height, a size that fits a photo) and decoded far enough to see that the picture is not blank;
 * and JPEG bytes (inline photos), read back as far as their markers and frame size.
 */
import { describe, expect, it } from "vitest";
import { CHART_HEIGHT, CHART_WIDTH, type ChartSpec, drawChart } from "../../src/charts/render.ts";
import { readJpeg } from "../support/jpeg.ts";
import { PNG_SIGNATURE, readPng } from "../support/png.ts";

/** A day of 5-minute points drifting around 58,000 €, the same every run. */
function dayOfPoints(base: number): [number, number][] {
  const end = Date.parse("2026-11-24T12:00:00Z");
  return Array.from({ length: 288 }, (_, i) => [
    end - (287 - i) * 300_000,
    base * (1 + Math.sin(i / 20) / 50),
  ]);
}

describe("drawChart", () => {
  it("draws one currency as a 960 × 540 PNG of a photo's size", async () => {
    const png = await drawChart({
      title: "Bitcoin (BTC) · 24 h",
      note: "Data since Nov 24, 2026, 2:05 AM UTC",
      lines: [{ name: "BTC", points: dayOfPoints(58_000) }],
      unit: "eur",
      locale: "en",
      span: "day",
    });
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const image = readPng(png);
    expect([image.width, image.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(image.bitDepth).toBe(8);
    // Telegram takes photos up to 10 MB; a chart is tens of kilobytes.
    expect(png.length).toBeGreaterThan(10_000);
    expect(png.length).toBeLessThan(200_000);
    // Every scanline is there, and the picture is not one flat colour.
    const channels = image.colourType === 6 ? 4 : image.colourType === 2 ? 3 : 1;
    expect(image.raw.length).toBe(image.height * (1 + image.width * channels));
    expect(new Set(image.raw).size).toBeGreaterThan(16);
  });

  it("draws several currencies as their change in percent, in German", async () => {
    const png = await drawChart({
      title: "Veränderung in % · 24 Std.",
      lines: [
        { name: "BTC", points: dayOfPoints(58_000) },
        {
          name: "ETH",
          points: dayOfPoints(2_000)
            .reverse()
            .map(([, v], i, all) => [all[i]?.[0] ?? 0, v]),
        },
        { name: "XRP", points: dayOfPoints(0.5) },
      ],
      unit: "percent",
      locale: "de",
      span: "day",
    });
    const image = readPng(png);
    expect([image.width, image.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    expect(png.length).toBeGreaterThan(10_000);
  });

  it("draws days on the time axis for a month", async () => {
    const end = Date.parse("2026-11-24T12:00:00Z");
    const points: [number, number][] = Array.from({ length: 180 }, (_, i) => [
      end - (179 - i) * 4 * 3_600_000,
      0.5 + i / 1000,
    ]);
    const png = await drawChart({
      title: "Ripple (XRP) · 30 days",
      lines: [{ name: "XRP", points }],
      unit: "eur",
      locale: "en",
      span: "days",
    });
    expect(readPng(png).width).toBe(CHART_WIDTH);
  });
});

describe("drawChart as JPEG", () => {
  const spec: ChartSpec = {
    title: "Bitcoin (BTC) · 24 h",
    lines: [{ name: "BTC", points: dayOfPoints(58_000) }],
    unit: "eur",
    locale: "en",
    span: "day",
  };

  it("draws the photo at 960 × 540 and the thumbnail at 320 × 180, both JPEG", async () => {
    const photo = await drawChart(spec, { format: "jpeg", width: 960, quality: 85 });
    expect(readJpeg(photo)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT, components: 3 });
    // The Bot API takes inline photos up to 5 MB.
    expect(photo.length).toBeGreaterThan(10_000);
    expect(photo.length).toBeLessThan(200_000);
    const thumbnail = await drawChart(spec, { format: "jpeg", width: 320, quality: 75 });
    expect(readJpeg(thumbnail)).toEqual({ width: 320, height: 180, components: 3 });
    expect(thumbnail.length).toBeLessThan(photo.length / 2);
  });
});
