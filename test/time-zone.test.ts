import { describe, expect, it } from "vitest";
import {
  addDays,
  daysInMonth,
  instantOf,
  isTimeZone,
  localTime,
  offsetLabel,
  offsetMinutes,
  parseTimeZone,
} from "../src/domain/time-zone.ts";

describe("parseTimeZone", () => {
  it.each([
    ["Berlin", "Europe/Berlin"],
    ["  new york ", "America/New_York"],
    ["Europe/Berlin", "Europe/Berlin"],
    ["tokyo", "Asia/Tokyo"],
    ["UTC", "UTC"],
    ["gmt", "UTC"],
    ["+2", "+02:00"],
    ["UTC-3", "-03:00"],
    ["GMT+05:30", "+05:30"],
    ["+0530", "+05:30"],
    ["−4", "-04:00"],
    ["utc+0", "+00:00"],
    ["-0", "+00:00"],
  ])("%s → %s", (typed, zone) => {
    expect(parseTimeZone(typed)).toBe(zone);
  });

  it.each(["", "Atlantis", "+15", "UTC+5:75", "12", "Europe/Nowhere"])("refuses %j", (typed) => {
    expect(parseTimeZone(typed)).toBeUndefined();
  });

  it("accepts a city Intl knows under an older name", () => {
    const zone = parseTimeZone("Kolkata");
    expect(zone).toBeDefined();
    expect(offsetMinutes(zone as string, Date.UTC(2026, 0, 1))).toBe(330);
  });

  it("knows which stored zones still exist", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("+05:30")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});

describe("wall-clock arithmetic", () => {
  it("reads the local time and weekday of an instant", () => {
    // 2026-11-24 was a Tuesday; 23:30 UTC is 00:30 on Wednesday in Berlin.
    expect(localTime("Europe/Berlin", Date.UTC(2026, 10, 24, 23, 30))).toEqual({
      year: 2026,
      month: 11,
      day: 25,
      hour: 0,
      minute: 30,
      weekday: 3,
    });
    expect(localTime("-03:00", Date.UTC(2026, 10, 24, 1, 0)).day).toBe(23);
  });

  it("follows summer time", () => {
    expect(offsetMinutes("Europe/Berlin", Date.UTC(2026, 0, 15))).toBe(60);
    expect(offsetMinutes("Europe/Berlin", Date.UTC(2026, 6, 15))).toBe(120);
    expect(offsetLabel("Europe/Berlin", Date.UTC(2026, 6, 15))).toBe("UTC+02:00");
    expect(offsetLabel("America/St_Johns", Date.UTC(2026, 0, 15))).toBe("UTC−03:30");
    expect(offsetLabel("UTC", 0)).toBe("UTC");
  });

  it("turns a local time into its instant, on ordinary days and both summer-time nights", () => {
    const zone = "Europe/Berlin";
    expect(instantOf(zone, { year: 2026, month: 1, day: 10, hour: 9, minute: 0 })).toBe(
      Date.UTC(2026, 0, 10, 8, 0),
    );
    expect(instantOf(zone, { year: 2026, month: 7, day: 10, hour: 9, minute: 0 })).toBe(
      Date.UTC(2026, 6, 10, 7, 0),
    );
    // 2026-03-29: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist and is taken as 03:30 CEST.
    expect(instantOf(zone, { year: 2026, month: 3, day: 29, hour: 2, minute: 30 })).toBe(
      Date.UTC(2026, 2, 29, 1, 30),
    );
    // 2026-10-25: 03:00 CEST goes back to 02:00 CET; 02:30 happens twice, the first one counts.
    expect(instantOf(zone, { year: 2026, month: 10, day: 25, hour: 2, minute: 30 })).toBe(
      Date.UTC(2026, 9, 25, 0, 30),
    );
    expect(instantOf("+05:30", { year: 2026, month: 1, day: 1, hour: 0, minute: 0 })).toBe(
      Date.UTC(2025, 11, 31, 18, 30),
    );
  });

  it("counts days of months and moves dates across month and year ends", () => {
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2026, 2)).toBe(28);
    expect(daysInMonth(2026, 12)).toBe(31);
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addDays({ year: 2026, month: 3, day: 1 }, -1)).toEqual({ year: 2026, month: 2, day: 28 });
  });
});
