/**
 * Parses the harness's own command-line flags, GNU style: `--name value`, `--name=value`, bare
 * `--flag` for booleans, `--` ending the flags. Anything not declared is a UsageError, so a typo
 * never silently changes what runs.
 */
import { closestName } from "../sim/config/did-you-mean.ts";
import { UsageError } from "./cli-command.ts";

/** The declared flags of a command: name (without dashes) → kind; "repeated" collects every value. */
export type FlagSpec = Readonly<Record<string, "string" | "integer" | "boolean" | "repeated">>;

/** Parsed flags and the remaining positional arguments. */
export interface ParsedFlags {
  readonly values: ReadonlyMap<string, string | number | boolean | readonly string[]>;
  readonly positionals: readonly string[];
}

/** Parses `args` against `spec`. */
export function parseFlags(args: readonly string[], spec: FlagSpec): ParsedFlags {
  const values = new Map<string, string | number | boolean | readonly string[]>();
  const positionals: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "--") {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown flag ${arg}`);
      positionals.push(arg);
      continue;
    }
    const [name, inline] = splitOnce(arg.slice(2));
    const kind = spec[name];
    if (kind === undefined) throw new UsageError(`unknown flag --${name}${suggestion(name, spec)}`);
    if (kind === "boolean") {
      values.set(name, parseBoolean(name, inline ?? "true"));
      continue;
    }
    const text = inline ?? args[++index];
    if (text === undefined) throw new UsageError(`flag --${name} needs a value`);
    if (kind === "repeated") values.set(name, [...((values.get(name) as string[] | undefined) ?? []), text]);
    else values.set(name, kind === "integer" ? parseInteger(name, text) : text);
  }
  return { values, positionals };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf("=");
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
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
