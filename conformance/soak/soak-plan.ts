/**
 * Every choice of a soak run, drawn from its seed: what each client does next, on which key, with
 * which precondition or resourceVersion, and how long it pauses. Each client draws from a stream
 * of its own (`writer-0`, `watcher-3`, …), and no draw depends on an answer, so one seed gives
 * every client the same sequence of steps whatever the timing of the run. What a step becomes
 * when it runs (the version it sends, whether the key exists) depends on the server; the plan
 * does not.
 */
import { Rng } from "../../sim/kernel/rng.ts";
import {
  HOT_KEYS,
  HOT_WRITE_SHARE,
  keyName,
  PAGE_PAUSE_MAX_MS,
  READER_PAUSE_MEAN_MS,
  WATCH_HOLD_MS,
  WATCH_LONG_GAP,
  WATCH_SHORT_GAP_MAX_MS,
  WRITER_PAUSE_MEAN_MS,
} from "./soak-settings.ts";

/**
 * The resourceVersion a write is conditioned on: none; `fresh`, read just before (a GET, then the
 * write, as a read-modify-write client does; conflicts when another write lands between); or
 * `remembered`, the last version this writer saw of the key, possibly long stale.
 */
export type WritePrecondition = "none" | "fresh" | "remembered";

/** The value of the selected label a write sets: in or out of the selector, or (patch only) removed. */
export type SelectedValue = "yes" | "no";

/** One write step of a writer. */
export type WriterStep = { readonly key: string; readonly pauseMs: number } & (
  | { readonly kind: "create"; readonly selected: SelectedValue }
  | { readonly kind: "update"; readonly precondition: WritePrecondition; readonly selected: SelectedValue }
  /** A merge patch of the value only. */
  | { readonly kind: "patch"; readonly precondition: Exclude<WritePrecondition, "fresh"> }
  /** A merge patch of the value and the selected label: moves the object in or out of the selector. */
  | { readonly kind: "label-flip"; readonly precondition: Exclude<WritePrecondition, "fresh">; readonly selected: SelectedValue | null }
  | { readonly kind: "delete"; readonly precondition: Exclude<WritePrecondition, "fresh"> }
);

/**
 * How a read chooses its resourceVersion (doc 1 §4.7): none (Most Recent), "0" (Any), or a
 * version the reader saw in an earlier list, for Exact or NotOlderThan.
 */
export type ReadVersion = "most-recent" | "any" | "exact" | "not-older-than";

/** One read step of a reader. */
export type ReaderStep = { readonly pauseMs: number } & (
  | { readonly kind: "get"; readonly key: string; readonly version: Exclude<ReadVersion, "exact">; readonly versionAge: number }
  | {
      readonly kind: "list";
      readonly version: ReadVersion;
      /**
       * Which earlier version, for exact and not-older-than: 0 the newest the reader saw, towards 1
       * the oldest it keeps (old ones may be compacted: 410).
       */
      readonly versionAge: number;
      readonly selector: boolean;
      /** Paged (2–5 per page, following continue tokens) or whole. */
      readonly limit: number | undefined;
      /** The pause between two pages, for writes to land between them. */
      readonly pagePauseMs: number;
    }
);

/** Where a watch starts (doc 1 §4.7): now (no resourceVersion), Any ("0"), or a list's version (a reflector). */
export type WatchStart = "now" | "any" | "list";

/** One stream of a cycling watcher: how long it stays away first, start afresh or resume the last one, and for how long to hold it. */
export interface WatcherCycle {
  /**
   * The time without a stream before this one: mostly a moment; before a resume, now and then
   * long enough for the version it resumes from to be compacted (a 410, then a relist).
   */
  readonly awayMs: number;
  /** Start a new watch in the mode below; else resume the previous stream from the last version it saw. */
  readonly fresh: boolean;
  readonly start: WatchStart;
  readonly bookmarks: boolean;
  readonly selector: boolean;
  /** Then the client closes the stream (unless the server ends it first). */
  readonly holdMs: number;
}

/** The seed's streams, one per client. */
export class SoakPlan {
  private readonly root: Rng;

  constructor(
    readonly seed: number,
    private readonly keys: number,
  ) {
    this.root = new Rng(`soak/${seed}`);
  }

  /** The part of the namespace's name that comes from the seed. */
  namespaceSuffix(): string {
    return this.root.fork("namespace").nameSuffix(5);
  }

  /** The steps of writer `index`, one per call. */
  writer(index: number): () => WriterStep {
    const rng = this.root.fork(`writer-${index}`);
    return () => writerStep(rng, this.keys);
  }

  /** The steps of reader `index`. */
  reader(index: number): () => ReaderStep {
    const rng = this.root.fork(`reader-${index}`);
    return () => readerStep(rng, this.keys);
  }

  /** The cycles of cycling watcher `index` (the first is always fresh). */
  watcher(index: number): () => WatcherCycle {
    const rng = this.root.fork(`watcher-${index}`);
    let first = true;
    return () => {
      const cycle = watcherCycle(rng, first);
      first = false;
      return cycle;
    };
  }
}

function pickKey(rng: Rng, keys: number): string {
  const hot = Math.min(HOT_KEYS, keys);
  if (hot === keys || rng.bool(HOT_WRITE_SHARE)) return keyName(rng.int(0, hot - 1));
  return keyName(rng.int(hot, keys - 1));
}

function writerStep(rng: Rng, keys: number): WriterStep {
  const key = pickKey(rng, keys);
  const pauseMs = rng.exponential(WRITER_PAUSE_MEAN_MS);
  const roll = rng.float();
  const selected: SelectedValue = rng.bool() ? "yes" : "no";
  const remembered = rng.bool(0.4) ? "remembered" : "none";
  // Creates outnumber deletes three to one, so that most keys exist most of the time.
  if (roll < 0.15) return { kind: "create", key, pauseMs, selected };
  if (roll < 0.45) {
    const precondition = rng.pick(["none", "fresh", "fresh", "remembered"] as const);
    return { kind: "update", key, pauseMs, precondition, selected };
  }
  if (roll < 0.73) return { kind: "patch", key, pauseMs, precondition: remembered };
  if (roll < 0.95) return { kind: "label-flip", key, pauseMs, precondition: remembered, selected: rng.bool(0.1) ? null : selected };
  return { kind: "delete", key, pauseMs, precondition: remembered };
}

function readerStep(rng: Rng, keys: number): ReaderStep {
  const pauseMs = rng.exponential(READER_PAUSE_MEAN_MS);
  const versionAge = rng.float();
  if (rng.bool(0.35)) {
    const version = rng.pick(["most-recent", "any", "not-older-than"] as const);
    return { kind: "get", key: keyName(rng.int(0, keys - 1)), version, versionAge, pauseMs };
  }
  const version = rng.pick(["most-recent", "most-recent", "any", "exact", "not-older-than"] as const);
  const paged = rng.bool(0.5);
  const limit = paged ? rng.int(2, 5) : undefined;
  return { kind: "list", version, versionAge, selector: rng.bool(0.25), limit, pagePauseMs: rng.int(0, PAGE_PAUSE_MAX_MS), pauseMs };
}

function watcherCycle(rng: Rng, first: boolean): WatcherCycle {
  const fresh = first || rng.bool(0.3);
  const start = rng.pick(["now", "now", "list", "list", "any"] as const);
  const holdMs = rng.int(WATCH_HOLD_MS.min, WATCH_HOLD_MS.max);
  const long = rng.bool(WATCH_LONG_GAP.share);
  const awayMs = first ? 0 : long && !fresh ? rng.int(WATCH_LONG_GAP.minMs, WATCH_LONG_GAP.maxMs) : rng.int(0, WATCH_SHORT_GAP_MAX_MS);
  return { awayMs, fresh, start, bookmarks: rng.bool(), selector: rng.bool(0.4), holdMs };
}
