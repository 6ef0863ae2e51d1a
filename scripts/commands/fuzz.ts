/** `orb-harness fuzz`: property-based fuzzing of the in-memory model (wiring only). */
import { readFileSync } from "node:fs";
import { formatOutcome, runStoreFuzz, storePropertyIds } from "../../sim/fuzz/store/run-store-fuzz.ts";
import { DEFAULT_FAULT_CLASSES, parseFaultClasses, type FaultClass } from "../../sim/fuzz/control-plane/fault-arbitraries.ts";
import { formatFuzzOutcome, runControlPlaneFuzz } from "../../sim/fuzz/control-plane/run-control-plane-fuzz.ts";
import { LANE_COUNT } from "../../sim/fuzz/http/fuzz-request.ts";
import { findingLines, progressLine, runFailed, summaryLines } from "../../conformance/fuzz-http/fuzz-report.ts";
import { runHttpFuzzSession, SessionError } from "../../conformance/fuzz-http/http-fuzz-session.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";

const TARGETS = ["store", "leader-election", "node-eviction", "http"] as const;
const DEFAULT_RUNS = 200;
/** `--target http`: requests per run by default (`npm run fuzz` sends 10,000). */
const DEFAULT_HTTP_REQUESTS = 1_000;

/** The fuzz command. */
export const fuzzCommand: CliCommand = {
  name: "fuzz",
  summary: "fuzz the in-memory model with fast-check; print failures with a replay command",
  usage: [
    "usage: orb-harness fuzz --target store [--seed S] [--runs N] [--property ID] [--replay PATH]",
    "       orb-harness fuzz --target leader-election|node-eviction [--faults pauses|drift|partitions|crashes|all] [--seed S] [--runs N] [--replay PATH]",
    "       orb-harness fuzz --target http [--server URL [--token T] [--certificate-authority FILE]] [--seed S] [--runs N] [--replay PATH]",
    "",
    "  --target     what to fuzz: " + TARGETS.join(", "),
    `  --faults     control-plane targets: fault classes to generate, comma-separated (default ${DEFAULT_FAULT_CLASSES.join(",")})`,
    "  --seed       32-bit integer seed (default: a random one, printed)",
    `  --runs       runs per property (default ${DEFAULT_RUNS}); for http, requests to send (default ${DEFAULT_HTTP_REQUESTS})`,
    "  --property   only this property: " + storePropertyIds.join(", "),
    "  --replay     replay one failure: the path printed with it (use the same --seed and --property)",
    "  --server     http: the API server to fuzz (default: the embedded one, started in this process)",
    "  --token      http: bearer token for --server",
    "  --certificate-authority  http: PEM CA file for an https --server",
    "",
    "Prints one line per property, then `trace-hash: <hex>` (same seed and runs, same hash).",
    "--target http sends malformed and hostile requests, 8 at a time, writing only in a namespace of",
    "its own (created first, deleted last); every answer must come, be no 5xx but the documented ones,",
    "and, for an error, be a Status with its own code; an error must change nothing. It prints",
    "progress every 1,000 requests, each finding shrunk with its replay command, the counts, and",
    "`http fuzz: N requests, M findings` last.",
    "Exit 0 when every property holds, 1 when one fails, 2 for usage errors.",
  ].join("\n"),
  async run(args, output) {
    const { values, positionals } = parseFlags(args, {
      target: "string",
      seed: "integer",
      runs: "integer",
      property: "string",
      replay: "string",
      faults: "string",
      server: "string",
      token: "string",
      "certificate-authority": "string",
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const target = values.get("target");
    if (target === undefined) throw new UsageError("--target is required");
    if (!TARGETS.includes(target as (typeof TARGETS)[number])) {
      throw new UsageError(`unknown --target ${String(target)}; known targets: ${TARGETS.join(", ")}`);
    }
    const seed = (values.get("seed") as number | undefined) ?? randomSeed();
    if (seed !== (seed | 0)) throw new UsageError(`--seed must be a 32-bit integer, got ${seed}`);
    const runs = (values.get("runs") as number | undefined) ?? DEFAULT_RUNS;
    if (runs < 1) throw new UsageError(`--runs must be at least 1, got ${runs}`);
    const property = values.get("property") as string | undefined;
    if (property !== undefined && !storePropertyIds.includes(property)) {
      throw new UsageError(`unknown --property ${property}; one of: ${storePropertyIds.join(", ")}`);
    }
    const replayPath = values.get("replay") as string | undefined;
    const faults = values.get("faults") as string | undefined;
    const remote = { server: values.get("server") as string | undefined, token: values.get("token") as string | undefined, ca: values.get("certificate-authority") as string | undefined };
    if (target !== "http" && (remote.server ?? remote.token ?? remote.ca) !== undefined) throw new UsageError("--server, --token and --certificate-authority apply to --target http");
    if (target === "http") {
      if (property !== undefined) throw new UsageError("--property applies to --target store");
      if (faults !== undefined) throw new UsageError("--faults applies to --target leader-election and node-eviction");
      return fuzzHttp(seed, (values.get("runs") as number | undefined) ?? DEFAULT_HTTP_REQUESTS, remote, replayPath, output);
    }
    if (target !== "store" && property !== undefined) throw new UsageError("--property applies to --target store");
    if (target !== "store") return fuzzControlPlane(target as "leader-election" | "node-eviction", seed, runs, faults, replayPath, output);
    if (faults !== undefined) throw new UsageError("--faults applies to --target leader-election and node-eviction");
    if (replayPath !== undefined && property === undefined) throw new UsageError("--replay needs --property");
    output.out(`fuzzing ${target}: seed ${seed}, ${runs} runs per property`);
    const result = await runStoreFuzz({
      seed,
      runs,
      ...(property !== undefined && { property }),
      ...(replayPath !== undefined && { replayPath }),
      onOutcome: (outcome) => formatOutcome(seed, outcome).forEach((line) => output.out(line)),
    });
    const failed = result.outcomes.filter((outcome) => !outcome.passed).length;
    output.out(`${result.outcomes.length - failed} passed, ${failed} failed`);
    output.out(`trace-hash: ${result.traceHash}`);
    return failed === 0 ? 0 : 1;
  },
};

// `fuzz --target leader-election|node-eviction`: fault schedules, the control-plane invariants.
async function fuzzControlPlane(
  target: "leader-election" | "node-eviction",
  seed: number,
  runs: number,
  faults: string | undefined,
  replayPath: string | undefined,
  output: { out(line: string): void },
): Promise<number> {
  let classes: FaultClass[];
  try {
    classes = faults === undefined ? [...DEFAULT_FAULT_CLASSES] : parseFaultClasses(faults);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (classes.length === 0) throw new UsageError("--faults names no fault class");
  output.out(`fuzzing ${target}: seed ${seed}, ${runs} runs, faults ${classes.join(",")}`);
  const outcome = await runControlPlaneFuzz({ target, seed, runs, classes, ...(replayPath !== undefined && { replayPath }) });
  formatFuzzOutcome(outcome).forEach((line) => output.out(line));
  output.out(outcome.failure === undefined ? "1 passed, 0 failed" : "0 passed, 1 failed");
  output.out(`trace-hash: ${outcome.traceHash}`);
  return outcome.failure === undefined ? 0 : 1;
}

// `fuzz --target http`: the session (conformance/fuzz-http/) and its report.
async function fuzzHttp(
  seed: number,
  requests: number,
  remote: { readonly server: string | undefined; readonly token: string | undefined; readonly ca: string | undefined },
  replayPath: string | undefined,
  output: CliOutput,
): Promise<number> {
  if (remote.server === undefined && (remote.token ?? remote.ca) !== undefined) throw new UsageError("--token and --certificate-authority need --server");
  if (remote.server !== undefined && !/^https?:\/\/[^/]+/.test(remote.server)) throw new UsageError(`--server must be an http:// or https:// URL, got ${remote.server}`);
  let ca: string | undefined;
  if (remote.ca !== undefined) {
    try {
      ca = readFileSync(remote.ca, "utf8");
    } catch (error) {
      throw new UsageError(`--certificate-authority: cannot read ${remote.ca}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const server = remote.server?.replace(/\/+$/, "");
  const target = { ...(server !== undefined && { server }), hasToken: remote.token !== undefined, hasCertificateAuthority: ca !== undefined };
  output.out(`fuzzing http: seed ${seed}, ${replayPath === undefined ? `${requests} requests` : `replaying ${replayPath}`}, ${LANE_COUNT} in flight`);
  let result;
  try {
    result = await runHttpFuzzSession({
      seed,
      requests,
      ...(server !== undefined && { server: { url: server, ...(remote.token !== undefined && { token: remote.token }), ...(ca !== undefined && { ca }) } }),
      ...(replayPath !== undefined && { replayPath }),
      onStart: ({ url, namespace, dialect, embedded }) => output.out(`${embedded ? "embedded server" : "server"} ${url} (dialect ${dialect.name}), namespace ${namespace}`),
      onProgress: (tally, elapsedMs) => output.out(progressLine(tally, elapsedMs)),
      onFinding: (finding) => findingLines(finding, target).forEach((line) => output.out(line)),
    });
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    output.err(`orb-harness fuzz: ${error.message}`);
    return 2;
  }
  summaryLines(result).forEach((line) => output.out(line));
  return runFailed(result) ? 1 : 0;
}

// The CLI is outside sim/, so it may draw a seed from global randomness; it prints it for replay.
function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}
