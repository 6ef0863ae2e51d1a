/** `orb-harness fuzz`: property-based fuzzing of the in-memory model (wiring only). */
import { formatOutcome, runStoreFuzz, storePropertyIds } from "../../sim/fuzz/store/run-store-fuzz.ts";
import { UsageError, type CliCommand } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";

const TARGETS = ["store"] as const;
const DEFAULT_RUNS = 200;

/** The fuzz command. */
export const fuzzCommand: CliCommand = {
  name: "fuzz",
  summary: "fuzz the in-memory model with fast-check; print failures with a replay command",
  usage: [
    "usage: orb-harness fuzz --target store [--seed S] [--runs N] [--property ID] [--replay PATH]",
    "",
    "  --target     what to fuzz: " + TARGETS.join(", "),
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

// The CLI is outside sim/, so it may draw a seed from global randomness; it prints it for replay.
function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}
