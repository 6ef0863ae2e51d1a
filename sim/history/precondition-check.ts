/**
 * store/stale-write-rejected, on a recorded history: a write conditioned on a resourceVersion
 * (an update's or patch's metadata.resourceVersion, a delete's preconditions) takes effect only
 * if the object was at that version right before it, and a write answered 409 Conflict changes
 * nothing (doc 1 §4.7; §2.2). Writes without an answer are held to the same rule when they took
 * effect.
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { ABSENT, UNKNOWN } from "./namespace-states.ts";
import { writeOutcome } from "./operation-index.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeObject, describeWrite } from "./witness-text.ts";
import { describeSource } from "./write-versions-check.ts";

export function checkStaleWriteRejected(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("store/stale-write-rejected");
  const { catalog, order, states, index } = analysis;
  for (const write of index.writes) {
    if (verdict.violated) break;
    const outcome = writeOutcome(write);
    if (outcome === "failed") {
      if (write.answer.type !== "failed" || write.answer.code !== 409 || write.answer.reason !== "Conflict" || write.value === undefined) continue;
      verdict.count();
      const nodes = catalog.byValue.get(write.value);
      if (nodes !== undefined) {
        const seen = catalog.nodes[nodes[0]!]!;
        verdict.fail(
          `${describeWrite(write)} was answered 409 Conflict, yet its value appears in ${describeSource(analysis, seen.deliveredBy ?? seen.firstSeen)}`,
          [write.id, (seen.deliveredBy ?? seen.firstSeen).operation],
          (seen.deliveredBy ?? seen.firstSeen).event >= 0 ? [{ operation: (seen.deliveredBy ?? seen.firstSeen).operation, index: (seen.deliveredBy ?? seen.firstSeen).event }] : [],
        );
      }
      continue;
    }
    if (write.precondition === undefined) continue;
    let nodes: readonly number[] | undefined;
    if (write.verb !== "delete") nodes = write.value === undefined ? undefined : catalog.byValue.get(write.value);
    else if (write.answer.type === "ok") nodes = catalog.deletionsByUid.get(write.answer.object.uid);
    for (const node of nodes ?? []) {
      const position = order.positionOf[node]!;
      if (position < 0) continue;
      const before = states.before[position]!;
      if (before === UNKNOWN) continue;
      verdict.count();
      if (before !== ABSENT && catalog.nodes[before]!.version === write.precondition) continue;
      const was = before === ABSENT ? `${write.name} did not exist` : `${write.name} was ${describeObject(catalog.nodes[before]!.object)}`;
      const deliveredBy = catalog.nodes[node]!.deliveredBy;
      verdict.fail(
        `${describeWrite(write)} was conditioned on rv ${write.precondition} but took effect as ${analysis.describeNode(node)} when ${was}`,
        [write.id, ...(deliveredBy === undefined ? [] : [deliveredBy.operation])],
        deliveredBy === undefined ? [] : [{ operation: deliveredBy.operation, index: deliveredBy.event }],
      );
      break;
    }
  }
  return verdict.verdict();
}
