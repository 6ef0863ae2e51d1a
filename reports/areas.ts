/** Cases grouped by area with their counts: the per-area tables and the JUnit test suites. */
import { totals, type CaseResult, type CaseStatus, type RunResults } from "../conformance/results.ts";

/** One area of a run: its cases (in run order), counts by status and summed duration. */
export interface AreaSummary {
  readonly area: string;
  readonly cases: readonly CaseResult[];
  readonly counts: Readonly<Record<CaseStatus | "total", number>>;
  readonly durationMs: number;
}

/** The run's areas, sorted by name so every report lists them in the same order. */
export function areaSummaries(results: Pick<RunResults, "cases">): AreaSummary[] {
  const byArea = new Map<string, CaseResult[]>();
  for (const result of results.cases) {
    const list = byArea.get(result.area);
    if (list === undefined) byArea.set(result.area, [result]);
    else list.push(result);
  }
  return [...byArea.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((area) => {
      const cases = byArea.get(area)!;
      return { area, cases, counts: totals({ cases }), durationMs: cases.reduce((sum, result) => sum + result.durationMs, 0) };
    });
}
