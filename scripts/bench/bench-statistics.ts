/** Median and spread of a figure's repeated runs. */

export interface FigureRuns {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: readonly number[];
}

/** The median (the mean of the middle two for an even count) and the range. */
export function summarize(runs: readonly number[]): FigureRuns {
  if (runs.length === 0) throw new Error("no runs to summarize");
  const sorted = [...runs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs };
}

/** How many times faster the embedded server is than the real one, whichever way the figure is better. */
export function speedup(embedded: number, real: number, better: "higher" | "lower"): number {
  return better === "higher" ? embedded / real : real / embedded;
}
