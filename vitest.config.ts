import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Real servers on loopback: give slow CI machines room, never rely on timing for correctness.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here and in CI: more workers only fight over them.
    maxWorkers: 2,
  },
});
