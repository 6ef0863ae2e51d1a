/** `orb-harness simulate`: run a control-plane scenario in virtual time, check it, report it (wiring only). */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { dialectByName, type DialectName } from "../../spec/dialects.ts";
import {
  InvalidConfigurationError,
  nodeAgentConfigForSimulation,
  nodeAgentParameters,
  type LeaderElectionParameters,
  type NodeAgentParameters,
  type NodeLifecycleParameters,
} from "../../sim/config/simulation-parameters.ts";
import { GoDurationError, parseGoDuration } from "../../sim/config/go-duration.ts";
import { quoteFlagWord, splitFlagLine } from "../../sim/config/go-flags.ts";
import { formatFaultSpec, FaultSpecError, isFaultSpec, parseFaultSpec } from "../../sim/faults/fault-spec.ts";
import type { Fault } from "../../sim/faults/fault-schedule.ts";
import type { LatencyDistribution } from "../../sim/faults/network.ts";
import { parseFaultClasses } from "../../sim/fuzz/control-plane/fault-arbitraries.ts";
import { faultShapeFor, sampleFaultSchedule } from "../../sim/fuzz/control-plane/fault-shapes.ts";
import { Rng } from "../../sim/kernel/rng.ts";
import { ruleOf } from "../../sim/invariants/verdict.ts";
import { runLeaderElectionScenario } from "../../sim/scenarios/leader-election-scenario.ts";
import { runNodeEvictionScenario } from "../../sim/scenarios/node-eviction-scenario.ts";
import type { ScenarioName, ScenarioResult } from "../../sim/scenarios/scenario-result.ts";
import { agentParameters, electionParameters, lifecycleParameters } from "../../sim/scenarios/scenario-parameters.ts";
import { simulationResults } from "../../reports/simulation/simulation-results.ts";
import { writeSimulationReport } from "../../reports/simulation/write-simulation-report.ts";
import type { ScenarioProgress } from "../../sim/scenarios/scenario-run-options.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { simulateProgress, type SimulateProgress } from "./simulate-progress.ts";
import type { ProgressSink } from "../../conformance/progress.ts";
import { flagNames, flagsOfKind, isOneOf, parseFlags, type FlagSpec, type FlagValues } from "../parse-flags.ts";

const SCENARIOS = ["leader-election", "node-eviction"] as const satisfies readonly ScenarioName[];
const CLIENTS = ["http", "store"] as const;
// Doc 2 options forwarded to the daemon's validated options (sim/config), so doc 2's rules apply.
const DOC2_FLAGS = [
  "leader-elect-lease-duration", "leader-elect-renew-deadline", "leader-elect-retry-period", "leader-elect-resource-name", "leader-elect-resource-namespace",
  "node-monitor-period", "node-monitor-grace-period", "node-startup-grace-period", "node-eviction-rate", "secondary-node-eviction-rate",
  "large-cluster-size-threshold", "unhealthy-zone-threshold",
] as const;
// Doc 3 fields (node agent configuration), as flags.
const DOC3_FLAGS = { "node-status-update-frequency": "nodeStatusUpdateFrequency", "node-status-report-frequency": "nodeStatusReportFrequency", "node-lease-duration-seconds": "nodeLeaseDurationSeconds" } as const;

const FLAGS = {
  scenario: "string", seed: "string", duration: "string", candidates: "integer", nodes: "integer", zones: "integer", pods: "integer",
  faults: "string", "report-dir": "string", dialect: "string", "kubernetes-version": "string", daemon: "string", client: "string",
  latency: "string", "history-window": "string", "controller-manager-flags": "string", "node-agent-config": "string",
  ...flagsOfKind(DOC2_FLAGS, "string"),
  ...flagsOfKind(flagNames(DOC3_FLAGS), "string"),
} as const satisfies FlagSpec;

/** The simulate command. */
export const simulateCommand: CliCommand = {
  name: "simulate",
  summary: "run a control-plane scenario (leader election, node eviction) with faults in virtual time; check invariants; write a report",
  usage: [
    "usage: orb-harness simulate --scenario leader-election|node-eviction [--seed S] [--duration 30m] [--candidates N]",
    "         [--nodes N] [--zones N] [--pods N] [--faults LIST] [--report-dir DIR] [--dialect orb|kubernetes]",
    "",
    "  --faults        explicit faults (kind:target@time[+duration][=value], comma-separated, e.g. pause:leader@40s+20s)",
    "                  or fault classes drawn from the seed: pauses, drift, partitions, crashes, all",
    "  --duration      virtual time (default 5m for leader-election, 30m for node-eviction)",
    "  --candidates    leader election candidates (default 3); --daemon controller-manager|scheduler",
    "  --nodes/--zones/--pods   cluster size (default 30 nodes, 3 zones, 10 pods per node)",
    "  --client        http (HTTP-shaped requests; leader-election default) or store (store-level; node-eviction default)",
    "  --latency       one-way API latency min/mean-extra/max, e.g. 1ms/2ms/50ms",
    "  --kubernetes-version  with --dialect kubernetes: 1.32 and later default the grace period to 50s (default 1.26)",
    "  --controller-manager-flags \"…\"  the controller manager's command line (doc 2), quoted as one argument, e.g.",
    "                  \"--leader-elect-lease-duration=20s --node-monitor-grace-period=30s\"; leader election and node",
    "                  lifecycle parameters come from it; the single doc 2 flags below are applied after it",
    "  --node-agent-config FILE  node agent configuration (doc 3, YAML or JSON; node-eviction); the doc 3 flags",
    "                  below override its fields",
    `  doc 2 options:  ${DOC2_FLAGS.map((name) => `--${name}`).join(" ")}`,
    `  doc 3 fields:   ${Object.keys(DOC3_FLAGS).map((name) => `--${name}`).join(" ")}`,
    "",
    "Prints a summary, `invariants: N held, M violated`, `time-compression: X` (virtual seconds per wall second)",
    "and, last, `trace-hash: <hex>`. On runs longer than 2 s of wall time, a progress line (virtual time reached,",
    "events/s) goes to stderr: rewritten in place on a terminal, else one line every 5 s. Writes results.json and index.html to --report-dir",
    "(default reports/out/simulation/<scenario>-<seed>). Exit 0 when every invariant held, 1 otherwise, 2 for usage errors.",
    "Flags or a node agent file that break a rule of doc 2 or 3 exit 1 before anything runs, with every finding",
    "(as `orb-harness validate` does); an unreadable file or an unbalanced quote in a flag line is a usage error.",
  ].join("\n"),
  async run(args, output) {
    let options: SimulateOptions;
    try {
      options = await simulateOptions(args);
    } catch (error) {
      // Flags or a file that break a rule of doc 2 or 3: exit 1 before anything runs, as `validate` does.
      if (!(error instanceof InvalidConfigurationError)) throw error;
      for (const line of `orb-harness simulate: ${error.message}`.split("\n")) output.err(line);
      return 1;
    }
    return simulate(options, output);
  },
};

/** What `simulate` runs: the scenario, its validated parameters, its faults, where it reports. */
interface SimulateOptions {
  readonly configured: Configured;
  readonly seed: string;
  readonly dialect: DialectName;
  /** The virtual time as given (or its default), for the first line. */
  readonly durationText: string;
  readonly durationMs: number;
  readonly candidates: number;
  readonly nodes: number;
  readonly zones: number;
  readonly pods: number;
  readonly latency: LatencyDistribution | undefined;
  readonly faults: Fault[];
  readonly client: "http" | "store" | undefined;
  /** node-eviction only: --history-window. */
  readonly historyWindowMs: number | undefined;
  readonly reportDir: string;
}

/**
 * The options `args` give. Throws UsageError for bad flags, InvalidConfigurationError for flags
 * or a node agent file that break a rule of doc 2 or 3.
 */
async function simulateOptions(args: readonly string[]): Promise<SimulateOptions> {
  const { values, positionals } = parseFlags(args, FLAGS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const integer = (name: "candidates" | "nodes" | "zones", fallback: number) => positive(name, values.get(name) ?? fallback);
  const scenario = values.get("scenario");
  if (scenario === undefined || !isOneOf(SCENARIOS, scenario)) throw new UsageError(`--scenario must be one of ${SCENARIOS.join(", ")}`);
  const seed = values.get("seed") ?? String((Math.random() * 2 ** 31) | 0);
  const dialect = dialectOrUsage(values.get("dialect") ?? "orb");
  const durationText = values.get("duration") ?? (scenario === "leader-election" ? "5m" : "30m");
  const durationMs = durationOrUsage("duration", durationText);
  const candidates = integer("candidates", 3);
  const nodes = integer("nodes", 30);
  const zones = integer("zones", 3);
  const pods = values.get("pods") ?? nodes * 10;
  const latencyText = values.get("latency");
  const latency = latencyText === undefined ? undefined : latencyOrUsage(latencyText);
  const faults = faultsOrUsage(values.get("faults"), scenario, seed, { durationMs, candidates, nodes, zones });
  const client = values.get("client");
  if (client !== undefined && !isOneOf(CLIENTS, client)) throw new UsageError("--client must be http or store");
  // Validated before anything runs: a configuration that breaks a rule exits 1, as `validate` does.
  const configured = await configure(scenario, dialect, values);
  const historyWindow = values.get("history-window");
  return {
    configured,
    seed,
    dialect,
    durationText,
    durationMs,
    candidates,
    nodes,
    zones,
    pods,
    latency,
    faults,
    client,
    historyWindowMs: scenario === "node-eviction" && historyWindow !== undefined ? durationOrUsage("history-window", historyWindow) : undefined,
    reportDir: values.get("report-dir") ?? path.join("reports", "out", "simulation", `${scenario}-${seed}`),
  };
}

/** Runs the scenario, checks it, writes the report and prints the summary; 0 when every invariant held. */
async function simulate(options: SimulateOptions, output: CliOutput): Promise<number> {
  const { configured, seed, durationMs, dialect, faults, latency, client } = options;
  output.out(`simulate ${configured.scenario}: seed ${seed}, ${options.durationText} of virtual time, faults: ${formatFaultSpec(faults) || "none"}`);
  const clock = { start: performance.now(), started: 0, ended: 0 };
  // Progress on stderr, so stdout stays summary, verdicts and, last, the trace hash.
  const stream: ProgressSink = process.stderr.isTTY
    ? { isTTY: true, write: (text) => void process.stderr.write(text), columns: () => process.stderr.columns }
    : { isTTY: false, write: (text) => output.err(text.replace(/\n$/, "")) };
  let progress: SimulateProgress | undefined;
  const hooks = {
    onStarted: () => {
      clock.started = performance.now();
      progress = simulateProgress({ stream, now: () => performance.now() });
    },
    onRunEnded: () => {
      clock.ended = performance.now();
      progress?.finish();
    },
    onProgress: (reached: ScenarioProgress) => progress?.update(reached),
  };
  let result: ScenarioResult;
  try {
    result =
      configured.scenario === "leader-election"
        ? await runLeaderElectionScenario({
            seed, durationMs, candidates: options.candidates, dialect, faults, ...hooks,
            election: configured.election,
            ...(latency && { latency }), ...(client && { client }),
          })
        : await runNodeEvictionScenario({
            seed, durationMs, nodes: options.nodes, zones: options.zones, pods: options.pods, dialect, faults, ...hooks,
            lifecycle: configured.lifecycle,
            agent: configured.agent,
            ...(latency && { latency }), ...(client && { client }),
            ...(options.historyWindowMs !== undefined && { historyWindowMs: options.historyWindowMs }),
          });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("unknown fault target")) throw new UsageError(error.message);
    throw error;
  }
  const finished = performance.now();
  const results = simulationResults(result, { setupMs: clock.started - clock.start, runMs: clock.ended - clock.started, checksMs: finished - clock.ended });
  const written = await writeSimulationReport(options.reportDir, results);
  for (const line of [...result.summary, ...result.notes]) output.out(line);
  for (const verdict of result.verdicts) {
    output.out(`${verdict.held ? "ok  " : "FAIL"}  ${verdict.id}  (${verdict.checked} checked)`);
    if (!verdict.held) {
      output.out(`      rule: ${ruleOf(verdict.id)}`);
      output.out(`      witness: ${verdict.witness?.explanation ?? ""}`);
    }
  }
  const violated = result.verdicts.filter((verdict) => !verdict.held).length;
  output.out(`invariants: ${result.verdicts.length - violated} held, ${violated} violated`);
  output.out(`results: ${written.resultsPath}`);
  output.out(`report: ${written.pagePath}`);
  output.out(`wall: setup ${seconds(results.wall.setupMs)}, run ${seconds(results.wall.runMs)}, checks ${seconds(results.wall.checksMs)}; ${result.kernelEvents} kernel events, ${result.wakeups} wake-ups (${Math.round(results.eventsPerSecond)}/s)`);
  output.out(`time-compression: ${results.timeCompression.toFixed(1)}`);
  output.out(`trace-hash: ${result.traceHash}`);
  return violated === 0 ? 0 : 1;
}

/** The validated parameters a scenario takes: leader election, or node lifecycle and node agent. */
type Configured =
  | { readonly scenario: "leader-election"; readonly election: LeaderElectionParameters }
  | { readonly scenario: "node-eviction"; readonly lifecycle: NodeLifecycleParameters; readonly agent: NodeAgentParameters };

/**
 * The scenario's parameters from doc 2 flags (`--controller-manager-flags`, then the single doc 2
 * flags, so those win as a repeated Go flag does) and the doc 3 configuration (`--node-agent-config`,
 * its fields overridden by the single doc 3 flags), validated by sim/config. Throws
 * InvalidConfigurationError when a rule is broken, UsageError for bad combinations.
 */
async function configure(scenario: ScenarioName, dialect: DialectName, flags: FlagValues<typeof FLAGS>): Promise<Configured> {
  const daemon = flags.get("daemon") ?? "controller-manager";
  if (daemon !== "controller-manager" && daemon !== "scheduler") throw new UsageError("--daemon must be controller-manager or scheduler");
  if (flags.get("controller-manager-flags") !== undefined && scenario === "leader-election" && daemon !== "controller-manager") {
    throw new UsageError("--controller-manager-flags sets the controller manager's options; with --daemon scheduler give single --leader-elect-… flags");
  }
  if (flags.get("node-agent-config") !== undefined && scenario !== "node-eviction") {
    throw new UsageError("--node-agent-config applies to --scenario node-eviction (leader election runs no node agents)");
  }
  // Words quoted again, since the parameter functions join them into one line and split it.
  const doc2 = [
    ...flagLineOrUsage(flags.get("controller-manager-flags")),
    ...DOC2_FLAGS.filter((name) => flags.get(name) !== undefined).map((name) => `--${name}=${flags.get(name)}`),
  ].map(quoteFlagWord);
  if (scenario === "leader-election") return { scenario, election: electionParameters(daemon, dialect, doc2) };
  const doc3 = Object.fromEntries(
    flagNames(DOC3_FLAGS)
      .filter((name) => flags.get(name) !== undefined)
      .map((name) => [DOC3_FLAGS[name], DOC3_FLAGS[name] === "nodeLeaseDurationSeconds" ? Number(flags.get(name)) : flags.get(name)]),
  );
  const agentFile = flags.get("node-agent-config");
  const agent = agentFile === undefined ? agentParameters(dialect, doc3) : agentFromFile(await readConfigFile(agentFile), doc3, dialect);
  try {
    return { scenario, lifecycle: lifecycleParameters(dialect, flags.get("kubernetes-version"), doc2), agent };
  } catch (error) {
    // Only --kubernetes-version is parsed there without validation (defaultNodeMonitorGracePeriodMs).
    if (error instanceof RangeError) throw new UsageError(`--kubernetes-version: ${error.message}`);
    throw error;
  }
}

function flagLineOrUsage(line: string | undefined): string[] {
  if (line === undefined) return [];
  try {
    return splitFlagLine(line);
  } catch (error) {
    if (error instanceof SyntaxError) throw new UsageError(`--controller-manager-flags: ${error.message}`);
    throw error;
  }
}

async function readConfigFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`--node-agent-config: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// The file's apiVersion names its dialect (doc 3 §2); it must be the one the simulation speaks.
function agentFromFile(text: string, overrides: Readonly<Record<string, unknown>>, dialect: DialectName): NodeAgentParameters {
  const validation = nodeAgentConfigForSimulation(text, overrides);
  if (validation.dialect !== dialect) {
    throw new UsageError(`--node-agent-config is a ${validation.dialect}-dialect file (${String(validation.config?.["apiVersion"])}) but --dialect is ${dialect}`);
  }
  return nodeAgentParameters(validation);
}

function positive(name: string, value: number): number {
  if (!(value >= 1)) throw new UsageError(`--${name} must be at least 1, got ${value}`);
  return value;
}

function dialectOrUsage(name: string): DialectName {
  try {
    return dialectByName(name).name;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function durationOrUsage(name: string, text: string): number {
  try {
    const ms = Number(parseGoDuration(text) / 1_000_000n);
    if (ms <= 0) throw new UsageError(`--${name} must be positive, got ${text}`);
    return ms;
  } catch (error) {
    if (error instanceof GoDurationError) throw new UsageError(`--${name}: ${error.message} (e.g. 30m, 90s, 1h)`);
    throw error;
  }
}

function latencyOrUsage(text: string): LatencyDistribution {
  const parts = text.split("/");
  if (parts.length !== 3) throw new UsageError(`--latency is min/mean-extra/max, e.g. 1ms/2ms/50ms; got ${text}`);
  const [minMs, meanExtraMs, maxMs] = parts.map((part) => durationOrZero(part));
  if (!(minMs! <= maxMs!)) throw new UsageError(`--latency: min must not exceed max (${text})`);
  return { minMs: minMs!, meanExtraMs: meanExtraMs!, maxMs: maxMs! };
}

function durationOrZero(text: string): number {
  try {
    return Number(parseGoDuration(text) / 1_000_000n);
  } catch {
    throw new UsageError(`--latency: "${text}" is not a duration`);
  }
}

function faultsOrUsage(text: string | undefined, scenario: ScenarioName, seed: string, size: Parameters<typeof faultShapeFor>[1]): Fault[] {
  if (text === undefined || text.trim() === "" || text === "none") return [];
  try {
    if (isFaultSpec(text)) return parseFaultSpec(text);
    // Classes: one schedule drawn from the run's seed (its own fork, so the run's streams are untouched).
    const faultSeed = new Rng(seed).fork("simulate-faults").int(0, 2 ** 31 - 1);
    return sampleFaultSchedule(parseFaultClasses(text), faultShapeFor(scenario, size), faultSeed);
  } catch (error) {
    if (error instanceof FaultSpecError || error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}
