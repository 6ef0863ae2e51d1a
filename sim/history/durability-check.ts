/**
 * history/acknowledged-write-durable: an acknowledged write is never lost. A write no stream ever
 * delivered is lost when some stream that sees it was watching across it: it delivered a change
 * acknowledged before the write was sent (so ordered before it) and later a change sent after the
 * write was acknowledged (so ordered after it). Such a stream delivered everything between those
 * two, so it would have delivered the write. Writes no stream was watching across (before the
 * first stream, after the last delivery) prove nothing and are not judged.
 */
import type { WriteOperation } from "./api-history.ts";
import type { HistoryVerdict } from "./history-verdict.ts";
import type { HistoryAnalysis } from "./history-analysis.ts";
import { writeOutcome } from "./operation-index.ts";
import { VerdictBuilder } from "./verdict-builders.ts";
import { isChangeEvent, type WatchStream } from "./watch-streams.ts";
import { describeEvent, describeOperation, describeWrite, ms } from "./witness-text.ts";

/** A stream's placed deliveries with the running bounds the search needs. */
interface Deliveries {
  readonly stream: WatchStream;
  readonly events: number[];
  /** ack[i]: when the write of delivery i was acknowledged (the first event's arrival for the start anchor). */
  readonly ack: number[];
  /** send[i]: when the write of delivery i was sent. */
  readonly send: number[];
  /** prefixAck[i]: the earliest acknowledgement among deliveries 0..i (non-increasing). */
  readonly prefixAck: Float64Array;
  /** suffixSend[i]: the latest send among deliveries i.. (non-increasing). */
  readonly suffixSend: Float64Array;
}

function deliveriesOf(analysis: HistoryAnalysis, stream: WatchStream): Deliveries {
  const { catalog, order, bounds, starts } = analysis;
  const { operation } = stream;
  const eventNodes = catalog.eventNodes.get(operation.id)!;
  const from = starts.byOperation.get(operation.id)?.synthetic ?? analysis.synthetic.get(operation.id) ?? 0;
  const events: number[] = [];
  const ack: number[] = [];
  const send: number[] = [];
  // The stream's start comes before its first event arrived: a write sent after that is after the
  // start (the state it began with was read before; a watch from a version sends everything after
  // it), whatever the first events were. So the first event is an anchor as early as a delivery.
  const first = operation.events[0];
  if (first !== undefined) {
    events.push(0);
    ack.push(first.atMs);
    send.push(-Infinity);
  }
  for (let i = from; i < operation.events.length; i++) {
    const node = eventNodes[i]!;
    if (!isChangeEvent(operation.events[i]!.type) || node < 0 || order.positionOf[node]! < 0) continue;
    const write = bounds.writeAt[order.positionOf[node]!];
    events.push(i);
    ack.push(write !== undefined && writeOutcome(write) === "acknowledged" && write.endMs !== undefined ? write.endMs : Infinity);
    send.push(write?.startMs ?? -Infinity);
  }
  const prefixAck = new Float64Array(events.length);
  const suffixSend = new Float64Array(events.length);
  for (let i = 0; i < events.length; i++) prefixAck[i] = Math.min(ack[i]!, i > 0 ? prefixAck[i - 1]! : Infinity);
  for (let i = events.length - 1; i >= 0; i--) suffixSend[i] = Math.max(send[i]!, i + 1 < events.length ? suffixSend[i + 1]! : -Infinity);
  return { stream, events, ack, send, prefixAck, suffixSend };
}

/**
 * Whether the write's change has a place in the order. A deletion only selector streams saw may be
 * a change of unknown effect on its object (change-catalog.ts): any such change of the object
 * counts as its delivery.
 */
function delivered(analysis: HistoryAnalysis, write: WriteOperation, unknownUids: ReadonlySet<string>): boolean {
  const { catalog, order } = analysis;
  let nodes: readonly number[] | undefined;
  if (write.verb !== "delete") nodes = write.value === undefined ? undefined : catalog.byValue.get(write.value);
  else if (write.answer.type === "ok") {
    if (unknownUids.has(write.answer.object.uid)) return true;
    nodes = catalog.deletionsByUid.get(write.answer.object.uid);
  }
  return (nodes ?? []).some((node) => order.positionOf[node]! >= 0);
}

export function checkAcknowledgedWriteDurable(analysis: HistoryAnalysis): HistoryVerdict {
  const verdict = new VerdictBuilder("history/acknowledged-write-durable");
  let streams: Deliveries[] | undefined;
  let current: Deliveries | undefined;
  // The acknowledgement time of delivery k itself (prefixAck holds running minima).
  const prefixAckAt = (k: number): number => current!.ack[k]!;
  const unknownUids = new Set<string>();
  for (const node of analysis.catalog.nodes) if (node.kind === "unknown" && analysis.order.positionOf[node.index]! >= 0) unknownUids.add(node.uid);
  for (const write of analysis.index.writes) {
    if (writeOutcome(write) !== "acknowledged" || write.answer.type !== "ok" || write.endMs === undefined) continue;
    verdict.count();
    if (verdict.violated || delivered(analysis, write, unknownUids)) continue;
    streams ??= [...analysis.streams.values()].filter((stream) => stream.usable).map((stream) => deliveriesOf(analysis, stream));
    const labels = write.answer.object.labels;
    for (const deliveries of streams) {
      const { stream, events, prefixAck, suffixSend } = deliveries;
      current = deliveries;
      if (!stream.selector.everything && !stream.selector.matches(labels)) continue;
      // First delivery acknowledged before the write was sent; last one sent after it was acknowledged.
      let low = 0;
      let high = events.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (prefixAck[mid]! < write.startMs) high = mid;
        else low = mid + 1;
      }
      const before = low;
      low = -1;
      high = events.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (suffixSend[mid]! > write.endMs) low = mid;
        else high = mid - 1;
      }
      const after = low;
      if (before >= events.length || after < 0 || before >= after) continue;
      // The first index where the running minimum drops is itself acknowledged early enough, and
      // the last where the running maximum is late enough was itself sent late enough.
      const op = stream.operation;
      // The closest anchors make the best witness: the last early one before `after`.
      let closest = after - 1;
      while (closest > before && !(prefixAckAt(closest) < write.startMs)) closest--;
      let next = closest + 1;
      while (next < after && !(deliveries.send[next]! > write.endMs)) next++;
      const early = events[closest]!;
      const late = events[next]!;
      // The early anchor is either the stream's first event (it was streaming before the write was
      // sent) or a delivery of a write acknowledged before the write was sent.
      const startedBefore = closest === 0 && events[0] === 0 && deliveries.ack[0] === op.events[0]?.atMs;
      const earlyWords = startedBefore
        ? `was streaming before it was sent (its first event: ${describeEvent(op.events[0]!)})`
        : `delivered ${describeEvent(op.events[early]!)} (a write acknowledged before it was sent)`;
      verdict.fail(
        `${describeWrite(write)} was acknowledged at ${ms(write.endMs)} but no stream delivered it, although ${describeOperation(op)} ${earlyWords} and later delivered ${describeEvent(op.events[late]!)} (a write sent after it was acknowledged)`,
        [write.id, op.id],
        [
          { operation: op.id, index: early },
          { operation: op.id, index: late },
        ],
      );
      break;
    }
  }
  return verdict.verdict();
}
