/**
 * watch/no-gap: each stream delivers, after its start, exactly the changes its selector sees, in
 * the server's order, each once (doc 1 §4.6.1, §4.7 Start at Exact); a resumed stream continues
 * exactly where its predecessor stopped (doc 1 §4.6.2). Reported, in this order: streams that
 * disagree on the order of two changes (a cycle), then per stream a duplicate, a change out of
 * order, or a gap: a change the selector sees between two consecutive deliveries (or between the
 * start and the first), which a chain of deliveries forces there.
 *
 * The tail is not a gap: a stream may end (closed by either side, connection lost, run over) with
 * changes not yet delivered, and doc 1 promises no delivery delay. What such a stream missed is
 * found through its resumption, which must continue right after its last delivered change, and
 * through the durability check, which needs a later delivery to prove a loss.
 */
import type { WatchEvent } from "./api-history.ts";
import type { EventRef, HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import type { SelectorStates } from "./namespace-states.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { isChangeEvent } from "./watch-streams.ts";
import { describeEvent, describeOperation } from "./witness-text.ts";

export function checkWatchNoGap(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("watch/no-gap");
  const { order, catalog, states, streams, starts, index } = analysis;

  const contradiction = order.contradiction;
  if (contradiction !== undefined) {
    const shown = contradiction.edges.map((edge) => {
      const operation = index.operation(edge.toOperation);
      const before = describeNodeShort(analysis, edge.from);
      const after = describeNodeShort(analysis, edge.to);
      return `${operation === undefined ? `operation #${edge.toOperation}` : describeOperation(operation)} delivered ${before} before ${after}`;
    });
    const events: EventRef[] = [];
    for (const edge of contradiction.edges) {
      if (edge.fromEvent >= 0) events.push({ operation: edge.fromOperation, index: edge.fromEvent });
      if (edge.toEvent >= 0) events.push({ operation: edge.toOperation, index: edge.toEvent });
    }
    verdict.fail(
      `watch streams disagree on the order of changes: ${shown.join("; ")}`,
      contradiction.edges.flatMap((edge) => [edge.toOperation, edge.fromOperation]),
      events,
    );
  }
  for (const finding of starts.findings) {
    if (finding.invariant === "watch/no-gap") verdict.fail(finding.explanation, finding.operations, finding.events);
  }
  verdict.count(starts.listResumesChecked);

  const seenInStream = new Int32Array(catalog.nodes.length).fill(-1);
  const seenAt = new Int32Array(catalog.nodes.length);
  for (const stream of streams.values()) {
    if (!stream.usable) continue;
    const { operation } = stream;
    const start = starts.byOperation.get(operation.id)!;
    const eventNodes = catalog.eventNodes.get(operation.id)!;
    const table = states.selectorStates(stream.selector);
    let previousCut = start.cut;
    let previousNode = start.anchor;
    let previousEvent = -1;
    for (let i = start.synthetic; i < operation.events.length; i++) {
      const event = operation.events[i]!;
      const node = eventNodes[i]!;
      if (!isChangeEvent(event.type) || node < 0) continue;
      const here: EventRef = { operation: operation.id, index: i };
      if (seenInStream[node] === stream.number) {
        verdict.fail(
          `${describeOperation(operation)} delivered ${describeNodeShort(analysis, node)} twice: ${describeEvent(operation.events[seenAt[node]!]!)} and ${describeEvent(event)}`,
          [operation.id],
          [{ operation: operation.id, index: seenAt[node]! }, here],
        );
        continue;
      }
      seenInStream[node] = stream.number;
      seenAt[node] = i;
      const position = order.positionOf[node]!;
      if (position < 0) {
        previousCut = undefined;
        previousNode = -1;
        continue;
      }
      verdict.count();
      if (previousCut !== undefined && !verdict.violated) {
        // Words and events for what came before are made only for a witness (this loop sees every event).
        if (position < previousCut) {
          verdict.fail(
            `${describeOperation(operation)} delivered ${describeEvent(event)} after ${describePrevious(operation.events, previousEvent, start.how)}, but that change comes before it in the server's order`,
            [operation.id, ...start.operations],
            [...previousEvents(operation.id, previousEvent, start.shownBy), here],
          );
        } else if (table.visibleBetween(previousCut, position) > 0) {
          // Shown only if every order the streams allow puts the missed change between the two:
          // after the previous delivery (or a start placed by content at a certain cut) and before this one.
          const startCertain = previousNode < 0 && order.uncertainCuts(previousCut, previousCut) === 0;
          const missedNode = firstForcedVisible(analysis, table, previousCut, position, (missed) =>
            (previousNode >= 0 ? order.reaches(previousNode, missed) === true : startCertain) && order.reaches(missed, node) === true,
          );
          if (missedNode >= 0) {
            const deliveredBy = catalog.nodes[missedNode]!.deliveredBy;
            verdict.fail(
              `${describeOperation(operation)} delivered ${describeEvent(event)} right after ${describePrevious(operation.events, previousEvent, start.how)}, but ${analysis.describeNode(missedNode)} came between them in the server's order and matches its selector${deliveredBy === undefined ? "" : ` (delivered by watch #${deliveredBy.operation})`}`,
              [operation.id, ...start.operations, ...(deliveredBy === undefined ? [] : [deliveredBy.operation]), ...writeIds(analysis, missedNode)],
              [...previousEvents(operation.id, previousEvent, start.shownBy), here, ...(deliveredBy === undefined ? [] : [{ operation: deliveredBy.operation, index: deliveredBy.event }])],
            );
          }
        }
      }
      previousCut = position + 1;
      previousNode = node;
      previousEvent = i;
    }
  }
  return verdict.verdict();
}

/** How many changes a selector sees between two cuts are tried, in order, for one that is forced there. */
const VISIBLE_SCAN = 64;

/**
 * The first change with index in [lo, hi) the table's selector sees for which `forced` holds, or
 * -1: not only the first one seen, which may be merely unordered against a later one that is forced.
 */
export function firstForcedVisible(analysis: HistoryAnalysis, table: SelectorStates, lo: number, hi: number, forced: (node: number) => boolean): number {
  for (let from = lo, tried = 0; tried < VISIBLE_SCAN; tried++) {
    const at = table.firstVisible(from, hi);
    if (at < 0) return -1;
    const node = analysis.order.order[at]!;
    if (forced(node)) return node;
    from = at + 1;
  }
  return -1;
}

/** The delivery before the current one, or the stream's start, in words. */
function describePrevious(events: readonly WatchEvent[], previousEvent: number, startHow: string): string {
  return previousEvent >= 0 ? describeEvent(events[previousEvent]!) : `its start (${startHow})`;
}

/** The events that show where the stream was before the current delivery. */
function previousEvents(operation: number, previousEvent: number, startShownBy: readonly EventRef[]): EventRef[] {
  return previousEvent >= 0 ? [{ operation, index: previousEvent }] : [...startShownBy];
}

function describeNodeShort(analysis: HistoryAnalysis, node: number): string {
  const found = analysis.catalog.nodes[node]!;
  const what = found.kind === "write" ? `${found.object.name}=${found.object.value ?? "?"}` : `${found.kind} of ${found.object.name}`;
  return `${what} (rv ${found.version})`;
}

/** The write that made a change, as a witness operation. */
export function writeIds(analysis: HistoryAnalysis, node: number): number[] {
  const found = analysis.catalog.nodes[node]!;
  const write =
    found.kind === "write" && found.object.value !== undefined
      ? analysis.index.writeByValue.get(found.object.value)
      : found.kind === "delete"
        ? analysis.index.deleteByUid.get(found.uid)
        : undefined;
  return write === undefined ? [] : [write.id];
}
