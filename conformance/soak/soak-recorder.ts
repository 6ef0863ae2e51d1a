/**
 * Collects a soak run's history (sim/history/api-history.ts): the clients, and every operation
 * once it is over. An operation takes its id and start time together, synchronously, when its
 * first request is about to go, so ids follow start order. Times are performance.now(): monotonic
 * within this process.
 */
import type { ApiHistory, HistoryClient, Operation } from "../../sim/history/api-history.ts";

/** The running tally that progress lines show. */
export interface RecorderTally {
  readonly operations: number;
  readonly events: number;
}

/** The recorder of one run. */
export class SoakRecorder {
  private nextId = 0;
  private readonly operations: Operation[] = [];
  private readonly clients: HistoryClient[] = [];
  private events = 0;
  private lastEventAtMs = 0;
  readonly startMs = performance.now();

  /** Declares a client; its operations name it by `id`. */
  addClient(id: string, role: HistoryClient["role"]): void {
    this.clients.push({ id, role });
  }

  /** The id and start time of an operation about to start. */
  begin(): { readonly id: number; readonly startMs: number } {
    return { id: this.nextId++, startMs: performance.now() };
  }

  /** An operation that is over (a watch: its stream ended). */
  record(operation: Operation): void {
    this.operations.push(operation);
  }

  /** A watch event arrived (counted for progress and for the settle wait; bookmarks are not changes). */
  noteEvent(type: string): void {
    this.events++;
    if (type !== "BOOKMARK") this.lastEventAtMs = performance.now();
  }

  /** When the last change (not a bookmark) reached any watcher. */
  get lastChangeAtMs(): number {
    return this.lastEventAtMs;
  }

  get tally(): RecorderTally {
    return { operations: this.nextId, events: this.events };
  }

  /** The history, operations sorted by start time then id. */
  history(meta: Pick<ApiHistory, "namespace" | "seed" | "target">): ApiHistory {
    const operations = [...this.operations].sort((a, b) => a.startMs - b.startMs || a.id - b.id);
    return { ...meta, clients: [...this.clients], operations, startMs: this.startMs, endMs: performance.now() };
  }
}
