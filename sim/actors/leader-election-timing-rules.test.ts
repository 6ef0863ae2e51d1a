import { describe, expect, it } from "vitest";
import { leaderElectionTimingRules } from "./leader-election-timing-rules.ts";

describe("leaderElectionTimingRules", () => {
  it("reports the document's rule and the client's stricter rule separately", () => {
    const holds = (leaseDurationMs: number, renewDeadlineMs: number, retryPeriodMs: number) =>
      leaderElectionTimingRules({ leaseDurationMs, renewDeadlineMs, retryPeriodMs }).map((rule) => rule.holds);
    expect(holds(15_000, 10_000, 2_000)).toEqual([true, true]);
    expect(holds(15_000, 15_000, 2_000)).toEqual([true, false]); // equal: doc 2 allows, client-go refuses
    expect(holds(15_000, 12_000, 10_000)).toEqual([true, false]); // 12 s is not > 1.2 × 10 s
    expect(holds(15_000, 30_000, 2_000)).toEqual([false, false]);
  });
});
