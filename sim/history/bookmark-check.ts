/**
 * watch/bookmark-order: a BOOKMARK says every change up to its version has been sent (doc 1 §6).
 * Where the version names a known change, it never goes back (behind an earlier bookmark or a
 * delivered change), no change the selector sees may be at or before it without having been
 * delivered before it, and no change delivered after it may be at or before it. A bookmark at a
 * version foreign to the namespace (a cluster-wide revision) has no known place: what it claims is
 * checked through the watch resumed from it (watch-starts.ts, watch-check.ts).
 *
 * "Before" is what every order the streams allow says (reachability in the order's graph), not
 * only the order chosen, so an ambiguity of the order never shows as a violation.
 */
import type { EventRef, HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { isChangeEvent } from "./watch-streams.ts";
import { describeEvent, describeOperation } from "./witness-text.ts";
import { firstForcedVisible, writeIds } from "./watch-check.ts";

export function checkBookmarkOrder(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("watch/bookmark-order");
  const { order, catalog, states, streams, starts } = analysis;
  /** Whether change `a` is at or before change `b` in every allowed order. */
  const atOrBefore = (a: number, b: number): boolean => a === b || order.reaches(a, b) === true;
  for (const stream of streams.values()) {
    if (!stream.usable || verdict.violated) continue;
    const { operation } = stream;
    const start = starts.byOperation.get(operation.id)!;
    const eventNodes = catalog.eventNodes.get(operation.id)!;
    const table = states.selectorStates(stream.selector);
    // The latest change known delivered (by an event, or claimed by a bookmark), as a cut and a node.
    let deliveredCut = start.cut;
    let deliveredNode = start.anchor;
    let deliveredEvent = -1;
    let bookmarkNode = -1;
    let bookmarkEvent = -1;
    for (let i = start.synthetic; i < operation.events.length && !verdict.violated; i++) {
      const event = operation.events[i]!;
      const here: EventRef = { operation: operation.id, index: i };
      if (isChangeEvent(event.type)) {
        const node = eventNodes[i]!;
        const position = node < 0 ? -1 : order.positionOf[node]!;
        if (position < 0) {
          deliveredCut = undefined;
          deliveredNode = -1;
          continue;
        }
        if (bookmarkNode >= 0 && atOrBefore(node, bookmarkNode)) {
          verdict.fail(
            `${describeOperation(operation)} sent ${describeEvent(operation.events[bookmarkEvent]!)} before ${describeEvent(event)}, a change at or before the bookmark's version`,
            [operation.id, ...writeIds(analysis, node)],
            [{ operation: operation.id, index: bookmarkEvent }, here],
          );
          break;
        }
        if (deliveredCut === undefined || position + 1 > deliveredCut) {
          deliveredCut = position + 1;
          deliveredNode = node;
          deliveredEvent = i;
        }
        continue;
      }
      if (event.type !== "BOOKMARK" || event.bookmarkVersion === undefined) continue;
      const node = catalog.byVersion.get(event.bookmarkVersion);
      const position = node === undefined ? -1 : order.positionOf[node]!;
      if (node === undefined || position < 0) continue; // a version with no known place
      verdict.count();
      if (bookmarkNode >= 0 && node !== bookmarkNode && atOrBefore(node, bookmarkNode)) {
        verdict.fail(
          `${describeOperation(operation)} sent ${describeEvent(event)} after ${describeEvent(operation.events[bookmarkEvent]!)}, a later version: the bookmark went back`,
          [operation.id],
          [{ operation: operation.id, index: bookmarkEvent }, here],
        );
        break;
      }
      if (deliveredNode >= 0 && deliveredEvent >= 0 && node !== deliveredNode && atOrBefore(node, deliveredNode)) {
        verdict.fail(
          `${describeOperation(operation)} sent ${describeEvent(event)} after delivering ${describeEvent(operation.events[deliveredEvent]!)}, a later change: the bookmark went back`,
          [operation.id],
          [{ operation: operation.id, index: deliveredEvent }, here],
        );
        break;
      }
      const cut = position + 1;
      if (deliveredCut !== undefined && table.visibleBetween(deliveredCut, cut) > 0) {
        const startCertain = deliveredNode < 0 && order.uncertainCuts(deliveredCut, deliveredCut) === 0;
        const missed = firstForcedVisible(analysis, table, deliveredCut, cut, (candidate) =>
          (deliveredNode >= 0 ? order.reaches(deliveredNode, candidate) === true : startCertain) && atOrBefore(candidate, node),
        );
        if (missed >= 0) {
          const deliveredBy = catalog.nodes[missed]!.deliveredBy;
          verdict.fail(
            `${describeOperation(operation)} sent ${describeEvent(event)}, claiming every change up to it was sent, but it had not delivered ${analysis.describeNode(missed)}, which its selector sees and which comes before that version`,
            [operation.id, ...writeIds(analysis, missed), ...(deliveredBy === undefined ? [] : [deliveredBy.operation])],
            [here, ...(deliveredBy === undefined ? [] : [{ operation: deliveredBy.operation, index: deliveredBy.event }])],
          );
          break;
        }
      }
      bookmarkNode = node;
      bookmarkEvent = i;
      if (deliveredCut === undefined || cut > deliveredCut) {
        deliveredCut = cut;
        deliveredNode = node;
        deliveredEvent = -1;
      }
    }
  }
  return verdict.verdict();
}
