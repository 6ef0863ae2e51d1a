/**
 * history/write-versions: one change, one version (doc 1 §2.2). The catalog recorded every
 * sighting that contradicts another: a version naming two changes, a value delivered as two
 * changes, an answer or a read carrying a version other than the one its change was delivered
 * with. A value delivered twice by a write whose outcome was uncertain is the write-atomic check's
 * ("happened twice"), not this one's.
 */
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import type { SourceRef } from "./change-catalog.ts";
import { writeOutcome } from "./operation-index.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeEvent, describeObject, describeOperation } from "./witness-text.ts";

/** Words for where something was seen. */
export function describeSource(analysis: HistoryAnalysis, at: SourceRef): string {
  const operation = analysis.index.operation(at.operation);
  if (operation === undefined) return `operation #${at.operation}`;
  if (operation.kind === "watch" && at.event >= 0) return `${describeOperation(operation)}, event ${at.event}: ${describeEvent(operation.events[at.event]!)}`;
  if (operation.kind === "write") return `the answer to ${describeOperation(operation)}`;
  return describeOperation(operation);
}

function eventsOf(at: SourceRef): { operation: number; index: number }[] {
  return at.event >= 0 ? [{ operation: at.operation, index: at.event }] : [];
}

export function checkWriteVersions(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/write-versions");
  const { catalog, index } = analysis;
  verdict.count(catalog.sightings);
  for (const conflict of catalog.conflicts) {
    const first = catalog.nodes[conflict.node]!;
    const writeOfValue = (value: string | undefined) => (value === undefined ? undefined : index.writeByValue.get(value));
    const writes = [writeOfValue(first.object.value), writeOfValue(conflict.object.value)].flatMap((write) => (write === undefined ? [] : [write.id]));
    switch (conflict.kind) {
      case "shared-version":
        verdict.fail(
          `version ${first.version} names two different changes: ${describeObject(first.object)} as ${first.kind === "delete" ? "a deletion " : ""}seen in ${describeSource(analysis, first.firstSeen)}, and ${describeObject(conflict.object)} in ${describeSource(analysis, conflict.at)}`,
          [...writes, first.firstSeen.operation, conflict.at.operation],
          [...eventsOf(first.firstSeen), ...eventsOf(conflict.at)],
        );
        break;
      case "two-versions": {
        const other = catalog.nodes[conflict.otherNode]!;
        const write = writeOfValue(conflict.object.value);
        // A value delivered twice by a write without answer: it took effect twice (write-atomic).
        if (write !== undefined && writeOutcome(write) === "uncertain" && first.delivered && other.delivered) break;
        const what = first.kind === "delete" ? `the deletion of ${first.object.name} (uid ${first.uid})` : `the change that set ${first.object.name}=${first.object.value ?? "?"}`;
        verdict.fail(
          `${what} has two versions: ${first.version} in ${describeSource(analysis, first.deliveredBy ?? first.firstSeen)} and ${other.version} in ${describeSource(analysis, conflict.at)}`,
          [...writes, (first.deliveredBy ?? first.firstSeen).operation, conflict.at.operation],
          [...eventsOf(first.deliveredBy ?? first.firstSeen), ...eventsOf(conflict.at)],
        );
        break;
      }
      case "wrong-version":
        verdict.fail(
          `${describeSource(analysis, conflict.at)} carries ${describeObject(conflict.object)}, but the change that set ${conflict.object.name}=${conflict.object.value ?? "?"} has version ${first.version} (${describeSource(analysis, first.deliveredBy ?? first.firstSeen)})`,
          [...writes, conflict.at.operation, (first.deliveredBy ?? first.firstSeen).operation],
          [...eventsOf(conflict.at), ...eventsOf(first.deliveredBy ?? first.firstSeen)],
        );
        break;
    }
    if (verdict.violated) break;
  }
  return verdict.verdict();
}
