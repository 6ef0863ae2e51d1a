/**
 * The watch seam of the planted defects (defects.ts): the defects that break a rule of watches
 * wrap the watch source, so the watch handler has no trace of them. With any defect planted, no
 * watch shares a broadcast: the defects are planted on the per-watcher path (the store's
 * concurrency defects included).
 */
import type { WatchOptions } from "../../store/mvcc-store.ts";
import type { WatchEvent } from "../../store/watch.ts";
import type { ServerContext } from "../server-context.ts";
import type { WatchEvents, WatchSource } from "../watch/watch-source.ts";
import type { DefectName } from "./defects.ts";

/** How long the planted defect "resumed-watch-skips-concurrent-writes" takes to join the live changes. */
export const LATE_LIVE_JOIN_MS = 20;

/** Changes a watch never sends: revisions after `after`, up to `through`. */
interface SkippedRevisions {
  readonly after: number;
  readonly through: number;
}

/** `source` with the watch defects among `defects` planted (the same source when none is planted at all). */
export function withPlantedWatchDefects(source: WatchSource, defects: ReadonlySet<DefectName>, context: Pick<ServerContext, "store" | "clock">): WatchSource {
  if (defects.size === 0) return source;
  const open = (options: WatchOptions, skipped: SkippedRevisions | undefined): WatchEvents => {
    // Planted defect "no-synthetic-added" (sim/apiserver/defects/defects.ts): Get State starts without the existing objects.
    const opened = source.open(defects.has("no-synthetic-added") ? { ...options, initialState: false } : options);
    if (opened instanceof Promise) throw new Error("a planted watch wraps a watch source that opens at once");
    return new PlantedWatch(opened, defects, context, options.fromRevision !== undefined, skipped);
  };
  return {
    shareable: false,
    open: (options) => {
      // Planted defect "resumed-watch-skips-concurrent-writes" (sim/apiserver/defects/defects.ts): a resumed
      // watch replays the history up to the revision of now, then takes LATE_LIVE_JOIN_MS to join the
      // live changes, which start at the revision of then; the writes committed in between are in
      // neither. One client in sequence writes nothing while its watch is being opened.
      if (!defects.has("resumed-watch-skips-concurrent-writes") || options.fromRevision === undefined) return open(options, undefined);
      const after = context.store.revision;
      return context.clock.sleep(LATE_LIVE_JOIN_MS).then(() => open(options, { after, through: context.store.revision }));
    },
  };
}

/** A store watch whose events the planted defects withhold or alter. */
class PlantedWatch implements WatchEvents {
  private dropNext: boolean;
  private lastSentRevision: number | undefined;
  private readonly withholdsDeleted: boolean;
  private readonly bookmarksGoBackwards: boolean;

  constructor(
    private readonly inner: WatchEvents,
    defects: ReadonlySet<DefectName>,
    private readonly context: Pick<ServerContext, "store">,
    resumed: boolean,
    private readonly skipped: SkippedRevisions | undefined,
  ) {
    this.dropNext = resumed && defects.has("resumed-watch-drops-first-event");
    this.withholdsDeleted = defects.has("deleted-events-missing");
    this.bookmarksGoBackwards = defects.has("bookmarks-go-backwards");
  }

  get pending(): number {
    return this.inner.pending;
  }

  /** Planted defects reorder on purpose ("bookmarks-go-backwards", the store's concurrency defects). */
  readonly ordered = false;

  close(): void {
    this.inner.close();
  }

  tryNext(): WatchEvent | undefined {
    let event = this.inner.tryNext();
    while (event !== undefined && this.withheld(event)) event = this.inner.tryNext();
    return event === undefined ? undefined : this.sendable(event);
  }

  async next(): Promise<WatchEvent | undefined> {
    let event = await this.inner.next();
    while (event !== undefined && this.withheld(event)) event = await this.inner.next();
    return event === undefined ? undefined : this.sendable(event);
  }

  private withheld(event: WatchEvent): boolean {
    // Planted defect "deleted-events-missing" (sim/apiserver/defects/defects.ts): DELETED is never sent.
    if (event.type === "DELETED" && this.withholdsDeleted) return true;
    // Planted defect "resumed-watch-skips-concurrent-writes" (sim/apiserver/defects/defects.ts): what was committed while it opened is never sent.
    const { skipped } = this;
    if (skipped !== undefined && event.type !== "BOOKMARK" && event.revision > skipped.after && event.revision <= skipped.through) return true;
    // Planted defect "resumed-watch-drops-first-event" (sim/apiserver/defects/defects.ts): a resumed watch's first change is never sent.
    if (!this.dropNext || event.type === "BOOKMARK") return false;
    this.dropNext = false;
    return true;
  }

  private sendable(event: WatchEvent): WatchEvent {
    // Planted defect "bookmarks-go-backwards" (sim/apiserver/defects/defects.ts): a bookmark from before the last event sent.
    if (event.type === "BOOKMARK" && this.bookmarksGoBackwards && this.lastSentRevision !== undefined) {
      const revision = this.lastSentRevision - 1;
      return { type: "BOOKMARK", revision, object: { metadata: { resourceVersion: this.context.store.formatRevision(revision) } } };
    }
    if (event.type !== "BOOKMARK") this.lastSentRevision = event.revision;
    return event;
  }
}
