/** `orb-harness validate`: check daemon flags (doc 2) or a node agent / credential provider file (doc 3). Wiring only. */
import { readFile } from "node:fs/promises";
import type { DialectName } from "../../spec/dialects.ts";
import type { Daemon } from "../../spec/doc2/daemon-options.ts";
import { printConfigJson, printConfigYaml } from "../../sim/config/config-file.ts";
import { formatFinding, type Finding } from "../../sim/config/finding.ts";
import { validateCredentialProviderConfigText } from "../../sim/config/validate-credential-provider-config.ts";
import { validateDaemonOptions } from "../../sim/config/validate-daemon-options.ts";
import { validateNodeAgentConfigText } from "../../sim/config/validate-node-agent-config.ts";
import { UsageError, type CliCommand, type CliOutput } from "../cli-command.ts";
import { isOneOf, parseFlags } from "../parse-flags.ts";

const DAEMONS: readonly Daemon[] = ["controller-manager", "scheduler"];
const FILES = ["node-agent", "credential-provider"] as const;
const OUTPUTS = ["findings", "defaulted", "yaml", "json"] as const;
type Output = (typeof OUTPUTS)[number];

/** The validate command. */
export const validateCommand: CliCommand = {
  name: "validate",
  summary: "validate controller manager / scheduler flags (doc 2) or a node agent / credential provider file (doc 3)",
  usage: [
    "usage: orb-harness validate controller-manager [options] -- <flags…>",
    "       orb-harness validate scheduler [options] -- <flags…>",
    "       orb-harness validate node-agent [options] FILE",
    "       orb-harness validate credential-provider [options] FILE",
    "",
    "  -o, --output   findings (default): one line per broken rule",
    "                 defaulted, yaml: the fully defaulted configuration as YAML (findings to stderr)",
    "                 json: the fully defaulted configuration as JSON (findings to stderr)",
    "  --dialect      orb (default) or kubernetes: the defaults of the daemons' dialect-named options",
    "                 (a file's dialect comes from its apiVersion)",
    "",
    "Every finding names the option or field, its value, the rule id and what is wrong; all are",
    "reported at once. Exit 0 when valid (warnings allowed), 1 when any rule is broken, 2 for usage errors.",
  ].join("\n"),
  async run(args, output) {
    const dashes = args.indexOf("--");
    const own = dashes === -1 ? args : args.slice(0, dashes);
    const daemonArgs = dashes === -1 ? undefined : args.slice(dashes + 1);
    const { values, positionals } = parseFlags(expandShortOutput(own), { output: "string", dialect: "string" });
    const format = parseOutput(values.get("output"));
    const dialect = parseDialect(values.get("dialect"));
    const [target, ...rest] = positionals;
    if (target === undefined) throw new UsageError("name what to validate: controller-manager, scheduler, node-agent or credential-provider");
    if (isOneOf(DAEMONS, target)) {
      if (rest.length > 0) throw new UsageError(`put the ${target}'s flags after --, e.g. orb-harness validate ${target} -- ${rest.join(" ")}`);
      const validation = validateDaemonOptions(target, daemonArgs ?? [], dialect);
      return report(output, format, validation.findings, validation.valid, { daemon: target, dialect, options: validation.options.printed() });
    }
    if (!isOneOf(FILES, target)) {
      throw new UsageError(`unknown target ${JSON.stringify(target)}; one of ${[...DAEMONS, ...FILES].join(", ")}`);
    }
    if (daemonArgs !== undefined) throw new UsageError(`${target} takes a FILE, not flags after --`);
    if (rest.length !== 1) throw new UsageError(`validate ${target} takes exactly one FILE`);
    const text = await readConfigFile(rest[0]!);
    if (target === "node-agent") {
      const validation = validateNodeAgentConfigText(text);
      return report(output, format, validation.findings, validation.valid, validation.config);
    }
    const validation = validateCredentialProviderConfigText(text);
    return report(output, format, validation.findings, validation.valid, validation.config);
  },
};

// `-o json` / `-o=json` are the short form of `--output`; parse-flags knows only long flags.
function expandShortOutput(args: readonly string[]): string[] {
  return args.flatMap((arg) => (arg === "-o" ? ["--output"] : arg.startsWith("-o=") ? [`--output=${arg.slice(3)}`] : [arg]));
}

function parseOutput(value: string | undefined): Output {
  if (value === undefined) return "findings";
  if (!isOneOf(OUTPUTS, value)) throw new UsageError(`--output takes ${OUTPUTS.join(", ")}, got ${JSON.stringify(value)}`);
  return value;
}

function parseDialect(value: string | undefined): DialectName {
  if (value === undefined) return "orb";
  if (value !== "orb" && value !== "kubernetes") throw new UsageError(`--dialect takes orb or kubernetes, got ${JSON.stringify(value)}`);
  return value;
}

async function readConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function report(output: CliOutput, format: Output, findings: readonly Finding[], valid: boolean, config: unknown): number {
  if (format === "findings") {
    findings.forEach((entry) => output.out(formatFinding(entry)));
    output.out(summary(findings, valid));
  } else {
    findings.forEach((entry) => output.err(formatFinding(entry)));
    if (config !== undefined) output.out(format === "json" ? printConfigJson(config) : printConfigYaml(config));
    output.err(summary(findings, valid));
  }
  return valid ? 0 : 1;
}

function summary(findings: readonly Finding[], valid: boolean): string {
  const errors = findings.filter((entry) => entry.severity === "error").length;
  const warnings = findings.length - errors;
  return `${valid ? "valid" : "invalid"}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
}
