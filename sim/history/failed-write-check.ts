/**
 * history/failed-write-no-effect: a write answered with a client error (4xx other than a stale
 * precondition's 409 Conflict, which store/stale-write-rejected judges) never takes effect: its
 * value appears nowhere, not in a watch event, not in a read. A 5xx is not a failure here: the
 * server may commit after answering (operation-index.ts, writeOutcome).
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { writeOutcome } from "./operation-index.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeWrite } from "./witness-text.ts";
import { describeSource } from "./write-versions-check.ts";

export function checkFailedWriteNoEffect(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/failed-write-no-effect");
  const { catalog, index } = analysis;
  for (const write of index.writes) {
    if (writeOutcome(write) !== "failed" || write.answer.type !== "failed" || write.value === undefined) continue;
    if (write.answer.code === 409 && write.answer.reason === "Conflict") continue;
    verdict.count();
    const nodes = catalog.byValue.get(write.value);
    if (nodes === undefined) continue;
    const seen = catalog.nodes[nodes[0]!]!;
    const at = seen.deliveredBy ?? seen.firstSeen;
    verdict.fail(
      `${describeWrite(write)} was answered ${write.answer.code} ${write.answer.reason}, yet its value appears in ${describeSource(analysis, at)}`,
      [write.id, at.operation],
      at.event >= 0 ? [{ operation: at.operation, index: at.event }] : [],
    );
  }
  return verdict.verdict();
}
