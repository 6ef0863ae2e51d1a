/**
 * Opening a client's watch on the store: the watch seam. The watch handler opens every client
 * watch through it, and the planted watch defects wrap it (defects/planted-watches.ts) rather than
 * sit inside the handler.
 */
import type { WatchOptions } from "../../store/mvcc-store.ts";
import type { WatchEvent } from "../../store/watch.ts";
import type { ServerContext } from "../server-context.ts";

/** A watch's events, as the watch handler reads them (the store's Watch is one). */
export interface WatchEvents {
  /** The next event, waiting for one; undefined once the watch has ended. */
  next(): Promise<WatchEvent | undefined>;
  /** The next buffered event, or undefined when none is buffered now. */
  tryNext(): WatchEvent | undefined;
  /** Events buffered and not yet read. */
  readonly pending: number;
  /** Whether the events are to come in revision order (the kernel asserts it); not under planted defects. */
  readonly ordered: boolean;
  close(): void;
}

/** Opens client watches. */
export interface WatchSource {
  /**
   * Opens a watch; throws the store's ExpiredError for a compacted start. The store's watch opens
   * in the same synchronous step (nothing can be committed between the start revision and the
   * subscription); a planted defect may take time first, and answers a promise.
   */
  open(options: WatchOptions): WatchEvents | Promise<WatchEvents>;
  /** Whether watchers of one collection may share a broadcast's bytes (watch-broadcast.ts). */
  readonly shareable: boolean;
}

/** The watch source over `context`'s store. */
export function storeWatchSource(context: Pick<ServerContext, "store">): WatchSource {
  return { open: (options) => context.store.watch(options), shareable: true };
}
