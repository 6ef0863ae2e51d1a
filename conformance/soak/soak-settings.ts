/**
 * What a soak run does (issue 15): how long, how many clients of each role, how many keys, the
 * seed of every choice, and how long a request may take before its outcome is called uncertain.
 *
 * The defaults give a strong check within a minute on a 2-core machine against the embedded
 * server (a few hundred operations a second, every mode of every role many times) and stay gentle
 * for a real kube-apiserver: at most writers + readers requests in flight, each client pausing
 * between its requests, and watchers + a handful of streams open.
 */

/** The knobs of a run. */
export interface SoakSettings {
  /** Seeds every client's choices (what to do, on which key, how long to pause). */
  readonly seed: number;
  readonly durationMs: number;
  readonly writers: number;
  /** Two of them watch the whole namespace and never disconnect on purpose; the rest cycle through the modes. */
  readonly watchers: number;
  readonly readers: number;
  /** ConfigMaps the writers work on; the first HOT_KEYS of them get most writes. */
  readonly keys: number;
  /** A request unanswered for this long is given up: its outcome is uncertain. */
  readonly requestTimeoutMs: number;
}

/** Settings when no flag says otherwise (seed aside: a fresh one per run unless given). */
export const DEFAULT_SOAK_SETTINGS: Omit<SoakSettings, "seed"> = {
  durationMs: 60_000,
  writers: 4,
  watchers: 4,
  readers: 2,
  keys: 20,
  requestTimeoutMs: 10_000,
};

/** Watchers that watch the whole namespace for the whole run: they give the checkers the server's full order. */
export const STEADY_WATCHERS = 2;

/** Keys that get most of the writes (contention: 409s, stale preconditions, interleaved events). */
export const HOT_KEYS = 3;
/** Share of the writes that go to a hot key. */
export const HOT_WRITE_SHARE = 0.6;

/** Mean pause of a writer between two writes, and of a reader between two reads (exponential). */
export const WRITER_PAUSE_MEAN_MS = 12;
export const READER_PAUSE_MEAN_MS = 25;
/** Pause of a reader between two pages of one list: writes land between them. */
export const PAGE_PAUSE_MAX_MS = 20;
/** How long a cycling watcher keeps one stream open before closing it to resume (uniform). */
export const WATCH_HOLD_MS = { min: 200, max: 4_000 } as const;
/** How long a cycling watcher stays away between two streams: mostly a moment… */
export const WATCH_SHORT_GAP_MAX_MS = 300;
/**
 * …and before a resume, now and then long enough for its version to be compacted (kube-apiserver
 * with --etcd-compaction-interval=10s, the embedded server's 15 s history), so it meets 410 and relists.
 */
export const WATCH_LONG_GAP = { share: 0.2, minMs: 10_000, maxMs: 25_000 } as const;
/** Pause before a watcher reopens after its stream was cut or refused (not a hot loop on a sick server). */
export const WATCH_RETRY_PAUSE_MS = 100;

/** After the writers stop: how long the watchers must be quiet, and at most how long to wait for that. */
export const SETTLE_QUIET_MS = 500;
export const SETTLE_MAX_MS = 5_000;

/** How long the end of a run waits for its namespace to be gone (a real controller manager takes seconds). */
export const NAMESPACE_GONE_WAIT_MS = 30_000;

/** The label a label flip changes, and that label-selector watches and lists select on. */
export const SELECTED_LABEL = "soak/selected";
/** The selector of the watches and lists that take one. */
export const SELECTED_SELECTOR = `${SELECTED_LABEL}=yes`;

/** The name of key `index`: `soak-k00`, `soak-k01`, … */
export function keyName(index: number): string {
  return `soak-k${String(index).padStart(2, "0")}`;
}
