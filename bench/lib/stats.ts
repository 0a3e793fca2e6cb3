/** Percentiles and plain-text tables for the benchmark report. */

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array (`q` in 0..1). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const rate = (value: number): string => `${Math.round(value).toLocaleString("en-US")}/s`;
export const ratio = (value: number): string => `${value.toFixed(2)}x`;
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const int = (value: number): string => Math.round(value).toLocaleString("en-US");

/** A left-aligned first column, right-aligned others, a rule under the header. */
export function table(title: string, header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((row) => (row[col] ?? "").length)));
  const line = (row: string[]) =>
    row
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [`\n${title}`, line(header), rule, ...rows.map(line)].join("\n");
}
