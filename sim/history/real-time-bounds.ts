/**
 * What real time says about positions in the server's order. A change acknowledged before a
 * request was sent must be in the state that request sees when it asks for the latest (doc 1
 * §4.7, Most Recent: a consistent, quorum read); a change whose write was sent after a request
 * was answered cannot be in it. Both bounds are cuts, found by binary search over a suffix minimum
 * of acknowledgement times and a prefix maximum of send times along the order.
 */
import type { WriteOperation } from "./api-history.ts";
import type { ChangeCatalog } from "./change-catalog.ts";
import { writeOutcome, type OperationIndex } from "./operation-index.ts";
import type { ServerOrder } from "./server-order.ts";

/** The write that made a change, if the workload made it (deletes by the uid their answer names). */
export function writeOfNode(catalog: ChangeCatalog, index: OperationIndex, node: number): WriteOperation | undefined {
  const found = catalog.nodes[node]!;
  if (found.kind === "write") return found.object.value === undefined ? undefined : index.writeByValue.get(found.object.value);
  if (found.kind === "delete") return index.deleteByUid.get(found.uid);
  return undefined;
}

export class RealTimeBounds {
  /** Per change index: the write that made it, if known. */
  readonly writeAt: (WriteOperation | undefined)[];
  private readonly ackSuffixMin: Float64Array;
  private readonly sendPrefixMax: Float64Array;

  constructor(catalog: ChangeCatalog, order: ServerOrder, index: OperationIndex) {
    const n = order.length;
    this.writeAt = new Array<WriteOperation | undefined>(n);
    this.ackSuffixMin = new Float64Array(n + 1).fill(Infinity);
    this.sendPrefixMax = new Float64Array(n).fill(-Infinity);
    for (let i = 0; i < n; i++) {
      const write = writeOfNode(catalog, index, order.order[i]!);
      this.writeAt[i] = write;
      const send = write?.startMs ?? -Infinity;
      this.sendPrefixMax[i] = i === 0 ? send : Math.max(this.sendPrefixMax[i - 1]!, send);
    }
    for (let i = n - 1; i >= 0; i--) {
      const write = this.writeAt[i];
      const ack = write !== undefined && writeOutcome(write) === "acknowledged" && write.endMs !== undefined ? write.endMs : Infinity;
      this.ackSuffixMin[i] = Math.min(ack, this.ackSuffixMin[i + 1]!);
    }
  }

  /**
   * The smallest cut holding every change acknowledged before `timeMs`: 1 + the last such change
   * index (0 if none). That change is `mustInclude(t) - 1`.
   */
  mustInclude(timeMs: number): number {
    let low = 0;
    let high = this.ackSuffixMin.length - 1; // the suffix minimum is non-decreasing
    if (!(this.ackSuffixMin[0]! < timeMs)) return 0;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.ackSuffixMin[mid]! < timeMs) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  /**
   * The largest cut holding no change whose write was sent after `timeMs`: the first such change
   * index (n if none). That change is `mayInclude(t)` itself.
   */
  mayInclude(timeMs: number): number {
    let low = 0;
    let high = this.sendPrefixMax.length; // the prefix maximum is non-decreasing
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.sendPrefixMax[mid]! > timeMs) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
