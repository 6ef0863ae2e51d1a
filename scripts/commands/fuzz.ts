/** `orb-harness fuzz`: property-based fuzzing of the in-memory model (wiring only). */
import { formatOutcome, runStoreFuzz, storePropertyIds } from "../../sim/fuzz/store/run-store-fuzz.ts";
import { DEFAULT_FAULT_CLASSES, parseFaultClasses, type FaultClass } from "../../sim/fuzz/control-plane/fault-arbitraries.ts";
import { formatFuzzOutcome, runControlPlaneFuzz } from "../../sim/fuzz/control-plane/run-control-plane-fuzz.ts";
import { UsageError, type CliCommand } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";

const TARGETS = ["store", "leader-election", "node-eviction"] as const;
const DEFAULT_RUNS = 200;

/** The fuzz command. */
export const fuzzCommand: CliCommand = {
  name: "fuzz",
  summary: "fuzz the in-memory model with fast-check; print failures with a replay command",
  usage: [
    "usage: orb-harness fuzz --target store [--seed S] [--runs N] [--property ID] [--replay PATH]",
    "       orb-harness fuzz --target leader-election|node-eviction [--faults pauses|drift|partitions|crashes|all] [--seed S] [--runs N] [--replay PATH]",
    "",
    "  --target     what to fuzz: " + TARGETS.join(", "),
    `  --faults     control-plane targets: fault classes to generate, comma-separated (default ${DEFAULT_FAULT_CLASSES.join(",")})`,
    "  --seed       32-bit integer seed (default: a random one, printed)",
    `  --runs       runs per property (default ${DEFAULT_RUNS})`,
    "  --property   only this property: " + storePropertyIds.join(", "),
    "  --replay     replay one failure: the path printed with it (use the same --seed and --property)",
    "",
    "Prints one line per property, then `trace-hash: <hex>` (same seed and runs, same hash).",
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

// The CLI is outside sim/, so it may draw a seed from global randomness; it prints it for replay.
function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}
