/**
 * What each watch request asked for, read once: its selector, whether it starts with the state
 * (synthetic ADDED events: no resourceVersion, or 0), and how many of its first events may be
 * those synthetic ones. Synthetic events are states, not changes, so they must not order changes:
 * they come in name order, not in the order the changes happened (doc 1 §4.7, watch table).
 */
import type { WatchOperation } from "./api-history.ts";
import type { SelectorCache, SelectorMatcher } from "./label-selectors.ts";

/** One watch request and how to read its events. */
export interface WatchStream {
  readonly operation: WatchOperation;
  /** Position of the stream among the history's watches (for per-stream marks). */
  readonly number: number;
  readonly selector: SelectorMatcher;
  /** Get State (resourceVersion unset, Most Recent) or Get State at Any ("0"). */
  readonly getsState: boolean;
  /** Leading ADDED events of a Get State watch: the synthetic ones are a prefix of these. */
  readonly leadingAdded: number;
  /** Opened, with a selector the server accepts: its events can be read. */
  readonly usable: boolean;
}

/** Whether an event is a change notification (carries an object). */
export function isChangeEvent(type: string): type is "ADDED" | "MODIFIED" | "DELETED" {
  return type === "ADDED" || type === "MODIFIED" || type === "DELETED";
}

export function readWatchStreams(watches: readonly WatchOperation[], selectors: SelectorCache): Map<number, WatchStream> {
  const streams = new Map<number, WatchStream>();
  watches.forEach((operation, number) => {
    const selector = selectors.get(operation.labelSelector);
    const getsState = operation.resourceVersion === undefined || operation.resourceVersion === "0";
    let leadingAdded = 0;
    if (getsState) {
      while (leadingAdded < operation.events.length && operation.events[leadingAdded]!.type === "ADDED") leadingAdded++;
    }
    const usable = selector.valid && (operation.opened.type === "ok" || operation.events.length > 0);
    streams.set(operation.id, { operation, number, selector, getsState, leadingAdded, usable });
  });
  return streams;
}

/**
 * An upper bound on each Get State stream's synthetic events, from time alone: the state is read
 * before the first event is sent, so an ADDED whose write was sent after the first event arrived
 * is a change, and so is every event after it. (history-analysis.ts refines the bound by content.)
 */
export function syntheticUpperBounds(streams: ReadonlyMap<number, WatchStream>, sentAt: (value: string | undefined) => number | undefined): Map<number, number> {
  const bounds = new Map<number, number>();
  for (const stream of streams.values()) {
    const { operation } = stream;
    if (!stream.getsState || stream.leadingAdded === 0) continue;
    const firstArrival = operation.events[0]!.atMs;
    let bound = stream.leadingAdded;
    for (let i = 0; i < stream.leadingAdded; i++) {
      const sent = sentAt(operation.events[i]!.object?.value);
      if (sent !== undefined && sent > firstArrival) {
        bound = i;
        break;
      }
    }
    bounds.set(operation.id, bound);
  }
  return bounds;
}
