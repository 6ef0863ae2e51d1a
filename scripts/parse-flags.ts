/**
 * Parses the harness's own command-line flags, GNU style: `--name value`, `--name=value`, bare
 * `--flag` for booleans, `--` ending the flags. Anything not declared is a UsageError, so a typo
 * never silently changes what runs. The values come back typed from the spec: a command declaring
 * `{ server: "string", watchers: "integer" }` reads `values.get("server")` as `string | undefined`
 * and `values.get("watchers")` as `number | undefined`, and cannot read a flag it did not declare.
 *
 * Node's util.parseArgs splits the arguments (which word is a flag, which its value, what follows
 * `--`); it does not check them here, because its strict mode differs from this CLI's rules: its
 * messages differ (no "did you mean"), it has no integer type, it refuses `--flag=false` for a
 * boolean, and it refuses a value starting with `-` (`--seed -5`). So it runs non-strict, and every
 * check below is this CLI's own, with its own messages.
 */
import { parseArgs } from "node:util";
import { closestName } from "../sim/config/did-you-mean.ts";
import { UsageError } from "./cli-command.ts";

/** What a flag takes: a string, an integer, a boolean, or a string each time it is given ("repeated", collecting every value). */
export type FlagKind = "string" | "integer" | "boolean" | "repeated";

/**
 * The declared flags of a command: name (without dashes) → kind. Write it inline in the call, or
 * `as const satisfies FlagSpec`, so that each kind stays a literal and the values are typed.
 */
export type FlagSpec = Readonly<Record<string, FlagKind>>;

/** The value a flag of each kind parses to. */
interface FlagTypes {
  string: string;
  integer: number;
  boolean: boolean;
  repeated: readonly string[];
}

/** The declared names of a spec. */
export type FlagName<S extends FlagSpec> = keyof S & string;

/** The flags given, each read with the type its kind gives it; a flag not given reads undefined. */
export interface FlagValues<S extends FlagSpec> {
  get<N extends FlagName<S>>(name: N): FlagTypes[S[N]] | undefined;
  /** Whether the flag was given (`--flag=false` too). */
  has(name: FlagName<S>): boolean;
}

/** Parsed flags and the remaining positional arguments. */
export interface ParsedFlags<S extends FlagSpec = FlagSpec> {
  readonly values: FlagValues<S>;
  readonly positionals: readonly string[];
}

/** Parses `args` against `spec`. */
export function parseFlags<const S extends FlagSpec>(args: readonly string[], spec: S): ParsedFlags<S> {
  const values = new Map<string, FlagTypes[FlagKind]>();
  const repeated = new Map<string, string[]>();
  const positionals: string[] = [];
  const { tokens } = parseArgs({
    args: [...args],
    // Only which flags take a value matters to the split: integers are read as strings, then checked.
    options: Object.fromEntries(Object.entries(spec).map(([name, kind]) => [name, { type: kind === "boolean" ? "boolean" : "string" }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue; // the words after it come as positionals
    if (token.kind === "positional") {
      positionals.push(token.value);
      continue;
    }
    // The word as given: parseArgs splits `-abc` into three short options, and `--=x` oddly.
    const arg = args[token.index]!;
    if (!arg.startsWith("--")) throw new UsageError(`unknown flag ${arg}`);
    const name = arg.slice(2).split("=", 1)[0]!;
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown flag --${name}${suggestion(name, spec)}`);
    if (kind === "boolean") {
      values.set(name, parseBoolean(name, token.value ?? "true"));
      continue;
    }
    const text = token.value;
    if (text === undefined) throw new UsageError(`flag --${name} needs a value`);
    if (kind === "repeated") {
      const all = [...(repeated.get(name) ?? []), text];
      repeated.set(name, all);
      values.set(name, all);
    } else {
      values.set(name, kind === "integer" ? parseInteger(name, text) : text);
    }
  }
  return { values: new TypedValues<S>(values), positionals };
}

/** The names of a spec (or of any table keyed by flag names), typed as its names, in its order. */
export function flagNames<S extends Readonly<Record<string, unknown>>>(spec: S): Array<keyof S & string> {
  return Object.keys(spec) as Array<keyof S & string>;
}

/** A spec of flags all of one kind, in the order of `names`. */
export function flagsOfKind<const N extends string, const K extends FlagKind>(names: readonly N[], kind: K): { readonly [P in N]: K } {
  return Object.fromEntries(names.map((name) => [name, kind])) as { readonly [P in N]: K };
}

/** Whether `value` (a flag's value, say) is one of `choices`; narrows it to their type. */
export function isOneOf<const T extends string>(choices: readonly T[], value: string): value is T {
  return choices.some((choice) => choice === value);
}

/** The parsed values, read through the spec's types: parseFlags set each from its declared kind. */
class TypedValues<S extends FlagSpec> implements FlagValues<S> {
  constructor(private readonly values: ReadonlyMap<string, FlagTypes[FlagKind]>) {}

  get<N extends FlagName<S>>(name: N): FlagTypes[S[N]] | undefined {
    // The one assertion of the CLI's flags: the value stored under `name` was parsed by its kind S[N].
    return this.values.get(name) as FlagTypes[S[N]] | undefined;
  }

  has(name: FlagName<S>): boolean {
    return this.values.has(name);
  }
}

function parseBoolean(name: string, text: string): boolean {
  if (text === "true") return true;
  if (text === "false") return false;
  throw new UsageError(`flag --${name} takes true or false, got ${JSON.stringify(text)}`);
}

function parseInteger(name: string, text: string): number {
  const value = Number(text);
  if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new UsageError(`flag --${name} takes an integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

function suggestion(name: string, spec: FlagSpec): string {
  const close = closestName(name, Object.keys(spec));
  return close === undefined ? "" : ` (did you mean --${close}?)`;
}
