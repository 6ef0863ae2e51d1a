/** `orb-harness conformance`: run the suite against the embedded server or a real endpoint (wiring only). */
import { dialectByName } from "../../spec/dialects.ts";
import { allCases } from "../../conformance/cases/index.ts";
import { ConformanceRun, selectCases } from "../../conformance/runner.ts";
import { RESULTS_SCHEMA_VERSION, totals, type RunResults } from "../../conformance/results.ts";
import { startEmbeddedTarget } from "../../conformance/targets/embedded-target.ts";
import { UsageError, type CliCommand } from "../cli-command.ts";
import { parseFlags } from "../parse-flags.ts";

const DEFAULT_TIMEOUT_S = 60;

/** The conformance command. */
export const conformanceCommand: CliCommand = {
  name: "conformance",
  summary: "run the conformance suite of doc 1 against the embedded server or a real endpoint",
  usage: [
    "usage: orb-harness conformance [--dialect orb|kubernetes] [--focus REGEX] [--skip REGEX] [--list]",
    "                               [--parallel N] [--timeout SECONDS] [--read-only] [--slow] [--keep-namespaces]",
    "",
    "With no target, starts the embedded server on a loopback port and runs every case against it.",
    "Exit 0 when every case that ran passed, 1 when one failed, 2 for usage or connection errors.",
  ].join("\n"),
  async run(args, output) {
    const { values, positionals } = parseFlags(args, {
      dialect: "string",
      focus: "string",
      skip: "string",
      list: "boolean",
      parallel: "integer",
      timeout: "integer",
      "read-only": "boolean",
      slow: "boolean",
      "keep-namespaces": "boolean",
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const focus = regex(values.get("focus"), "focus");
    const skip = regex(values.get("skip"), "skip");
    const cases = selectCases(allCases, { ...(focus && { focus }), ...(skip && { skip }) });
    if (values.get("list") === true) {
      for (const testCase of cases) output.out(`${testCase.id}  [${testCase.tags.join(",")}]  ${testCase.clauses.join(" ")}`);
      return 0;
    }
    let dialect;
    try {
      dialect = dialectByName((values.get("dialect") as string | undefined) ?? "orb");
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const target = await startEmbeddedTarget(dialect);
    const startedAt = new Date().toISOString();
    const run = new ConformanceRun(target, {
      ...(focus && { focus }),
      ...(skip && { skip }),
      readOnly: values.get("read-only") === true,
      slow: values.get("slow") === true,
      parallel: (values.get("parallel") as number | undefined) ?? 4,
      caseTimeoutMs: ((values.get("timeout") as number | undefined) ?? DEFAULT_TIMEOUT_S) * 1000,
      keepNamespaces: values.get("keep-namespaces") === true,
      onCaseEnd: (result) => output.out(`${result.status.toUpperCase().padEnd(5)} ${result.id}${result.message ? ` — ${result.message}` : ""}`),
    });
    try {
      const caseResults = await run.run(cases);
      const results: RunResults = {
        schemaVersion: RESULTS_SCHEMA_VERSION,
        harnessVersion: "0.1.0",
        target: { url: target.url, kind: target.kind, dialect: dialect.name, serverVersion: target.serverVersion },
        startedAt,
        finishedAt: new Date().toISOString(),
        command: `orb-harness conformance --dialect ${dialect.name}`,
        cases: caseResults,
      };
      const counts = totals(results);
      output.out(`${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped, ${counts.error} errors`);
      return counts.fail + counts.error === 0 ? 0 : 1;
    } finally {
      await target.close();
    }
  },
};

function regex(value: unknown, name: string): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(String(value));
  } catch (error) {
    throw new UsageError(`--${name}: ${(error as Error).message}`);
  }
}
