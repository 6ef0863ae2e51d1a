/** `orb-harness selfcheck`: the mutation score of the harness's own tools against its planted defects (issue 21). Wiring only. */
import { join } from "node:path";
import { defectByName, defects, type Defect } from "../../sim/apiserver/defects/defects.ts";
import {
  DEFAULT_SELFCHECK_DIR,
  defectLine,
  FUZZ_RUNS,
  FUZZ_SEED,
  runSelfcheck,
  scoreLine,
  SELFCHECK_DIALECT,
  SELFCHECK_FILE,
  SOAK_DURATION_MS,
  SOAK_SEED,
  publishedSummary,
  writeSelfcheck,
  type SelfcheckRunners,
} from "../../conformance/selfcheck/selfcheck.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { listDefects, plantedDefects } from "../defect-flags.ts";
import { parseFlags } from "../parse-flags.ts";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { PUBLISHED_SELFCHECK_FILE } from "../../reports/suite-teeth.ts";

const FLAGS = { defect: "repeated", "skip-fuzz": "boolean", "skip-soak": "boolean", out: "string", publish: "boolean" } as const;

/** The selfcheck command; `runners` replaces the real tools (tests). */
export function makeSelfcheckCommand(runners?: SelfcheckRunners): CliCommand {
  return {
    name: "selfcheck",
    summary: "the suite's own teeth: plant each known defect in the embedded server, run the suite and the fuzzer against it, print the mutation score",
    usage: [
      "usage: orb-harness selfcheck [--defect NAME]... [--skip-fuzz] [--skip-soak] [--out FILE] [--publish]",
      "",
      "For each planted defect of the embedded server (sim/apiserver/defects/defects.ts; --defect help lists them),",
      `one at a time: the whole conformance suite against the embedded server with that defect (${SELFCHECK_DIALECT} dialect,`,
      `virtual time); then \`fuzz --target api\` (${FUZZ_RUNS} runs at most, seed ${FUZZ_SEED}, stopping at the first failure);`,
      `then, for a concurrency defect (only overlapping requests show it), a ${SOAK_DURATION_MS / 1000} s soak (seed ${SOAK_SEED}, real time).`,
      "With the three defects that make writes wait for storage ticks, the suite's virtual-time cases are left out",
      "(their clock moves only when they wait, so a write would stall until the case timed out).",
      "",
      "A defect is caught by the suite when a failing case names a clause the defect breaks (or a parent or child",
      "of one); by the fuzzer when a run fails; by a soak when the history invariant the defect names is violated.",
      "",
      "  --defect NAME   only this defect (repeatable; default: every defect of the catalog)",
      "  --skip-fuzz     do not run the fuzzer (the score then counts the suite and soaks only)",
      "  --skip-soak     do not soak the concurrency defects (they count as not measured unless something else catches them)",
      `  --out FILE      where to write the results (default ${join(DEFAULT_SELFCHECK_DIR, SELFCHECK_FILE)})`,
      "  --publish       also write the score to reports/selfcheck-published.json, which every conformance",
      "                  report shows (only after a run on every defect, with the fuzzer and the soak)",
      "",
      "Prints one line per defect (what caught it: case ids, fuzz run, soak; the clauses), progress on stderr, and",
      "`caught X of Y planted (suite A, fuzz B, soak C)`. Writes the score, each defect's findings, the harness",
      "version, the date and the duration to FILE. Exit 0 when every defect is caught, 1 otherwise, 2 for usage errors.",
    ].join("\n"),
    async run(args, output) {
      const { values, positionals } = parseFlags(args, FLAGS);
      if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
      const names = values.get("defect") ?? [];
      if (names.includes("help")) {
        listDefects(output);
        return 0;
      }
      const chosen: readonly Defect[] = names.length === 0 ? defects : [...plantedDefects(names)].map(defectByName);
      const out = values.get("out") ?? join(DEFAULT_SELFCHECK_DIR, SELFCHECK_FILE);
      if (out === "") throw new UsageError("--out needs a file name");
      const publish = values.get("publish") === true;
      if (publish && (names.length > 0 || values.get("skip-fuzz") === true || values.get("skip-soak") === true)) {
        throw new UsageError("--publish needs a run on every defect with every tool: no --defect, --skip-fuzz or --skip-soak");
      }
      return selfcheck(chosen, { fuzz: values.get("skip-fuzz") !== true, soak: values.get("skip-soak") !== true, out, publish, args }, output, runners);
    },
  };
}

/** The selfcheck command with the real tools. */
export const selfcheckCommand: CliCommand = makeSelfcheckCommand();

async function selfcheck(chosen: readonly Defect[], flags: { fuzz: boolean; soak: boolean; out: string; publish: boolean; args: readonly string[] }, output: CliOutput, runners: SelfcheckRunners | undefined): Promise<number> {
  const width = Math.max(...chosen.map((defect) => defect.name.length));
  const results = await runSelfcheck({
    defects: chosen,
    fuzz: flags.fuzz,
    soak: flags.soak,
    command: ["orb-harness selfcheck", ...flags.args].join(" "),
    ...(runners !== undefined && { runners }),
    onProgress: (line) => output.err(line),
    onDefect: (outcome) => output.out(defectLine(outcome, width)),
  });
  await writeSelfcheck(flags.out, results);
  if (flags.publish) {
    await writeFile(PUBLISHED_SELFCHECK_FILE, `${JSON.stringify(publishedSummary(results), null, 1)}\n`);
    output.out(`published the score in ${fileURLToPath(PUBLISHED_SELFCHECK_FILE)}`);
  }
  output.out(`${scoreLine(results.score)} in ${(results.durationMs / 1000).toFixed(1)} s (orb-harness ${results.harnessVersion}); wrote ${flags.out}`);
  return results.score.caught === results.score.planted ? 0 : 1;
}
