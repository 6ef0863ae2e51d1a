/**
 * A watch fan-out load run against any server (issue #14, "Load and slow readers"), in three
 * phases on one namespace of its own:
 * 1. writers alone, as fast as the server answers: the baseline write rate;
 * 2. the same writers with N watchers open on the namespace's ConfigMaps, each from the version
 *    before phase 2's first write, and P more that stop reading at once: the write rate under
 *    fan-out, and every reading watcher checked for each event in order exactly once;
 * 3. the paused watchers read again: each must find its stream cut off (ended by the server,
 *    as kube-apiserver ends a watcher whose buffer is full) after fewer events than were written.
 * The server's resident memory is sampled throughout through `sampleMemory`.
 *
 * Each writer updates ConfigMaps of its own in turn (KEYS_PER_WRITER of them, created by its first
 * writes), as controllers update the objects they own: the objects a run leaves are bounded, so
 * the server's memory can be too, however long the run; writes that only created would measure
 * how much the server stores, not how it fans out.
 */
import { LatencyHistogram } from "./latency-histogram.ts";
import { DigestWatcherPool } from "./digest-watcher-pool.ts";
import { FanoutWatcher, WATCH_ACCEPT, type StreamDigest, type WatchEncoding, type WatcherTally, type WriteLedger } from "./fanout-watcher.ts";
import { LoadConnection, type LoadTarget } from "./load-connection.ts";
import { metricValue } from "../../sim/transport/host-metrics.ts";

/** How to load the server. */
export interface WatchLoadOptions {
  readonly target: LoadTarget;
  readonly watchers: number;
  /** Watchers that never read (slow readers). */
  readonly pausedWatchers: number;
  /** What every watcher asks for (default protobuf, as informers of built-in types do). */
  readonly watchEncoding?: WatchEncoding;
  /** Writes in flight at once. */
  readonly writers: number;
  /** Length of phase 1 and of phase 2. */
  readonly phaseMs: number;
  /** Phase 2 goes on past `phaseMs` until this many writes are made (so paused watchers surely overflow). */
  readonly minFanoutWrites?: number;
  /** Bytes of the value each written ConfigMap holds. */
  readonly valueBytes: number;
  /** How long reading watchers may take to catch up once the writers stop. */
  readonly catchUpMs?: number;
  /** The server's resident memory in bytes now (default: `process_resident_memory_bytes` of its /metrics). */
  readonly sampleMemory?: () => Promise<number | undefined>;
  readonly onProgress?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/** The figures of one phase of writes. */
export interface WritePhase {
  readonly writes: number;
  readonly failedWrites: number;
  readonly seconds: number;
  readonly writesPerSecond: number;
}

/** What a load run measured. */
export interface WatchLoadResult {
  readonly namespace: string;
  readonly alone: WritePhase;
  readonly fanout: WritePhase;
  /** ConfigMaps written: at most writers × KEYS_PER_WRITER, however many writes. */
  readonly objectsWritten: number;
  /** fanout.writesPerSecond / alone.writesPerSecond. */
  readonly rateRatio: number;
  readonly watchers: number;
  readonly watchEncoding: WatchEncoding;
  /** Reading watchers whose stream the server ended early: each is a failure. */
  readonly readersCutOff: number;
  /** Events delivered to the reading watchers, and their rate during phase 2 and the catch-up. */
  readonly events: number;
  readonly eventsPerSecond: number;
  /** Over all reading watchers: writes they did not see, saw twice, saw out of order, or saw that nobody made. */
  readonly lost: number;
  readonly duplicated: number;
  readonly reordered: number;
  readonly unexpected: number;
  /** Watchers checked event by event; every other one must have received the same bytes. */
  readonly verifiedWatchers: number;
  /** Reading watchers whose stream differs from the verified watchers' stream (or the verified ones among themselves). */
  readonly differing: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number };
  readonly paused: { readonly watchers: number; readonly cutOff: number; readonly mostEventsBeforeCutOff: number };
  /** Watches the server still counts 5 s after every watcher's connection closed (undefined: it does not say). */
  readonly watchesLeftOpen: number | undefined;
  /** Largest resident memory sampled, in bytes, when the server's memory could be read. */
  readonly peakMemoryBytes: number | undefined;
  readonly memoryBeforeBytes: number | undefined;
}

const OPEN_BATCH = 50;
/** Reading watchers that check every event (fanout-watcher.ts); the rest compare digests with theirs. */
const VERIFIED_WATCHERS = 10;
/** How often the main thread asks the pool for its counts. */
const POOL_TALLY_MS = 250;
const MEMORY_SAMPLE_MS = 1_000;
/** ConfigMaps each writer updates in turn. */
export const KEYS_PER_WRITER = 64;

/** Runs the three phases; always deletes its namespace and closes every connection. */
export async function runWatchLoad(options: WatchLoadOptions): Promise<WatchLoadResult> {
  const progress = options.onProgress ?? (() => {});
  const encoding = options.watchEncoding ?? "protobuf";
  const connection = new LoadConnection(options.target, options.writers);
  const namespace = `orb-load-${Math.random().toString(36).slice(2, 8)}`;
  const ledger = new VersionLedger();
  const written = new Set<string>();
  // The watchers that check every event (and the paused ones) live here; the rest in the pool's thread.
  const watchers: FanoutWatcher[] = [];
  const paused: FanoutWatcher[] = [];
  let pool: DigestWatcherPool | undefined;
  const metric = async (name: string) => {
    const answer = await connection.json("GET", "/metrics");
    return answer.status === 200 && typeof answer.body === "string" ? metricValue(answer.body, name) : undefined;
  };
  const memory = new MemorySampler(options.sampleMemory ?? (() => metric("process_resident_memory_bytes")));
  try {
    await expectStatus(connection.json("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } }), 201, "create the run's namespace");
    const memoryBeforeBytes = await memory.sample();
    memory.start();
    const collection = `/api/v1/namespaces/${namespace}/configmaps`;
    progress(`phase 1: ${options.writers} writers alone for ${options.phaseMs / 1000} s`);
    const alone = await writePhase(connection, collection, "alone", options, ledger, written, progress);
    if (aborted(options)) throw new Error("interrupted after phase 1");
    const list = await expectStatus(connection.json("GET", `${collection}?limit=1`), 200, "list before the watchers");
    const from = String(list.body.metadata.resourceVersion);
    const watchesBefore = await metric("apiserver_registered_watchers").catch(() => undefined);
    progress(`opening ${options.watchers} watchers (${encoding}) and ${options.pausedWatchers} that never read, from resourceVersion ${from}`);
    const latencies = new LatencyHistogram();
    const watchPath = `${collection}?watch=1&resourceVersion=${from}`;
    const verifying = Math.min(options.watchers, VERIFIED_WATCHERS);
    const digesting = options.watchers - verifying;
    for (let opened = 0; opened < verifying + options.pausedWatchers; opened += OPEN_BATCH) {
      const batch = Math.min(OPEN_BATCH, verifying + options.pausedWatchers - opened);
      const responses = await Promise.all(Array.from({ length: batch }, () => connection.stream(watchPath, WATCH_ACCEPT[encoding])));
      for (const response of responses) {
        if (response.statusCode !== 200) throw new Error(`a watch was answered ${response.statusCode}`);
        const isPaused = watchers.length >= verifying;
        const watcher = new FanoutWatcher(response, ledger, isPaused ? undefined : latencies, () => performance.now(), true, encoding);
        if (isPaused) {
          watcher.pause();
          paused.push(watcher);
        } else {
          watchers.push(watcher);
        }
      }
    }
    if (digesting > 0) pool = await DigestWatcherPool.open({ target: options.target, path: watchPath, encoding, count: digesting });
    // The pool's counts, as of its last answer: progress lines must not wait for the thread.
    let pooled: readonly WatcherTally[] = [];
    const allTallies = () => [...watchers.map((watcher) => watcher.tally), ...pooled];
    const refresh = async () => {
      if (pool !== undefined) pooled = await pool.tallies();
    };
    const refresher = setInterval(() => void refresh().catch(() => undefined), POOL_TALLY_MS);
    progress(`phase 2: ${options.writers} writers with ${options.watchers} watchers reading and ${paused.length} paused, for ${options.phaseMs / 1000} s`);
    const eventsFrom = performance.now();
    let fanout: WritePhase;
    try {
      fanout = await writePhase(connection, collection, "fanout", options, ledger, written, progress, () => sum(allTallies().map((tally) => tally.events)));
      const expected = fanout.writes;
      const deadline = performance.now() + (options.catchUpMs ?? 60_000);
      await refresh();
      while (performance.now() < deadline && !aborted(options) && allTallies().some((tally) => !tally.ended && tally.events < expected)) {
        await sleep(100);
        await refresh();
      }
    } finally {
      clearInterval(refresher);
    }
    const expected = fanout.writes;
    const eventSeconds = (performance.now() - eventsFrom) / 1000;
    progress(`${options.watchers} watchers caught up: ${sum(allTallies().map((tally) => tally.events))} events in ${eventSeconds.toFixed(1)} s; resuming the ${paused.length} paused ones`);
    await Promise.all(paused.map((watcher) => watcher.resumeUntilQuiet(2_000)));
    const pausedTallies = paused.map((watcher) => watcher.tally);
    for (const watcher of [...watchers, ...paused]) watcher.close();
    const finished = await pool?.finish();
    pool = undefined;
    const verifiedDigests = watchers.map((watcher) => watcher.digest());
    const digests = [...verifiedDigests, ...(finished?.digests ?? [])];
    const tallies = [...watchers.map((watcher) => watcher.tally), ...(finished?.tallies ?? [])];
    const events = sum(tallies.map((tally) => tally.events));
    const reference = verifiedDigests[0];
    const sameAsReference = (digest: StreamDigest) => reference !== undefined && digest.crc32 === reference.crc32 && digest.bytes === reference.bytes;
    const watchesLeftOpen = await settledWatchCount(() => metric("apiserver_registered_watchers"), watchesBefore);
    return {
      watchesLeftOpen,
      namespace,
      alone,
      fanout,
      objectsWritten: written.size,
      rateRatio: alone.writesPerSecond === 0 ? 0 : fanout.writesPerSecond / alone.writesPerSecond,
      watchers: tallies.length,
      watchEncoding: encoding,
      readersCutOff: tallies.filter((tally) => tally.ended).length,
      events,
      eventsPerSecond: events / eventSeconds,
      lost: sum(tallies.map((tally) => Math.max(0, expected - tally.events))),
      duplicated: sum(tallies.map((tally) => tally.duplicated)),
      reordered: sum(tallies.map((tally) => tally.reordered)),
      unexpected: sum(tallies.map((tally) => tally.unexpected)) + sum(watchers.map((watcher) => watcher.unknownVersions())),
      verifiedWatchers: watchers.length,
      differing: digests.filter((digest) => !sameAsReference(digest)).length,
      latencyMs: { p50: latencies.percentile(0.5), p99: latencies.percentile(0.99) },
      paused: {
        watchers: paused.length,
        cutOff: pausedTallies.filter((tally) => tally.ended && tally.events < expected).length,
        mostEventsBeforeCutOff: Math.max(0, ...pausedTallies.map((tally) => tally.events)),
      },
      peakMemoryBytes: memory.peak,
      memoryBeforeBytes,
    };
  } finally {
    memory.stop();
    for (const watcher of [...watchers, ...paused]) watcher.close();
    await pool?.terminate();
    await connection.json("DELETE", `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    connection.close();
  }
}

/** Versions the writers got back, with when each write was sent. */
class VersionLedger implements WriteLedger {
  private readonly sent = new Map<string, number>();
  record(resourceVersion: string, sentAt: number): void {
    this.sent.set(resourceVersion, sentAt);
  }
  sentAt(resourceVersion: string): number | undefined {
    return this.sent.get(resourceVersion);
  }
}

/**
 * `writers` loops writing ConfigMaps until the phase ends, writer i its own KEYS_PER_WRITER in
 * turn: a create the first time (remembered in `written`), an unconditional update after. A
 * progress line every 5 s.
 */
async function writePhase(
  connection: LoadConnection,
  collection: string,
  phase: string,
  options: WatchLoadOptions,
  ledger: VersionLedger,
  written: Set<string>,
  progress: (line: string) => void,
  delivered?: () => number,
): Promise<WritePhase> {
  const value = "x".repeat(options.valueBytes);
  const started = performance.now();
  const end = started + options.phaseMs;
  const minWrites = phase === "fanout" ? (options.minFanoutWrites ?? 0) : 0;
  let writes = 0;
  let failedWrites = 0;
  const reporter = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    progress(`  ${phase}: ${writes} writes in ${seconds.toFixed(0)} s (${(writes / seconds).toFixed(0)}/s)${delivered === undefined ? "" : `, ${delivered()} events delivered`}`);
  }, 5_000);
  const writer = async (index: number) => {
    for (let turn = 0; (performance.now() < end || writes < minWrites) && !aborted(options); turn++) {
      const name = `w${index}-${turn % KEYS_PER_WRITER}`;
      const object = { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { value } };
      const update = written.has(name);
      const sentAt = performance.now();
      const answer = update ? await connection.json("PUT", `${collection}/${name}`, object) : await connection.json("POST", collection, object);
      if (answer.status === (update ? 200 : 201)) written.add(name);
      else {
        failedWrites++;
        if (failedWrites === 1) progress(`  a write was answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
        continue;
      }
      if (phase === "fanout") ledger.record(String(answer.body.metadata.resourceVersion), sentAt);
      writes++;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.writers }, (_, index) => writer(index)));
  } finally {
    clearInterval(reporter);
  }
  const seconds = (performance.now() - started) / 1000;
  return { writes, failedWrites, seconds, writesPerSecond: writes / seconds };
}

/** Samples the server's memory every second while a run lasts. */
class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  peak: number | undefined;

  constructor(private readonly read: (() => Promise<number | undefined>) | undefined) {}

  async sample(): Promise<number | undefined> {
    const bytes = await this.read?.().catch(() => undefined);
    if (bytes !== undefined) this.peak = Math.max(this.peak ?? 0, bytes);
    return bytes;
  }

  start(): void {
    if (this.read !== undefined) this.timer = setInterval(() => void this.sample(), MEMORY_SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The server's open watches above `before` once they stop falling (up to 5 s), or undefined. */
async function settledWatchCount(read: () => Promise<number | undefined>, before: number | undefined): Promise<number | undefined> {
  if (before === undefined) return undefined;
  let now = await read().catch(() => undefined);
  for (let waited = 0; now !== undefined && now > before && waited < 5_000; waited += 100) {
    await sleep(100);
    now = await read().catch(() => undefined);
  }
  return now === undefined ? undefined : now - before;
}

async function expectStatus(answer: Promise<{ status: number; body: any }>, status: number, what: string): Promise<{ status: number; body: any }> {
  const result = await answer;
  if (result.status !== status) throw new Error(`could not ${what}: answered ${result.status} ${JSON.stringify(result.body).slice(0, 300)}`);
  return result;
}

// A function, not an inline test: TypeScript would keep a property's narrowing across awaits.
function aborted(options: WatchLoadOptions): boolean {
  return options.signal?.aborted === true;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
