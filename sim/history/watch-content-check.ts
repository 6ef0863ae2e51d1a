/**
 * history/watch-event-content: each delivered change has the type and object doc 1 §6 gives it,
 * seen through the stream's label selector. With B the object before the change and A after it:
 * B and A match: MODIFIED with A; only A matches: ADDED with A (a creation, or an object entering
 * the selector); only B matches: DELETED, carrying B's last state for a deletion, and for an
 * object leaving the selector either its new state (some servers send that) or its previous content
 * (Kubernetes 1.26, and the embedded server), with the change's version either way; neither matches: no event.
 */
import type { ObjectState } from "./api-history.ts";
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { UNKNOWN } from "./namespace-states.ts";
import { sameContent } from "./object-equality.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { isChangeEvent } from "./watch-streams.ts";
import { describeEvent, describeObject, describeOperation } from "./witness-text.ts";
import { writeIds } from "./watch-check.ts";

export function checkWatchEventContent(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/watch-event-content");
  const { order, catalog, states, streams, starts } = analysis;
  for (const stream of streams.values()) {
    if (!stream.usable) continue;
    const { operation, selector } = stream;
    const start = starts.byOperation.get(operation.id)!;
    const eventNodes = catalog.eventNodes.get(operation.id)!;
    const sees = (node: number): boolean => node >= 0 && (selector.everything || selector.matches(catalog.nodes[node]!.object.labels));
    for (let i = start.synthetic; i < operation.events.length && !verdict.violated; i++) {
      const event = operation.events[i]!;
      const node = eventNodes[i]!;
      if (!isChangeEvent(event.type) || node < 0 || event.object === undefined) continue;
      const position = order.positionOf[node]!;
      if (position < 0) continue;
      const before = states.before[position]!;
      const after = states.after[position]!;
      if (before === UNKNOWN || after === UNKNOWN) continue;
      verdict.count();
      const wasIn = sees(before);
      const isIn = sees(after);
      const beforeState = before >= 0 ? catalog.nodes[before]!.object : undefined;
      const afterState = after >= 0 ? catalog.nodes[after]!.object : undefined;
      let expected: "ADDED" | "MODIFIED" | "DELETED";
      let allowed: ObjectState[];
      if (wasIn && isIn) [expected, allowed] = ["MODIFIED", [afterState!]];
      else if (isIn) [expected, allowed] = ["ADDED", [afterState!]];
      else if (wasIn) [expected, allowed] = ["DELETED", afterState === undefined ? [beforeState!] : [beforeState!, afterState]];
      else {
        verdict.fail(
          `${describeOperation(operation)} delivered ${describeEvent(event)}, for ${analysis.describeNode(node)}, which its selector does not see (before: ${describeObject(beforeState)}, after: ${describeObject(afterState)})`,
          [operation.id, ...writeIds(analysis, node)],
          [{ operation: operation.id, index: i }],
        );
        break;
      }
      const carried = event.object;
      if (event.type !== expected || !allowed.some((object) => sameContent(object, carried))) {
        const what = afterState === undefined ? "a deletion" : beforeState === undefined ? "a creation" : "an update";
        const shown = expected === "DELETED" && afterState === undefined ? `the last state ${describeObject(beforeState)}` : allowed.map((object) => describeObject(object)).join(" or ");
        verdict.fail(
          `${describeOperation(operation)} delivered ${describeEvent(event)} for ${analysis.describeNode(node)}, ${what} that its selector should show as ${expected} carrying ${shown}`,
          [operation.id, ...writeIds(analysis, node)],
          [{ operation: operation.id, index: i }],
        );
      }
    }
    if (verdict.violated) break;
  }
  return verdict.verdict();
}
