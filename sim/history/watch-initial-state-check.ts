/**
 * history/watch-initial-state: the synthetic ADDED events of a Get State watch are one state of
 * the namespace, restricted to its selector, right before the changes it then sends; without
 * resourceVersion, a state that reflects every write acknowledged before the watch was sent
 * (doc 1 §4.7). The placing is watch-starts.ts's work; this reports what it found.
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { VerdictBuilder } from "./verdict-builders.ts";

export function checkWatchInitialState(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/watch-initial-state");
  verdict.count(analysis.starts.statesChecked);
  for (const finding of analysis.starts.findings) {
    if (finding.invariant === "history/watch-initial-state") verdict.fail(finding.explanation, finding.operations, finding.events);
  }
  return verdict.verdict();
}
