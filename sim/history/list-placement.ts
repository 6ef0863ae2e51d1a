/**
 * Where a complete list's items sit among the states, shared by the read-state and paging checks:
 * at its resourceVersion's cut when that version names a known change (the collection was built
 * at that version, doc 1 §2.3), else at any cut whose state equals the items (the version may be a
 * cluster-wide revision foreign to the namespace: placed by content only).
 */
import type { HistoryAnalysis } from "./history-analysis.ts";
import { explainMismatchAt, explainNoState, type ListContents } from "./list-contents.ts";

/** The verdict on one list's items: fine, not to be judged, or why they are wrong. */
export type PlacementOutcome = { readonly kind: "placed" | "unknown" } | { readonly kind: "wrong"; readonly why: string };

export function placeListItems(analysis: HistoryAnalysis, contents: ListContents): PlacementOutcome {
  const { catalog, order, states } = analysis;
  if (!contents.complete || !contents.placeable || !contents.selector.valid) return { kind: "unknown" };
  const table = states.selectorStates(contents.selector);
  const versionNode = contents.version === undefined ? undefined : catalog.byVersion.get(contents.version);
  const versionPosition = versionNode === undefined ? -1 : order.positionOf[versionNode]!;
  if (versionPosition >= 0) {
    const cut = versionPosition + 1;
    if (table.keyAt(cut) === contents.key) return { kind: "placed" };
    if (states.anyDoubtful(cut, cut)) return { kind: "unknown" };
    return { kind: "wrong", why: `they are not the state at rv ${contents.version} (right after ${analysis.describeNode(versionNode!)}): ${explainMismatchAt(contents, cut, states, catalog)}` };
  }
  const cuts = table.cutsWithKey(contents.key); // ascending: the last is the latest
  if (cuts.length > 0 && cuts[cuts.length - 1]! >= contents.earliestCut) return { kind: "placed" };
  if (states.anyDoubtful(contents.earliestCut, states.changes)) return { kind: "unknown" };
  return { kind: "wrong", why: `they are no state of the namespace: ${explainNoState(contents, states, catalog)}` };
}
