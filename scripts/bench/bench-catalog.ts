/**
 * What `orb-harness bench` measures: the figures (key, unit, which way is better), the benchmarks
 * that yield them (each run in a fresh child process, bench-child.ts), and their sizes in the full
 * and the quick (under a minute in all) modes. The keys are the (#20); `real.<key>` and
 * `ratio.<key>` are derived for the server figures when a real control plane is measured too.
 */

export type BenchMode = "quick" | "full";

export interface FigureSpec {
  readonly key: string;
  readonly unit: string;
  readonly better: "higher" | "lower";
  readonly what: string;
}

export const FIGURES: readonly FigureSpec[] = [
  { key: "kernel.eventsPerSecond", unit: "events/s", better: "higher", what: "the bare event queue: timers that reschedule themselves, 1,000 pending" },
  { key: "sim.timeCompression", unit: "×", better: "higher", what: "node eviction: virtual time over the wall time of the run" },
  { key: "sim.eventsPerSecond", unit: "events/s", better: "higher", what: "node eviction: kernel events per wall second" },
  { key: "store.writesPerSecond", unit: "writes/s", better: "higher", what: "MVCC store creates of ~2 KiB objects" },
  { key: "store.listAtRevisionMs", unit: "ms", better: "lower", what: "MVCC store: list of every object at a revision they have all moved past" },
  { key: "server.createsPerSecond", unit: "creates/s", better: "higher", what: "Pods of ~2.5 KiB created over TLS, 8 in flight" },
  { key: "server.list10kUnpagedMs", unit: "ms", better: "lower", what: "the Pods listed in one response (JSON, timed to its last byte, bytes counted and dropped; median of 5 lists)" },
  { key: "server.list10kPagedMs", unit: "ms", better: "lower", what: "the Pods listed in pages of 500 (median of 3 passes)" },
  { key: "server.watchFanoutP99Ms", unit: "ms", better: "lower", what: "p99 of write-to-delivery latency over every watcher and event" },
  { key: "conformance.wallSeconds", unit: "s", better: "lower", what: "the whole conformance suite against the embedded server" },
  { key: "history.checkSecondsPer100kOps", unit: "s", better: "lower", what: "the history checkers, per 100,000 operations of a soak-shaped history" },
  { key: "fuzz.runsPerSecond", unit: "runs/s", better: "higher", what: "the store's property-based fuzzer, every property" },
];

export function figureSpec(key: string): FigureSpec {
  const bare = key.replace(/^real\./, "");
  const spec = FIGURES.find((figure) => figure.key === bare);
  if (spec === undefined) throw new Error(`no figure ${key}`);
  return spec;
}

/** The sizes of each benchmark, per mode. */
export const SIZES = {
  full: {
    kernelEvents: 5_000_000,
    simulation: { nodes: 5_000, zones: 3, pods: 150_000, durationMs: 3_600_000 },
    storeObjects: 10_000,
    historyDurationMs: 32_000,
    fuzzRuns: 200,
    server: { pods: 10_000, watchers: 1_000, events: 100 },
  },
  quick: {
    kernelEvents: 1_000_000,
    simulation: { nodes: 500, zones: 3, pods: 15_000, durationMs: 600_000 },
    storeObjects: 5_000,
    historyDurationMs: 8_000,
    fuzzRuns: 30,
    server: { pods: 1_000, watchers: 100, events: 30 },
  },
} as const;

export type BenchmarkName = "kernel" | "sim" | "store" | "history" | "fuzz" | "conformance" | "server";

export interface BenchmarkSpec {
  readonly name: BenchmarkName;
  readonly figures: readonly string[];
  readonly repetitions: Readonly<Record<BenchMode, number>>;
  /** Runs against a server (the embedded one, and a real one when given), not in-process. */
  readonly againstServer?: boolean;
}

export const BENCHMARKS: readonly BenchmarkSpec[] = [
  { name: "kernel", figures: ["kernel.eventsPerSecond"], repetitions: { full: 5, quick: 1 } },
  { name: "sim", figures: ["sim.timeCompression", "sim.eventsPerSecond"], repetitions: { full: 3, quick: 1 } },
  { name: "store", figures: ["store.writesPerSecond", "store.listAtRevisionMs"], repetitions: { full: 5, quick: 1 } },
  { name: "server", figures: ["server.createsPerSecond", "server.list10kUnpagedMs", "server.list10kPagedMs", "server.watchFanoutP99Ms"], repetitions: { full: 3, quick: 1 }, againstServer: true },
  { name: "conformance", figures: ["conformance.wallSeconds"], repetitions: { full: 3, quick: 1 } },
  { name: "history", figures: ["history.checkSecondsPer100kOps"], repetitions: { full: 3, quick: 1 } },
  { name: "fuzz", figures: ["fuzz.runsPerSecond"], repetitions: { full: 3, quick: 1 } },
];

export function isBenchmarkName(name: string): name is BenchmarkName {
  return BENCHMARKS.some((benchmark) => benchmark.name === name);
}
