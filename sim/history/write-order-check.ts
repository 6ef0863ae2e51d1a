/**
 * history/write-order: writes are ordered as real time orders them. If write A was acknowledged
 * before write B was sent, A's change precedes B's in the server's order (doc 1 §4.7: a Most
 * Recent read is consistent, which needs writes in real-time order). For each write B that took
 * effect, the first candidate is the write acknowledged before B was sent that comes last in the
 * order, then (when that one is merely unordered against B) the writes answered last before B was
 * sent; a violation is reported only when a chain of deliveries forces B before one of them.
 */
import type { WriteOperation } from "./api-history.ts";
import type { EventRef, HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { writeOutcome } from "./operation-index.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { describeEvent, describeWrite } from "./witness-text.ts";

/** How many of the writes answered last before a write was sent are searched past the first. */
const CANDIDATE_SCAN = 64;

interface PlacedWrite {
  readonly write: WriteOperation;
  readonly node: number;
  readonly position: number;
}

/** The changes of the history's writes that have a place in the order (deletes by uid). */
export function placedWrites(analysis: HistoryAnalysis): PlacedWrite[] {
  const { catalog, order, index } = analysis;
  const placed: PlacedWrite[] = [];
  for (const write of index.writes) {
    let nodes: readonly number[] | undefined;
    if (write.verb !== "delete") nodes = write.value === undefined ? undefined : catalog.byValue.get(write.value);
    else if (write.answer.type === "ok") nodes = catalog.deletionsByUid.get(write.answer.object.uid);
    const node = nodes?.find((candidate) => order.positionOf[candidate]! >= 0);
    if (node !== undefined) placed.push({ write, node, position: order.positionOf[node]! });
  }
  return placed;
}

/**
 * Words and events showing that `first` comes before `later`: one stream that delivered both in
 * that order when there is one (usually: a watch of the whole namespace), else the two deliveries.
 */
function showOrder(analysis: HistoryAnalysis, first: number, later: number): [string, EventRef[]] {
  const { catalog, index } = analysis;
  const laterBy = catalog.nodes[later]!.deliveredBy;
  const firstBy = catalog.nodes[first]!.deliveredBy;
  for (const at of [laterBy, firstBy]) {
    if (at === undefined) continue;
    const nodes = catalog.eventNodes.get(at.operation);
    const watch = index.operation(at.operation);
    if (nodes === undefined || watch?.kind !== "watch") continue;
    const i = nodes.indexOf(first);
    const j = nodes.indexOf(later);
    if (i >= 0 && j > i) {
      return [
        `watch #${watch.id} of ${watch.client} delivered ${describeEvent(watch.events[i]!)} before ${describeEvent(watch.events[j]!)}, that is`,
        [
          { operation: watch.id, index: i },
          { operation: watch.id, index: j },
        ],
      ];
    }
  }
  const events = [firstBy, laterBy].flatMap((at) => (at === undefined ? [] : [{ operation: at.operation, index: at.event }]));
  return ["the server's order of changes (as the watch streams deliver it) puts", events];
}

export function checkWriteOrder(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/write-order");
  const placed = placedWrites(analysis);
  const acknowledged = placed
    .filter(({ write }) => writeOutcome(write) === "acknowledged" && write.endMs !== undefined)
    .sort((a, b) => a.write.endMs! - b.write.endMs! || a.write.id - b.write.id);
  // latest[i]: among the first i+1 acknowledged writes (by answer time), the one last in the order.
  const latest: PlacedWrite[] = [];
  for (const entry of acknowledged) {
    const previous = latest[latest.length - 1];
    latest.push(previous === undefined || entry.position > previous.position ? entry : previous);
  }
  for (const b of placed) {
    // The acknowledged writes answered before b was sent: a prefix of `acknowledged`.
    let low = 0;
    let high = acknowledged.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (acknowledged[mid]!.write.endMs! < b.write.startMs) low = mid + 1;
      else high = mid;
    }
    if (low === 0) continue;
    verdict.count();
    let a = latest[low - 1]!;
    if (a.position <= b.position) continue;
    if (analysis.order.reaches(b.node, a.node) !== true) {
      // That one may be merely unordered against b while another, answered earlier, is forced
      // after it: look at the latest answered ones placed after b, a bounded number.
      let forced: PlacedWrite | undefined;
      for (let k = low - 1; k >= Math.max(0, low - CANDIDATE_SCAN) && forced === undefined; k--) {
        const other = acknowledged[k]!;
        if (other !== a && other.position > b.position && analysis.order.reaches(b.node, other.node) === true) forced = other;
      }
      if (forced === undefined) continue;
      a = forced;
    }
    const [shown, witnessEvents] = showOrder(analysis, b.node, a.node);
    const rv = (node: number) => analysis.catalog.nodes[node]!.version;
    verdict.fail(
      `${describeWrite(a.write)} was acknowledged before ${describeWrite(b.write)} was sent, but ${shown} #${b.write.id}'s change (rv ${rv(b.node)}) before #${a.write.id}'s (rv ${rv(a.node)})`,
      [a.write.id, b.write.id, ...witnessEvents.map((event) => event.operation)],
      witnessEvents,
    );
  }
  return verdict.verdict();
}
