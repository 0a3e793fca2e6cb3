/** The goals the benchmarks check (figures only, nothing asserted): met or NOT met, with the figure. */
import { table } from "./stats.ts";

export interface Goal {
  /** What is wanted, e.g. "/help, 200 users: throughput ≥ 0.5× bare". */
  goal: string;
  /** The measured figure, e.g. "0.62×". */
  figure: string;
  met: boolean;
}

export function goalsTable(goals: readonly Goal[]): string {
  return table(
    "Goals",
    ["goal", "measured", "verdict"],
    goals.map((g) => [g.goal, g.figure, g.met ? "met" : "NOT met"]),
  );
}

/** A report and the goals it checked. */
export interface BenchResult {
  report: string;
  goals: Goal[];
}
