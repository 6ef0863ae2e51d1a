/**
 * Validation of a daemon's command line (doc 2): read it, default it, check every rule, and
 * report every finding at once.
 */
import type { DialectName } from "../../spec/dialects.ts";
import type { Daemon } from "../../spec/doc2/daemon-options.ts";
import { checkDaemonOptions } from "./daemon-option-checks.ts";
import { parseDaemonArgs, type DaemonOptions } from "./daemon-options.ts";
import { hasErrors, sortFindings, type Finding } from "./finding.ts";

/** The result of validating a daemon's command line. */
export interface DaemonValidation {
  readonly daemon: Daemon;
  /** Every option, typed and defaulted (options whose value did not parse keep their default). */
  readonly options: DaemonOptions;
  /** Errors first, then warnings. */
  readonly findings: readonly Finding[];
  /** No finding is an error. */
  readonly valid: boolean;
}

/** Validates `args` (the daemon's flags, without the program name) for `daemon`. */
export function validateDaemonOptions(daemon: Daemon, args: readonly string[], dialect: DialectName = "orb"): DaemonValidation {
  const parsed = parseDaemonArgs(daemon, args, dialect);
  const findings = sortFindings([...parsed.findings, ...checkDaemonOptions(parsed.options)]);
  return { daemon, options: parsed.options, findings, valid: !hasErrors(findings) };
}
