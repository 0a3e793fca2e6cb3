import { describe, expect, it } from "vitest";
import { lazy } from "../src/support/lazy.ts";

describe("lazy", () => {
  it("loads once, at the first use", async () => {
    let loads = 0;
    const load = lazy(async () => ++loads);
    expect(loads).toBe(0);
    expect(await Promise.all([load(), load()])).toEqual([1, 1]);
    expect(await load()).toBe(1);
  });

  it("tries again at the next use after a load failed", async () => {
    let loads = 0;
    const load = lazy(async () => {
      loads++;
      if (loads === 1) throw new Error("not there yet");
      return "module";
    });
    await expect(load()).rejects.toThrow("not there yet");
    expect(await load()).toBe("module");
    expect(loads).toBe(2);
  });
});
