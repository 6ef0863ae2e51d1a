/**
 * history/write-atomic: a write takes effect whole and at most once. Its value is unique, so
 * "at most once" is: one change per value; "whole" is: the change that carries the value has the
 * labels the write set (create and update: exactly its labels; merge patch: the labels before,
 * with its changes applied). A write without an answer (or answered 5xx) may have taken effect or
 * not: the value seen in a delivered change says it did, its absence that it did not (or not yet
 * visibly): both branches are accepted, as etcd's robustness tests accept both, but neither twice
 * nor half. Twice by an acknowledged write is a version contradiction (history/write-versions).
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { UNKNOWN } from "./namespace-states.ts";
import { sameLabels } from "./object-equality.ts";
import { writeOutcome } from "./operation-index.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeWrite } from "./witness-text.ts";

export function checkWriteAtomic(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/write-atomic");
  const { catalog, order, states, index } = analysis;
  for (const write of index.writes) {
    if (verdict.violated) break;
    const outcome = writeOutcome(write);
    if (write.verb === "delete" || write.value === undefined || outcome === "failed") continue;
    verdict.count();
    const nodes = (catalog.byValue.get(write.value) ?? []).filter((node) => catalog.nodes[node]!.delivered);
    if (outcome === "uncertain" && nodes.length > 1) {
      const [first, second] = [catalog.nodes[nodes[0]!]!, catalog.nodes[nodes[1]!]!];
      const shown = [first.deliveredBy!, second.deliveredBy!];
      verdict.fail(
        `${describeWrite(write)}, whose outcome the client never learned, took effect twice: as ${analysis.describeNode(first.index)} and as ${analysis.describeNode(second.index)}`,
        [write.id, ...shown.map((at) => at.operation)],
        shown.map((at) => ({ operation: at.operation, index: at.event })),
      );
      break;
    }
    for (const node of nodes) {
      const position = order.positionOf[node]!;
      const change = catalog.nodes[node]!;
      if (position < 0 || change.kind !== "write") continue;
      const asked = write.labels ?? {};
      let expected: Record<string, string>;
      if (write.verb === "patch") {
        const before = states.before[position]!;
        if (before === UNKNOWN || before < 0) continue;
        expected = { ...catalog.nodes[before]!.object.labels };
        for (const [key, value] of Object.entries(asked)) {
          if (value === null) delete expected[key];
          else expected[key] = value;
        }
      } else {
        expected = {};
        for (const [key, value] of Object.entries(asked)) if (value !== null) expected[key] = value;
      }
      if (change.object.name === write.name && sameLabels(change.object.labels, expected)) continue;
      const at = change.deliveredBy!;
      verdict.fail(
        `${describeWrite(write)} took effect only in part: ${analysis.describeNode(node)} has ${change.object.name} with labels ${JSON.stringify(change.object.labels)}, where the write asked for ${JSON.stringify(expected)}`,
        [write.id, at.operation],
        [{ operation: at.operation, index: at.event }],
      );
      break;
    }
  }
  return verdict.verdict();
}
