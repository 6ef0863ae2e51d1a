/** `orb-harness fuzz`: property-based fuzzing of the in-memory model (wiring only). */
import { readFileSync } from "node:fs";
import { formatOutcome, runStoreFuzz, storeCampaignRun, storePropertyIds, storeRunVerdict } from "../../sim/fuzz/store/run-store-fuzz.ts";
import { DEFAULT_FAULT_CLASSES, parseFaultClasses, type FaultClass } from "../../sim/fuzz/control-plane/fault-arbitraries.ts";
import { controlPlaneCampaignRun, controlPlaneRunVerdict, formatFuzzOutcome, runControlPlaneFuzz } from "../../sim/fuzz/control-plane/run-control-plane-fuzz.ts";
import { LANE_COUNT } from "../../sim/fuzz/http/fuzz-request.ts";
import { campaignTraceHash, parseShard, type CampaignResults, type Shard } from "../../conformance/campaign/campaign.ts";
import { runCampaign } from "../../conformance/campaign/run-campaign.ts";
import { findingLines, progressLine, replayCommand, runFailed, summaryLines } from "../../conformance/fuzz-http/fuzz-report.ts";
import { REQUESTS_PER_RUN, runHttpFuzzSession, SessionError } from "../../conformance/fuzz-http/http-fuzz-session.ts";
import { CAMPAIGN_REPORT_FILES, writeCampaignReports } from "../../reports/campaign-reports.ts";
import { campaignRateLine, runListText, shardScopeText } from "../../reports/campaign-text.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { listDefects, plantedDefects } from "../defect-flags.ts";
import { flagNames, isOneOf, parseFlags, type FlagSpec, type FlagValues } from "../parse-flags.ts";
import { TARGET_FLAGS, targetChoice, withKubeAssetsDefault } from "../target-flags.ts";
import { holdInterrupt, INTERRUPTED_EXIT } from "../interrupt.ts";
import type { ApiFuzzTargetChoice } from "../../conformance/fuzz-api/api-fuzz-target.ts";
import { fuzzApiCampaign } from "./fuzz-api.ts";

const TARGETS = ["store", "leader-election", "node-eviction", "http", "api"] as const;
const DEFAULT_RUNS = 200;
/** `--target http`: requests per run by default (`npm run fuzz` sends 10,000). */
const DEFAULT_HTTP_REQUESTS = 1_000;
/** What a store or control-plane campaign runs against: this process's model, never a server. */
const MODEL_TARGET = "in-process model";

/** The flags of `fuzz` (exported so the examples' command lines are checked against them). */
export const FUZZ_FLAGS = {
  target: "string",
  seed: "integer",
  runs: "integer",
  shard: "string",
  "report-dir": "string",
  property: "string",
  replay: "string",
  faults: "string",
  ...TARGET_FLAGS,
  defect: "repeated",
} as const satisfies FlagSpec;
type FuzzFlags = FlagValues<typeof FUZZ_FLAGS>;

/** The fuzz command. */
export const fuzzCommand: CliCommand = {
  name: "fuzz",
  summary: "fuzz the in-memory model with fast-check; print failures with a replay command",
  usage: [
    "usage: orb-harness fuzz --target store [--seed S] [--runs N] [--shard I/N] [--report-dir DIR] [--property ID]",
    "       orb-harness fuzz --target leader-election|node-eviction [--faults pauses|drift|partitions|crashes|all] [--seed S] [--runs N] [--shard I/N] [--report-dir DIR]",
    "       orb-harness fuzz --target store|leader-election|node-eviction --seed S --replay PATH [--property ID] [--faults ...]",
    "       orb-harness fuzz --target http [--server URL [--token T] [--certificate-authority FILE]] [--seed S] [--runs N]",
    "                    [--shard I/N] [--report-dir DIR] | --seed S --replay PATH",
    "       orb-harness fuzz --target api [--server URL … | --kubeconfig FILE | --kube-assets [DIR] [--kube-profile P] | --defect NAME …]",
    "                    [--seed S] [--runs N] [--shard I/N] [--report-dir DIR] | --seed S --replay PATH",
    "",
    "  --target     what to fuzz: " + TARGETS.join(", "),
    `  --faults     control-plane targets: fault classes to generate, comma-separated (default ${DEFAULT_FAULT_CLASSES.join(",")})`,
    "  --seed       32-bit integer seed of the campaign (default: a random one, printed)",
    `  --runs       runs of the campaign (default ${DEFAULT_RUNS}); for http, requests to send (default ${DEFAULT_HTTP_REQUESTS})`,
    "  --shard I/N  make only shard I of N of the campaign: the runs r with r % N = I - 1, each seeded as in the",
    "               whole campaign (needs --seed); `orb-harness report merge` joins the shards' report dirs",
    `  --report-dir DIR  write the campaign's ${Object.values(CAMPAIGN_REPORT_FILES).join(", ")} into DIR (none without it)`,
    "  --property   only this property: " + storePropertyIds.join(", "),
    "  --replay     replay one failed run: the seed and path printed with it (and its --property or --faults)",
    "  --server     http, api: the API server to fuzz (default: the embedded one, in this process)",
    "  --token      http, api: bearer token for --server",
    "  --certificate-authority  http, api: PEM CA file for an https --server",
    "  --kubeconfig, --context, --kube-assets, --kube-profile, --client-certificate, --client-key,",
    "  --insecure-skip-tls-verify  api: the other ways to reach a server, as `conformance` reads them",
    "  --defect NAME  api, embedded server only: plant a known bug (repeatable; --defect help lists them)",
    "",
    "store, leader-election and node-eviction run a campaign of --runs independent runs, run r seeded from the",
    "campaign seed and r alone (store: every property once; control plane: one generated fault schedule).",
    "Each failed run is shrunk and printed with its own seed and replay command; then one line per property,",
    "the counts, `N runs in T s (R runs/s)` and `trace-hash: <hex>` (same seed and runs, same hash; the merge",
    "of a campaign's shards prints the unsharded campaign's hash).",
    "--target http sends malformed and hostile requests, 8 at a time, writing only in a namespace of",
    "its own (created first, deleted last); every answer must come, be no 5xx but the documented ones,",
    "and, for an error, be a Status with its own code; an error must change nothing. It prints",
    "progress every 1,000 requests, each finding shrunk with its replay command, the counts, and",
    "`http fuzz: N requests, M findings` last. Its requests are a campaign of blocks of " + REQUESTS_PER_RUN.toLocaleString("en-US") + ", each",
    "generated from its own seed: --shard I/N sends every Nth block, and --report-dir reports them.",
    "--target api runs generated sequences of API operations (writes with and without preconditions,",
    "finalizers, dry runs, gets and lists in every representation, paged lists, watches that resume,",
    "waits past expiry, steps sent at once) on the target and on the model (the embedded server in",
    "virtual time, dialect kubernetes), each run in fresh namespaces: every answer must match the",
    "model's, versions mapped by observation, and the target's recorded history must pass the",
    "history checkers. A failure is shrunk and printed with the differing answer and its replay command.",
    "Exit 0 when every property holds, 1 when one fails, 2 for usage errors.",
  ].join("\n"),
  async run(args, output) {
    const options = fuzzOptions(args);
    switch (options.kind) {
      case "list-defects":
        listDefects(output);
        return 0;
      case "api":
        return fuzzApi(options, output);
      case "http":
        return fuzzHttp(options.campaign, options.remote, options.replayPath, output);
      case "store":
        return fuzzStore(options.campaign, options.property, output);
      case "store-replay":
        return replayStore(options.seed, options.property, options.replayPath, output);
      case "control-plane":
        return fuzzControlPlane(options.target, options.campaign, options.classes, output);
      case "control-plane-replay":
        return replayControlPlane(options.target, options.seed, options.classes, options.replayPath, output);
    }
  },
};

type ControlPlaneTarget = "leader-election" | "node-eviction";

/** What `fuzz` does: list the defects, or run one target's campaign, or replay one of its runs. */
type FuzzOptions =
  | { readonly kind: "list-defects" }
  | ApiOptions
  | { readonly kind: "http"; readonly campaign: CampaignFlags; readonly remote: HttpRemote; readonly replayPath: string | undefined }
  | { readonly kind: "store"; readonly campaign: CampaignFlags; readonly property: string | undefined }
  | { readonly kind: "store-replay"; readonly seed: number; readonly property: string; readonly replayPath: string }
  | { readonly kind: "control-plane"; readonly target: ControlPlaneTarget; readonly campaign: CampaignFlags; readonly classes: FaultClass[] }
  | { readonly kind: "control-plane-replay"; readonly target: ControlPlaneTarget; readonly seed: number; readonly classes: FaultClass[]; readonly replayPath: string };

/** `fuzz --target api`: the target, the campaign (or the run to replay), the flags that chose the target. */
interface ApiOptions {
  readonly kind: "api";
  readonly choice: ApiFuzzTargetChoice;
  readonly campaign: CampaignFlags;
  readonly replayPath: string | undefined;
  /** The flags that chose the target, as given (repeated in replay commands). */
  readonly targetArgs: readonly string[];
}

/** The options `args` give; throws UsageError for bad flags. */
function fuzzOptions(args: readonly string[]): FuzzOptions {
  const { values, positionals } = parseFlags(withKubeAssetsDefault(args), FUZZ_FLAGS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const target = values.get("target");
  if (target === undefined) throw new UsageError("--target is required");
  if (!isOneOf(TARGETS, target)) {
    throw new UsageError(`unknown --target ${String(target)}; known targets: ${TARGETS.join(", ")}`);
  }
  const seed = values.get("seed") ?? randomSeed();
  if (seed !== (seed | 0)) throw new UsageError(`--seed must be a 32-bit integer, got ${seed}`);
  const runs = values.get("runs") ?? DEFAULT_RUNS;
  if (runs < 1) throw new UsageError(`--runs must be at least 1, got ${runs}`);
  const property = values.get("property");
  if (property !== undefined && !storePropertyIds.includes(property)) {
    throw new UsageError(`unknown --property ${property}; one of: ${storePropertyIds.join(", ")}`);
  }
  const replayPath = values.get("replay");
  const faults = values.get("faults");
  const remote = { server: values.get("server"), token: values.get("token"), ca: values.get("certificate-authority") };
  const defects = values.get("defect") ?? [];
  if (defects.includes("help")) return { kind: "list-defects" };
  if (target === "api") return apiOptions(values, seed, runs, replayPath, args);
  const apiOnly = [...flagNames(TARGET_FLAGS).filter((name) => name !== "server" && name !== "token" && name !== "certificate-authority"), "defect" as const];
  const misplaced = apiOnly.find((name) => values.has(name));
  if (misplaced !== undefined) throw new UsageError(`--${misplaced} applies to --target api`);
  if (target !== "http" && (remote.server ?? remote.token ?? remote.ca) !== undefined) throw new UsageError("--server, --token and --certificate-authority apply to --target http and api");
  if (target === "http") {
    if (property !== undefined) throw new UsageError("--property applies to --target store");
    if (faults !== undefined) throw new UsageError("--faults applies to --target leader-election and node-eviction");
    const requests = values.get("runs") ?? DEFAULT_HTTP_REQUESTS;
    if (replayPath !== undefined) {
      const campaignFlag = (["shard", "report-dir"] as const).find((name) => values.has(name));
      if (campaignFlag !== undefined) throw new UsageError(`--${campaignFlag} does not go with --replay, which reruns one finding from the seed and path printed with it`);
    }
    const campaign = campaignFlags(values, seed, requests);
    return { kind: "http", campaign, remote: httpRemote(remote), replayPath };
  }
  if (target !== "store" && property !== undefined) throw new UsageError("--property applies to --target store");
  if (target === "store" && faults !== undefined) throw new UsageError("--faults applies to --target leader-election and node-eviction");
  if (replayPath !== undefined) {
    const campaignFlag = (["runs", "shard", "report-dir"] as const).find((name) => values.has(name));
    if (campaignFlag !== undefined) throw new UsageError(`--${campaignFlag} does not go with --replay, which reruns one failed run from the seed and path printed with it`);
    if (target === "store") {
      if (property === undefined) throw new UsageError("--replay needs --property");
      return { kind: "store-replay", seed, property, replayPath };
    }
    return { kind: "control-plane-replay", target, seed, classes: faultClasses(faults), replayPath };
  }
  const campaign = campaignFlags(values, seed, runs);
  if (target === "store") return { kind: "store", campaign, property };
  return { kind: "control-plane", target, campaign, classes: faultClasses(faults) };
}

/** The options of `fuzz --target api`. */
function apiOptions(flags: FuzzFlags, seed: number, runs: number, replayPath: string | undefined, args: readonly string[]): ApiOptions {
  for (const name of ["property", "faults"] as const) if (flags.has(name)) throw new UsageError(`--${name} does not apply to --target api`);
  const chosen = targetChoice(flags);
  const planted = plantedDefects(flags.get("defect") ?? []);
  if (chosen.kind !== "embedded" && planted.size > 0) throw new UsageError("--defect plants a bug in the embedded server; it does not go with --server, --kubeconfig or --kube-assets");
  const choice = chosen.kind === "embedded" ? { kind: "embedded" as const, defects: planted } : chosen;
  if (replayPath !== undefined) {
    const campaignFlag = (["runs", "shard", "report-dir"] as const).find((name) => flags.has(name));
    if (campaignFlag !== undefined) throw new UsageError(`--${campaignFlag} does not go with --replay, which reruns one failed run from the seed and path printed with it`);
  }
  return { kind: "api", choice, campaign: campaignFlags(flags, seed, runs), replayPath, targetArgs: targetArgsOf(args) };
}

// `fuzz --target api`: a campaign of API operation sequences against any target, the model as oracle.
async function fuzzApi(options: ApiOptions, output: CliOutput): Promise<number> {
  const { choice, campaign, replayPath } = options;
  const { seed, runs } = campaign;
  const made = await fuzzApiCampaign(choice, { seed, runs, shard: campaign.shard, targetArgs: options.targetArgs }, replayPath === undefined ? undefined : { seed, path: replayPath }, output);
  if (made === undefined) return 2;
  const code = await finishCampaign(made.results, campaign.reportDir, output);
  return made.interrupted ? INTERRUPTED_EXIT : code;
}

/** The flags of `args` that choose the target (for replay commands): never a token's value. */
function targetArgsOf(args: readonly string[]): string[] {
  const kept: string[] = [];
  const chooses = new Set(["--server", "--kubeconfig", "--context", "--kube-assets", "--kube-profile", "--certificate-authority", "--defect", "--insecure-skip-tls-verify"]);
  for (let index = 0; index < args.length; index++) {
    const [name = "", inline] = args[index]!.split("=", 2);
    if (!chooses.has(name)) continue;
    if (inline !== undefined || name === "--insecure-skip-tls-verify") kept.push(args[index]!);
    else if (args[index + 1] !== undefined && !args[index + 1]!.startsWith("--")) kept.push(name, args[++index]!);
    else kept.push(name);
  }
  if (args.some((arg) => arg === "--token" || arg.startsWith("--token="))) kept.push("--token $TOKEN");
  return kept;
}

/** The flags every campaign takes: its seed and size, the shard this process makes, where it reports. */
interface CampaignFlags {
  readonly seed: number;
  readonly runs: number;
  readonly shard: Shard | undefined;
  readonly reportDir: string | undefined;
}

function campaignFlags(flags: FuzzFlags, seed: number, runs: number): CampaignFlags {
  const shardText = flags.get("shard");
  let shard: Shard | undefined;
  if (shardText !== undefined) {
    try {
      shard = parseShard(shardText);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    // A random seed per machine would make shards of different campaigns.
    if (!flags.has("seed")) throw new UsageError("--shard needs --seed: every shard of a campaign must be given the same campaign seed");
  }
  return { seed, runs, shard, reportDir: flags.get("report-dir") };
}

// `fuzz --target store`: a campaign, each run every property (or the one asked for) once.
async function fuzzStore(campaign: CampaignFlags, property: string | undefined, output: CliOutput): Promise<number> {
  output.out(`fuzzing store: seed ${campaign.seed}, ${campaign.runs} runs per property${shardScopeText(campaign.runs, campaign.shard)}`);
  const tally = new Map<string, { runs: number; failedRuns: number[] }>();
  const results = await runCampaign(
    { command: "fuzz --target store", target: MODEL_TARGET, ...(property !== undefined && { options: `--property ${property}` }), campaignSeed: campaign.seed, runs: campaign.runs, shard: campaign.shard },
    async (run, seed) => {
      const result = await storeCampaignRun(seed, { ...(property !== undefined && { property }) });
      for (const outcome of result.outcomes) {
        const entry = tally.get(outcome.id) ?? { runs: 0, failedRuns: [] };
        tally.set(outcome.id, entry);
        entry.runs += 1;
        if (outcome.passed) continue;
        entry.failedRuns.push(run);
        formatOutcome(seed, outcome, run).forEach((line) => output.out(line));
      }
      return storeRunVerdict(result);
    },
  );
  for (const [id, entry] of tally) {
    output.out(entry.failedRuns.length === 0 ? `ok    ${id}  (${entry.runs} runs)` : `FAIL  ${id}  (failed in ${entry.failedRuns.length} of ${entry.runs} runs: ${runListText(entry.failedRuns)})`);
  }
  const failedProperties = [...tally.values()].filter((entry) => entry.failedRuns.length > 0).length;
  output.out(`${tally.size - failedProperties} passed, ${failedProperties} failed`);
  return finishCampaign(results, campaign.reportDir, output);
}

// `fuzz --target leader-election|node-eviction`: a campaign, each run one fault schedule, the control-plane invariants.
async function fuzzControlPlane(target: ControlPlaneTarget, campaign: CampaignFlags, classes: FaultClass[], output: CliOutput): Promise<number> {
  output.out(`fuzzing ${target}: seed ${campaign.seed}, ${campaign.runs} runs, faults ${classes.join(",")}${shardScopeText(campaign.runs, campaign.shard)}`);
  const results = await runCampaign(
    { command: `fuzz --target ${target}`, target: MODEL_TARGET, options: `--faults ${classes.join(",")}`, campaignSeed: campaign.seed, runs: campaign.runs, shard: campaign.shard },
    async (run, seed) => {
      const outcome = await controlPlaneCampaignRun({ target, seed, classes });
      if (outcome.failure !== undefined) formatFuzzOutcome(outcome, run).forEach((line) => output.out(line));
      return controlPlaneRunVerdict(outcome);
    },
  );
  const failedRuns = results.records.filter((record) => record.verdict === "failed").map((record) => record.run);
  output.out(
    failedRuns.length === 0
      ? `ok    ${target}  (${results.records.length} runs, faults ${classes.join(",")}): every invariant held`
      : `FAIL  ${target}  (failed in ${failedRuns.length} of ${results.records.length} runs: ${runListText(failedRuns)}; faults ${classes.join(",")})`,
  );
  output.out(`${results.records.length - failedRuns.length} passed, ${failedRuns.length} failed`);
  return finishCampaign(results, campaign.reportDir, output);
}

/** The end of every campaign: its reports (with --report-dir), runs/s, the campaign's trace hash last; 1 when a run failed. */
async function finishCampaign(results: CampaignResults, reportDir: string | undefined, output: CliOutput): Promise<number> {
  if (reportDir !== undefined) output.out(`reports: ${(await writeCampaignReports(reportDir, results, { env: process.env })).join(", ")}`);
  output.out(campaignRateLine(results));
  output.out(`trace-hash: ${campaignTraceHash(results.records)}`);
  return results.records.some((record) => record.verdict === "failed") ? 1 : 0;
}

// `fuzz --target store --replay PATH`: one session, the failed run's seed and path.
async function replayStore(seed: number, property: string, replayPath: string, output: CliOutput): Promise<number> {
  output.out(`fuzzing store: seed ${seed}, replaying ${property} at ${replayPath}`);
  const result = await runStoreFuzz({ seed, runs: 1, property, replayPath, onOutcome: (outcome) => formatOutcome(seed, outcome).forEach((line) => output.out(line)) });
  const failed = result.outcomes.filter((outcome) => !outcome.passed).length;
  output.out(`${result.outcomes.length - failed} passed, ${failed} failed`);
  output.out(`trace-hash: ${result.traceHash}`);
  return failed === 0 ? 0 : 1;
}

// `fuzz --target leader-election|node-eviction --replay PATH`: one session, the failed run's seed and path.
async function replayControlPlane(target: ControlPlaneTarget, seed: number, classes: FaultClass[], replayPath: string, output: CliOutput): Promise<number> {
  output.out(`fuzzing ${target}: seed ${seed}, replaying ${replayPath}, faults ${classes.join(",")}`);
  const outcome = await runControlPlaneFuzz({ target, seed, runs: 1, classes, replayPath });
  formatFuzzOutcome(outcome).forEach((line) => output.out(line));
  output.out(outcome.failure === undefined ? "1 passed, 0 failed" : "0 passed, 1 failed");
  output.out(`trace-hash: ${outcome.traceHash}`);
  return outcome.failure === undefined ? 0 : 1;
}

function faultClasses(faults: string | undefined): FaultClass[] {
  let classes: FaultClass[];
  try {
    classes = faults === undefined ? [...DEFAULT_FAULT_CLASSES] : parseFaultClasses(faults);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (classes.length === 0) throw new UsageError("--faults names no fault class");
  return classes;
}

/** `fuzz --target http`'s server (none: the embedded one), its token, and the contents of its CA file. */
interface HttpRemote {
  readonly server: string | undefined;
  readonly token: string | undefined;
  readonly ca: string | undefined;
}

/** The server flags of `--target http`, checked, the CA file read. */
function httpRemote(remote: { readonly server: string | undefined; readonly token: string | undefined; readonly ca: string | undefined }): HttpRemote {
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
  return { server: remote.server?.replace(/\/+$/, ""), token: remote.token, ca };
}

// `fuzz --target http`: the session (conformance/fuzz-http/) and its report; its blocks of requests are a campaign.
async function fuzzHttp(campaign: CampaignFlags, remote: HttpRemote, replayPath: string | undefined, output: CliOutput): Promise<number> {
  const { server, ca } = remote;
  const target = { ...(server !== undefined && { server }), hasToken: remote.token !== undefined, hasCertificateAuthority: ca !== undefined };
  const { seed, runs: requests, shard } = campaign;
  const scope = shardScopeText(Math.ceil(requests / REQUESTS_PER_RUN), shard).replace(/ runs$/, ` runs of ${REQUESTS_PER_RUN} requests`);
  output.out(`fuzzing http: seed ${seed}, ${replayPath === undefined ? `${requests} requests` : `replaying ${replayPath}`}, ${LANE_COUNT} in flight${scope}`);
  const interrupt = holdInterrupt(output, "interrupted: finishing the block of requests under way, then deleting the namespace and writing the reports (Ctrl-C again to quit at once)");
  let result;
  try {
    result = await runHttpFuzzSession({
      seed,
      requests,
      ...(shard !== undefined && { shard }),
      ...(server !== undefined && { server: { url: server, ...(remote.token !== undefined && { token: remote.token }), ...(ca !== undefined && { ca }) } }),
      ...(replayPath !== undefined && { replayPath }),
      replayCommand: (finding) => replayCommand(finding, target),
      signal: interrupt.signal,
      onStart: ({ url, namespace, dialect, embedded }) => output.out(`${embedded ? "embedded server" : "server"} ${url} (dialect ${dialect.name}), namespace ${namespace}`),
      onProgress: (tally, elapsedMs) => output.out(progressLine(tally, elapsedMs)),
      onFinding: (finding) => findingLines(finding, target).forEach((line) => output.out(line)),
    });
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    output.err(`orb-harness fuzz: ${error.message}`);
    return 2;
  } finally {
    interrupt.release();
  }
  const lines = summaryLines(result);
  // `http fuzz: N requests, M findings` stays last, after the campaign's lines.
  const last = lines.pop()!;
  lines.forEach((line) => output.out(line));
  if (result.campaign !== undefined) await finishCampaign(result.campaign, campaign.reportDir, output);
  output.out(last);
  if (interrupt.signal.aborted) return INTERRUPTED_EXIT;
  return runFailed(result) ? 1 : 0;
}

// The CLI is outside sim/, so it may draw a seed from global randomness; it prints it for replay.
function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}
