/**
 * The one-line command that runs a soak's workload again: `npx tsx scripts/cli.ts soak --seed S`
 * followed by the run's own flags (target, sizes, duration, defects), without where reports go,
 * and with every credential flag's value replaced by REDACTED (give it again to replay), as the
 * conformance command records its own.
 */
import { isSensitiveName } from "./redaction.ts";
import { shellQuote } from "./rerun-command.ts";

/** How a replay starts. */
export const SOAK_REPLAY_PREFIX = "npx tsx scripts/cli.ts soak";

// Flags that do not change the workload: they are dropped with their value.
const DROPPED_FLAGS = new Set(["seed", "report-dir", "check"]);
// Flags that take no value.
const BOOLEAN_FLAGS = new Set(["insecure-skip-tls-verify"]);

/** The replay command of a run given `args` (the soak command's own arguments) and its seed. */
export function soakReplayCommand(args: readonly string[], seed: number): string {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith("--")) {
      kept.push(shellQuote(arg));
      continue;
    }
    const name = arg.slice(2).split("=")[0]!;
    const takesValue = !arg.includes("=") && !BOOLEAN_FLAGS.has(name);
    if (DROPPED_FLAGS.has(name)) {
      if (takesValue) index++;
      continue;
    }
    if (isSensitiveName(name)) {
      if (takesValue) index++;
      kept.push(`--${name}=REDACTED`);
      continue;
    }
    kept.push(shellQuote(arg));
  }
  return [SOAK_REPLAY_PREFIX, "--seed", String(seed), ...kept].join(" ");
}
