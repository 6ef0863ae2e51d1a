/**
 * The two validity rules of the leader election durations, reported separately (issue #6): the
 * document's (doc 2 §2.2: renew deadline ≤ lease duration) and the stricter one real clients
 * enforce (client-go NewLeaderElector: lease duration > renew deadline > 1.2 × retry period, 1.2
 * being its JitterFactor). Rule ids are those of spec/doc2/rules.ts.
 */
import type { LeaderElectionTiming } from "./leader-election-candidate.ts";

/** One rule's outcome on a timing. */
export interface TimingRuleOutcome {
  readonly ruleId: string;
  readonly source: "doc 2 §2.2" | "client-go";
  readonly holds: boolean;
  readonly text: string;
}

/** Both rules, document first. */
export function leaderElectionTimingRules(timing: LeaderElectionTiming): [TimingRuleOutcome, TimingRuleOutcome] {
  const { leaseDurationMs: lease, renewDeadlineMs: renew, retryPeriodMs: retry } = timing;
  const documentHolds = renew <= lease;
  // 5·renew > 6·retry is renew > 1.2·retry without rounding.
  const clientHolds = lease > renew && 5 * renew > 6 * retry;
  return [
    {
      ruleId: "doc2/2.2/renew-deadline-le-lease-duration",
      source: "doc 2 §2.2",
      holds: documentHolds,
      text: `renew deadline ${renew} ms ${documentHolds ? "≤" : ">"} lease duration ${lease} ms`,
    },
    {
      ruleId: "doc2/2.2/renew-deadline-gt-jittered-retry-period",
      source: "client-go",
      holds: clientHolds,
      text: `lease duration ${lease} ms ${lease > renew ? ">" : "≤"} renew deadline ${renew} ms ${5 * renew > 6 * retry ? ">" : "≤"} 1.2 × retry period ${retry} ms`,
    },
  ];
}
