/**
 * Changes the history knows of but no stream delivered, and where in the order they could be.
 * A write acknowledged (or read) but never delivered, a write without answer that may have taken
 * effect unseen, a delete whose deletion no stream showed: each lies somewhere the order cannot
 * say, and the object of its name is unknown around there. Real time bounds the place (after
 * every change acknowledged before it was sent; before every change sent after it was
 * acknowledged), and streams without selector narrow it further: two consecutive deliveries of
 * such a stream (or a delivery and a bookmark at a known change) prove that nothing lies between
 * them. What remains is where the name is doubtful (namespace-states.ts).
 *
 * With a watch of the whole namespace throughout the run, only the tail after its last delivery
 * remains; with selector watches only, most of the run is doubtful for names with such changes,
 * and the checkers conclude less rather than wrongly.
 */
import type { ChangeCatalog } from "./change-catalog.ts";
import { writeOutcome, type OperationIndex } from "./operation-index.ts";
import { writeOfNode, type RealTimeBounds } from "./real-time-bounds.ts";
import type { ServerOrder } from "./server-order.ts";
import { isChangeEvent, type WatchStream } from "./watch-streams.ts";

/** A change of `name` that may lie at any uncovered cut from `from` to `to`. */
export interface MissingChange {
  readonly name: string;
  readonly from: number;
  readonly to: number;
}

/** The missing changes, and where a change may be missing at all. */
export interface MissingChanges {
  readonly changes: readonly MissingChange[];
  /** The first cut in [from, to] where a change may be missing, or -1. */
  firstUncovered(from: number, to: number): number;
}

/** What the search needs besides the order. */
export interface MissingChangeSources {
  readonly index: OperationIndex;
  readonly streams: ReadonlyMap<number, WatchStream>;
  readonly synthetic: ReadonlyMap<number, number>;
  readonly bounds: RealTimeBounds;
}

/** Cuts c such that some stream without selector proves no change lies between changes c-1 and c. */
function coveredCuts(catalog: ChangeCatalog, order: ServerOrder, sources: MissingChangeSources): Uint8Array {
  const n = order.length;
  const diff = new Int32Array(n + 2);
  const cover = (from: number, to: number): void => {
    if (to < from) return;
    diff[from]!++;
    diff[to + 1]!--;
  };
  for (const stream of sources.streams.values()) {
    if (!stream.usable || !stream.selector.everything) continue;
    const { operation } = stream;
    const eventNodes = catalog.eventNodes.get(operation.id)!;
    let previous = -1;
    for (let i = sources.synthetic.get(operation.id) ?? 0; i < operation.events.length; i++) {
      const event = operation.events[i]!;
      let node = -1;
      if (isChangeEvent(event.type)) node = eventNodes[i]!;
      else if (event.type === "BOOKMARK" && event.bookmarkVersion !== undefined) node = catalog.byVersion.get(event.bookmarkVersion) ?? -1;
      const at = node < 0 ? -1 : order.positionOf[node]!;
      if (at < 0) continue;
      if (previous >= 0 && at > previous) cover(previous + 1, at);
      previous = Math.max(previous, at);
    }
  }
  const covered = new Uint8Array(n + 1);
  let running = 0;
  for (let c = 0; c <= n; c++) {
    running += diff[c]!;
    covered[c] = running > 0 ? 1 : 0;
  }
  return covered;
}

export function findMissingChanges(
  catalog: ChangeCatalog,
  order: ServerOrder,
  sources: MissingChangeSources,
  isStatic: (node: number) => boolean,
): MissingChanges {
  const { index, bounds } = sources;
  const n = order.length;
  const covered = coveredCuts(catalog, order, sources);
  const uncovered: number[] = [];
  for (let c = 0; c <= n; c++) if (covered[c] === 0) uncovered.push(c);
  const firstUncovered = (from: number, to: number): number => {
    let low = 0;
    let high = uncovered.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (uncovered[mid]! < from) low = mid + 1;
      else high = mid;
    }
    return low < uncovered.length && uncovered[low]! <= to ? uncovered[low]! : -1;
  };
  const missing: MissingChange[] = [];
  const place = (name: string, lo: number, hi: number): void => {
    if (firstUncovered(lo, hi) >= 0) missing.push({ name, from: lo, to: hi });
  };
  const window = (write: ReturnType<typeof writeOfNode>): [number, number] => {
    if (write === undefined) return [0, n];
    const lo = bounds.mustInclude(write.startMs);
    const hi = writeOutcome(write) === "acknowledged" && write.endMs !== undefined ? bounds.mayInclude(write.endMs) : n;
    return [lo, Math.max(lo, hi)];
  };

  // Changes seen (in answers, reads, synthetic states) but never delivered.
  for (const node of catalog.nodes) {
    if (node.delivered || node.kind === "unknown" || isStatic(node.index)) continue;
    const [lo, hi] = window(writeOfNode(catalog, index, node.index));
    place(node.name, lo, hi);
  }
  // Writes that may have taken effect without anything showing it: without answer (or 5xx) and
  // never seen, and acknowledged deletes whose deletion no stream delivered.
  for (const write of index.writes) {
    const outcome = writeOutcome(write);
    if (outcome === "failed") continue;
    if (write.verb === "delete") {
      const delivered =
        write.answer.type === "ok" && (catalog.deletionsByUid.get(write.answer.object.uid) ?? []).some((node) => order.positionOf[node]! >= 0);
      if (!delivered) place(write.name, ...window(write));
      continue;
    }
    if (outcome === "uncertain" && write.value !== undefined && !catalog.byValue.has(write.value)) place(write.name, ...window(write));
  }
  return { changes: missing, firstUncovered };
}
