/** `orb-harness load`: watch fan-out under load against the embedded server or any server (wiring only). */
import { readFileSync } from "node:fs";
import { loadChecks, mib } from "../../conformance/load/load-checks.ts";
import { pausedConnectionBytes } from "../../conformance/load/socket-buffer-bound.ts";
import { startServeProcess, type ServeProcess } from "../../conformance/load/serve-process.ts";
import { KEYS_PER_WRITER, runWatchLoad, type WatchLoadResult } from "../../conformance/load/watch-load-run.ts";
import type { LoadTarget } from "../../conformance/load/load-connection.ts";
import type { WatchEncoding } from "../../conformance/load/fanout-watcher.ts";
import { GoDurationError, goDurationToMs, parseGoDuration } from "../../sim/config/go-duration.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { holdInterrupt, INTERRUPTED_EXIT } from "../interrupt.ts";
import { isOneOf, parseFlags } from "../parse-flags.ts";

const DEFAULTS = { watchers: 1000, paused: 3, writers: 16, duration: "60s", valueBytes: 100, watchEncoding: "protobuf", minRateRatio: 0.5, maxMemoryMiB: 1024 } as const;
const WATCH_ENCODINGS: readonly WatchEncoding[] = ["protobuf", "json"];
// About what one ConfigMap event of the load takes on the wire besides its value (names, metadata).
const EVENT_OVERHEAD_BYTES = 300;
// The history the load's own embedded server keeps (serve --history, --compaction-interval): with the
// default 5 minutes it would hold every version of a two-minute run, and its memory would grow with
// the run's length (about 3 KiB resident per version). With 30 s it holds at most 45 s of writes
// (30 s and one compaction interval), so its memory is bounded however long the run.
const EMBEDDED_HISTORY = ["--history", "30s", "--compaction-interval", "15s"] as const;

/** The load command. */
export const loadCommand: CliCommand = {
  name: "load",
  summary: "watch fan-out under load: 1,000 watchers, writers at full speed, slow readers; checks order, loss, rate and memory",
  usage: [
    "usage: orb-harness load [--server URL [--token T] [--certificate-authority FILE] [--insecure-skip-tls-verify]]",
    `                        [--watchers ${DEFAULTS.watchers}] [--paused-watchers ${DEFAULTS.paused}] [--writers ${DEFAULTS.writers}] [--duration ${DEFAULTS.duration}]`,
    `                        [--value-bytes ${DEFAULTS.valueBytes}] [--watch-encoding ${DEFAULTS.watchEncoding}|json]`,
    `                        [--min-rate-ratio ${DEFAULTS.minRateRatio}] [--max-memory-mib ${DEFAULTS.maxMemoryMiB}]`,
    "",
    "Three phases in a namespace of its own (deleted at the end): the writers alone for --duration, the",
    "same writers with --watchers watchers reading every event and --paused-watchers that never read,",
    `then the paused ones read again to see whether the server cut them off. Each writer updates ${KEYS_PER_WRITER}`,
    "ConfigMaps of its own in turn (created by its first writes), so what the run stores is bounded.",
    "",
    "  --server                   the server to load; default: `orb-harness serve --dialect kubernetes",
    "                             " + EMBEDDED_HISTORY.join(" ") + "` in a process of its own, stopped at the end",
    "  --token                    bearer token (needs to create namespaces and ConfigMaps, and get /metrics)",
    "  --certificate-authority    PEM file of the CA of the server's certificate",
    "  --insecure-skip-tls-verify do not verify the server's certificate",
    "  --watchers                 watchers that read every event",
    "  --paused-watchers          watchers that stop reading at once (slow readers)",
    "  --writers                  writes in flight at once",
    "  --duration                 length of each write phase (Go duration)",
    "  --value-bytes              size of each written ConfigMap's value",
    "  --watch-encoding           what the watchers accept: protobuf, as client-go informers of built-in",
    "                             types and kube-controller-manager ask by default, or json, as kubectl does",
    "  --min-rate-ratio           least (rate with watchers) / (rate without) that passes",
    "  --max-memory-mib           largest resident memory of the server that passes (read from its /metrics)",
    "",
    "Prints progress, the figures and one line per check. Exit 0 when every check holds, 1 when one",
    "fails, 2 for usage errors.",
  ].join("\n"),
  async run(args, output) {
    return load(loadOptions(args), output);
  },
};

/** What `load` runs with: the server (none: start one), the load, the checks' limits. */
interface LoadOptions {
  /** The server given with --server and its credentials; undefined: the embedded one, started for the run. */
  readonly server: LoadTarget | undefined;
  readonly watchers: number;
  readonly pausedWatchers: number;
  readonly writers: number;
  readonly valueBytes: number;
  readonly phaseMs: number;
  readonly watchEncoding: WatchEncoding;
  readonly minRateRatio: number;
  readonly maxMemoryBytes: number;
}

/** The options `args` give; throws UsageError for bad flags (and an unreadable --certificate-authority). */
function loadOptions(args: readonly string[]): LoadOptions {
  const { values, positionals } = parseFlags(args, {
    server: "string",
    token: "string",
    "certificate-authority": "string",
    "insecure-skip-tls-verify": "boolean",
    watchers: "integer",
    "paused-watchers": "integer",
    writers: "integer",
    duration: "string",
    "value-bytes": "integer",
    "watch-encoding": "string",
    "min-rate-ratio": "string",
    "max-memory-mib": "integer",
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const server = values.get("server");
  for (const flag of ["token", "certificate-authority", "insecure-skip-tls-verify"] as const) {
    if (server === undefined && values.has(flag)) throw new UsageError(`--${flag} needs --server`);
  }
  const atLeast = (name: "watchers" | "paused-watchers" | "writers" | "value-bytes" | "max-memory-mib", fallback: number, least: number) => {
    const value = values.get(name) ?? fallback;
    if (value < least) throw new UsageError(`--${name} must be at least ${least}, got ${value}`);
    return value;
  };
  const watchers = atLeast("watchers", DEFAULTS.watchers, 1);
  const pausedWatchers = atLeast("paused-watchers", DEFAULTS.paused, 0);
  const writers = atLeast("writers", DEFAULTS.writers, 1);
  const valueBytes = atLeast("value-bytes", DEFAULTS.valueBytes, 0);
  const phaseMs = duration(values.get("duration"));
  const watchEncoding = values.get("watch-encoding") ?? DEFAULTS.watchEncoding;
  if (!isOneOf(WATCH_ENCODINGS, watchEncoding)) throw new UsageError(`--watch-encoding must be one of ${WATCH_ENCODINGS.join(", ")}, got ${watchEncoding}`);
  const minRateRatio = Number(values.get("min-rate-ratio") ?? DEFAULTS.minRateRatio);
  if (!(minRateRatio >= 0 && minRateRatio <= 1)) throw new UsageError(`--min-rate-ratio must be a number from 0 to 1, got ${String(values.get("min-rate-ratio"))}`);
  const maxMemoryBytes = atLeast("max-memory-mib", DEFAULTS.maxMemoryMiB, 1) * 2 ** 20;
  let target: LoadTarget | undefined;
  if (server !== undefined) {
    const token = values.get("token");
    const caFile = values.get("certificate-authority");
    target = {
      url: server,
      ...(token !== undefined && { token }),
      ...(caFile !== undefined && { certificateAuthority: readCertificateAuthority(caFile) }),
      ...(values.get("insecure-skip-tls-verify") === true && { insecureSkipTlsVerify: true }),
    };
  }
  return { server: target, watchers, pausedWatchers, writers, valueBytes, phaseMs, watchEncoding, minRateRatio, maxMemoryBytes };
}

/** Starts the embedded server unless one was given, runs the three phases, prints the figures and the checks. */
async function load(options: LoadOptions, output: CliOutput): Promise<number> {
  const { watchers, pausedWatchers, writers, phaseMs, valueBytes, watchEncoding } = options;
  let serve: ServeProcess | undefined;
  let target: LoadTarget;
  if (options.server === undefined) {
    output.out("starting the embedded server in a process of its own");
    serve = await startServeProcess(EMBEDDED_HISTORY);
    target = { url: serve.url };
  } else {
    target = options.server;
  }
  const interrupt = holdInterrupt(output, "interrupted: stopping the writers, closing the watchers and deleting the namespace (Ctrl-C again to quit at once)");
  let result: WatchLoadResult;
  try {
    output.out(`loading ${target.url}`);
    result = await runWatchLoad({ target, watchers, pausedWatchers, writers, phaseMs, valueBytes, watchEncoding, onProgress: (line) => output.out(line), signal: interrupt.signal });
  } catch (error) {
    output.err(`orb-harness load: ${(error as Error).message}`);
    return 1;
  } finally {
    interrupt.release();
    await serve?.stop();
  }
  printFigures(result, output);
  const checks = loadChecks(result, { minRateRatio: options.minRateRatio, maxMemoryBytes: options.maxMemoryBytes, pausedBufferBytes: pausedConnectionBytes() }, valueBytes + EVENT_OVERHEAD_BYTES);
  for (const check of checks) output.out(`${check.passed ? "PASS" : "FAIL"}  ${check.name}: ${check.detail}`);
  if (interrupt.signal.aborted) return INTERRUPTED_EXIT;
  return checks.every((check) => check.passed) ? 0 : 1;
}

function printFigures(result: WatchLoadResult, output: CliOutput): void {
  output.out(`writes alone:        ${result.alone.writes} in ${result.alone.seconds.toFixed(1)} s = ${result.alone.writesPerSecond.toFixed(0)}/s (${result.alone.failedWrites} failed)`);
  output.out(`writes with watchers: ${result.fanout.writes} in ${result.fanout.seconds.toFixed(1)} s = ${result.fanout.writesPerSecond.toFixed(0)}/s (${result.fanout.failedWrites} failed)`);
  output.out(`events delivered:    ${result.events} to ${result.watchers} watchers (${result.watchEncoding}) = ${result.eventsPerSecond.toFixed(0)}/s; latency p50 ${result.latencyMs.p50.toFixed(0)} ms, p99 ${result.latencyMs.p99.toFixed(0)} ms`);
  output.out(`paused watchers:     ${result.paused.cutOff} of ${result.paused.watchers} cut off (most events before the cut: ${result.paused.mostEventsBeforeCutOff})`);
  if (result.peakMemoryBytes !== undefined) output.out(`server memory:       ${mib(result.memoryBeforeBytes ?? 0)} before, ${mib(result.peakMemoryBytes)} at the peak`);
}

function duration(text: string | undefined): number {
  try {
    const ms = goDurationToMs(parseGoDuration(text ?? DEFAULTS.duration));
    if (ms <= 0) throw new UsageError(`--duration must be positive, got ${text}`);
    return ms;
  } catch (error) {
    if (error instanceof GoDurationError) throw new UsageError(`--duration: ${error.message}`);
    throw error;
  }
}

function readCertificateAuthority(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--certificate-authority: ${(error as Error).message}`);
  }
}
