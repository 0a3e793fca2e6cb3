import { describe, expect, it } from "vitest";
import { ManualTimers } from "../src/support/clock.ts";

describe("ManualTimers", () => {
  it("fires timers in time order, each at its own time, also those set by a timer on the way", () => {
    const timers = new ManualTimers(0);
    const fired: string[] = [];
    timers.after(300, () => fired.push(`c@${timers.now()}`));
    timers.after(100, () => {
      fired.push(`a@${timers.now()}`);
      timers.after(50, () => fired.push(`b@${timers.now()}`));
    });
    const cancel = timers.after(200, () => fired.push("cancelled"));
    cancel();
    expect(timers.nextAt).toBe(100);
    timers.advance(250);
    expect(fired).toEqual(["a@100", "b@150"]);
    expect(timers.now()).toBe(250);
    timers.advance(50);
    expect(fired).toEqual(["a@100", "b@150", "c@300"]);
    expect(timers.nextAt).toBeUndefined();
  });

  it("fires a timer due now on advance(0), and never moves back", () => {
    const timers = new ManualTimers(1000);
    let fired = false;
    timers.after(0, () => {
      fired = true;
    });
    timers.advance(0);
    expect(fired).toBe(true);
    expect(() => timers.advance(-1)).toThrow(RangeError);
  });
});
