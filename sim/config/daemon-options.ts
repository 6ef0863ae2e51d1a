/**
 * A daemon's command line read into typed, defaulted options (doc 2): every option of the daemon
 * has a value (given, or its default for the daemon and dialect), and the set of options given
 * explicitly is kept, since several rules of doc 2 are about what the user set.
 */
import type { DialectName } from "../../spec/dialects.ts";
import { defaultText, optionsOf, type Daemon, type DaemonOption } from "../../spec/doc2/daemon-options.ts";
import { closestName } from "./did-you-mean.ts";
import { finding, type Finding } from "./finding.ts";
import { readGoFlags, type FlagArity, type FlagProblem, type FlagTable } from "./go-flags.ts";
import { defaultOptionValue, OptionValueError, parseOptionValue, printOptionValue, type OptionValue } from "./option-values.ts";

/** The options of one daemon, typed and defaulted. */
export class DaemonOptions {
  readonly daemon: Daemon;
  readonly dialect: DialectName;
  readonly #values: ReadonlyMap<string, OptionValue>;
  readonly #explicit: ReadonlySet<string>;

  /** Builds the options from complete values (one per option of the daemon) and the names given. */
  constructor(daemon: Daemon, dialect: DialectName, values: ReadonlyMap<string, OptionValue>, explicit: ReadonlySet<string>) {
    this.daemon = daemon;
    this.dialect = dialect;
    this.#values = values;
    this.#explicit = explicit;
  }

  /** Whether the option was given on the command line. */
  isExplicit(name: string): boolean {
    return this.#explicit.has(name);
  }

  /** The names given on the command line. */
  explicitNames(): readonly string[] {
    return [...this.#explicit];
  }

  /** The typed value of an option of this daemon; throws for a name the daemon does not have. */
  value(name: string): OptionValue {
    const value = this.#values.get(name);
    if (value === undefined) throw new RangeError(`the ${this.daemon} has no option --${name}`);
    return value;
  }

  /** A bool option's value. */
  bool(name: string): boolean {
    return this.#typed(name, "bool") as boolean;
  }

  /** A string or IP option's value. */
  string(name: string): string {
    const option = this.value(name);
    if (option.type !== "string" && option.type !== "ip") throw new TypeError(`--${name} is a ${option.type}, not a string`);
    return option.value;
  }

  /** A string list option's value. */
  strings(name: string): readonly string[] {
    return this.#typed(name, "strings") as readonly string[];
  }

  /** An int, int32, level or float option's value. */
  number(name: string): number {
    const option = this.value(name);
    if (typeof option.value !== "number") throw new TypeError(`--${name} is a ${option.type}, not a number`);
    return option.value;
  }

  /** A duration option's value, in nanoseconds. */
  duration(name: string): bigint {
    return this.#typed(name, "duration") as bigint;
  }

  /** Every option with its value as Go prints it (durations `1m0s`), sorted by name. */
  printed(): Record<string, unknown> {
    const names = [...this.#values.keys()].sort();
    return Object.fromEntries(names.map((name) => [name, printOptionValue(this.#values.get(name)!)]));
  }

  #typed(name: string, type: OptionValue["type"]): unknown {
    const option = this.value(name);
    if (option.type !== type) throw new TypeError(`--${name} is a ${option.type}, not a ${type}`);
    return option.value;
  }
}

/** The options read from a command line, with the problems found while reading it. */
export interface ParsedDaemonArgs {
  readonly options: DaemonOptions;
  readonly findings: readonly Finding[];
}

/** Reads `args` as the `daemon`'s command line; every problem becomes a finding, none stops the reading. */
export function parseDaemonArgs(daemon: Daemon, args: readonly string[], dialect: DialectName = "orb"): ParsedDaemonArgs {
  const known = optionsOf(daemon);
  const read = readGoFlags(args, flagTable(known));
  const findings: Finding[] = read.problems.map((problem) => problemFinding(problem, daemon, known));
  for (const positional of read.positionals) {
    findings.push(finding("error", "doc2/1/no-arguments", "(arguments)", positional, `the ${daemon} takes no arguments, got ${JSON.stringify(positional)}`));
  }
  const given = new Map<string, OptionValue>();
  for (const occurrence of read.occurrences) {
    const entry = known.get(occurrence.name)!;
    try {
      given.set(entry.name, parseOptionValue(entry.type, occurrence.value, given.get(entry.name)));
    } catch (error) {
      if (!(error instanceof OptionValueError)) throw error;
      const ruleId = entry.syntaxRule ?? "doc2/2/option-value";
      findings.push(finding("error", ruleId, `--${entry.name}`, occurrence.value, `invalid argument ${JSON.stringify(occurrence.value)} for ${occurrence.written.split(/[ =]/)[0]}: ${error.message}`));
    }
  }
  const values = new Map<string, OptionValue>();
  for (const [name, entry] of known) values.set(name, given.get(name) ?? defaultOptionValue(entry.type, defaultText(entry, daemon, dialect)));
  applyLockObjectFallback(daemon, values, given);
  return { options: new DaemonOptions(daemon, dialect, values, new Set(given.keys())), findings };
}

function flagTable(known: ReadonlyMap<string, DaemonOption>): FlagTable {
  const long = new Map<string, FlagArity>();
  const short = new Map<string, string>();
  for (const [name, entry] of known) {
    long.set(name, entry.type === "bool" || entry.type === "version" ? "optional-value" : "value");
    if (entry.shorthand !== undefined) short.set(entry.shorthand, name);
  }
  return { long, short };
}

function problemFinding(problem: FlagProblem, daemon: Daemon, known: ReadonlyMap<string, DaemonOption>): Finding {
  if (problem.kind === "needs-value") {
    return finding("error", "doc2/2/option-needs-value", `--${problem.name}`, undefined, `flag needs an argument: ${problem.written}`);
  }
  if (problem.kind === "bad-syntax") {
    return finding("error", "doc2/2/unknown-option", problem.written, undefined, `bad flag syntax: ${problem.written}`);
  }
  const name = problem.name.replace(/^-+/, "");
  const other = daemon === "scheduler" ? "controller-manager" : "scheduler";
  const otherOptions = optionsOf(other);
  let hint = "";
  if (otherOptions.has(name)) hint = ` (a ${other} option, not a ${daemon} one)`;
  else {
    const close = closestName(name, known.keys());
    if (close !== undefined) hint = ` (did you mean --${close}?)`;
  }
  const shown = problem.written.startsWith("--") ? `--${name}` : problem.written;
  return finding("error", "doc2/2/unknown-option", shown, problem.value, `unknown flag ${shown}${hint}`);
}

// Doc 2 §2.3: --lock-object-name/-namespace are deprecated "in favor of" the leader-elect-resource
// options. Kubernetes applied them when the new option was not given (derivation doc2/2.3/lock-object-fallback).
function applyLockObjectFallback(daemon: Daemon, values: Map<string, OptionValue>, given: ReadonlyMap<string, OptionValue>): void {
  if (daemon !== "scheduler" || given.has("config")) return;
  const pairs = [
    ["lock-object-name", "leader-elect-resource-name"],
    ["lock-object-namespace", "leader-elect-resource-namespace"],
  ] as const;
  for (const [deprecated, current] of pairs) {
    const value = given.get(deprecated);
    if (value !== undefined && !given.has(current)) values.set(current, value);
  }
}
