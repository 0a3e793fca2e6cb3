/**
 * When plans run (src/plans/schedule.ts), on Intl's zone data: a daily 09:00 in Berlin across the
 * spring and autumn changes, an hour the clocks skip, the month's last day (February of a leap
 * year included), a weekday, and the runs between two instants after downtime.
 */
import { describe, expect, it } from "vitest";
import { localTime } from "../../src/domain/time-zone.ts";
import { nextRun, runsBetween, runsOn } from "../../src/plans/schedule.ts";

const BERLIN = "Europe/Berlin";
const at = (iso: string) => Date.parse(iso);

describe("a plan's schedule", () => {
  it("daily at 09:00 Berlin: 08:00 UTC in winter, 07:00 UTC from the spring change, 08:00 again after autumn's", () => {
    const spring = runsBetween(
      { every: "day", hour: 9 },
      BERLIN,
      at("2027-03-26T12:00:00Z"),
      at("2027-03-30T12:00:00Z"),
    );
    expect(spring.map((r) => [r.date, new Date(r.at).toISOString()])).toEqual([
      ["2027-03-27", "2027-03-27T08:00:00.000Z"],
      ["2027-03-28", "2027-03-28T07:00:00.000Z"],
      ["2027-03-29", "2027-03-29T07:00:00.000Z"],
      ["2027-03-30", "2027-03-30T07:00:00.000Z"],
    ]);
    const autumn = runsBetween(
      { every: "day", hour: 9 },
      BERLIN,
      at("2026-10-24T12:00:00Z"),
      at("2026-10-26T12:00:00Z"),
    );
    expect(autumn.map((r) => new Date(r.at).toISOString())).toEqual([
      "2026-10-25T08:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
    ]);
  });

  it("an hour the clocks skip runs at the same time after the jump, once", () => {
    const runs = runsBetween(
      { every: "day", hour: 2 },
      BERLIN,
      at("2027-03-27T12:00:00Z"),
      at("2027-03-29T12:00:00Z"),
    );
    expect(runs.map((r) => r.date)).toEqual(["2027-03-28", "2027-03-29"]);
    expect(localTime(BERLIN, runs[0]?.at ?? 0).hour).toBe(3);
    expect(localTime(BERLIN, runs[1]?.at ?? 0).hour).toBe(2);
  });

  it("monthly on the last day: 30th, 31st, 28th and 29th of February", () => {
    const runs = runsBetween(
      { every: "month", day: "last", hour: 9 },
      BERLIN,
      at("2027-11-01T00:00:00Z"),
      at("2028-04-01T00:00:00Z"),
    );
    expect(runs.map((r) => r.date)).toEqual([
      "2027-11-30",
      "2027-12-31",
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
    ]);
    expect(runsOn({ every: "month", day: "last", hour: 9 }, { year: 2027, month: 2, day: 28 })).toBe(true);
  });

  it("monthly on a fixed day and weekly on a weekday", () => {
    expect(nextRun({ every: "month", day: 28, hour: 18 }, "UTC", at("2027-02-28T18:00:00Z")).date).toBe(
      "2027-03-28",
    );
    // 2026-11-22 is a Sunday; the next Monday 07:00 in New York.
    const monday = nextRun(
      { every: "week", weekday: 1, hour: 7 },
      "America/New_York",
      at("2026-11-22T10:00:00Z"),
    );
    expect(monday).toEqual({ date: "2026-11-23", at: at("2026-11-23T12:00:00Z") });
  });

  it("a run exactly now is not next: the next is strictly later", () => {
    const now = at("2027-01-05T08:00:00Z");
    expect(nextRun({ every: "day", hour: 9 }, BERLIN, now).date).toBe("2027-01-06");
  });
});
