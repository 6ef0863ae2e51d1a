/**
 * Go-style command lines as the daemons' flag library (spf13/pflag) reads them: `--flag=value`,
 * `--flag value`, bare `--flag` for booleans (and for flags with an optional value such as
 * `--version`), shorthands (`-v 2`, `-v=2`, `-v2`, `-h`), `--` ending the flags, and repeated
 * flags (each occurrence is kept; the option's type decides whether the last wins or they add up).
 * Unlike pflag, which stops at the first problem, every problem is collected.
 */

/** How a flag takes its value. */
export type FlagArity = "value" | "optional-value";

/** The flags a command line is read against. */
export interface FlagTable {
  /** Long name (no dashes) → arity. Booleans and `--version` are "optional-value". */
  readonly long: ReadonlyMap<string, FlagArity>;
  /** Shorthand letter → long name. */
  readonly short: ReadonlyMap<string, string>;
}

/** One flag given on the command line. */
export interface FlagOccurrence {
  readonly name: string;
  readonly value: string;
  /** How the user wrote it, for messages: `--leader-elect-renew-deadline=20s`, `-v 2`. */
  readonly written: string;
}

/** Something on the command line that is not a known flag with its value. */
export type FlagProblem =
  | { readonly kind: "unknown"; readonly name: string; readonly written: string; readonly value?: string }
  | { readonly kind: "needs-value"; readonly name: string; readonly written: string }
  | { readonly kind: "bad-syntax"; readonly written: string };

/** The command line, read. */
export interface ReadFlags {
  readonly occurrences: readonly FlagOccurrence[];
  readonly positionals: readonly string[];
  readonly problems: readonly FlagProblem[];
}

/** Reads `args` against `table`, collecting every occurrence, positional argument and problem. */
export function readGoFlags(args: readonly string[], table: FlagTable): ReadFlags {
  const state = { occurrences: [] as FlagOccurrence[], positionals: [] as string[], problems: [] as FlagProblem[] };
  let index = 0;
  const next = (): string | undefined => (index < args.length ? args[index++] : undefined);
  for (let arg = next(); arg !== undefined; arg = next()) {
    if (arg === "--") {
      state.positionals.push(...args.slice(index));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") state.positionals.push(arg);
    else if (arg.startsWith("--")) readLong(arg, table, next, () => args[index], state);
    else readShorts(arg, table, next, state);
  }
  return state;
}

type State = { occurrences: FlagOccurrence[]; positionals: string[]; problems: FlagProblem[] };

function readLong(arg: string, table: FlagTable, next: () => string | undefined, peek: () => string | undefined, state: State): void {
  const body = arg.slice(2);
  const equals = body.indexOf("=");
  const name = equals === -1 ? body : body.slice(0, equals);
  if (name === "" || name.startsWith("-")) {
    state.problems.push({ kind: "bad-syntax", written: arg });
    return;
  }
  const inline = equals === -1 ? undefined : body.slice(equals + 1);
  const arity = table.long.get(name);
  if (arity === undefined) {
    // pflag cannot know whether an unknown flag takes a value; a following word that is not a flag
    // is taken as its value, so one typo is reported once and not again as a stray argument.
    const following = peek();
    const consumed = inline === undefined && following !== undefined && !following.startsWith("-") ? next() : undefined;
    const value = inline ?? consumed;
    state.problems.push(value === undefined ? { kind: "unknown", name, written: arg } : { kind: "unknown", name, written: arg, value });
    return;
  }
  if (inline !== undefined) {
    state.occurrences.push({ name, value: inline, written: arg });
  } else if (arity === "optional-value") {
    state.occurrences.push({ name, value: "true", written: arg });
  } else {
    const value = next();
    if (value === undefined) state.problems.push({ kind: "needs-value", name, written: arg });
    else state.occurrences.push({ name, value, written: `${arg} ${value}` });
  }
}

function readShorts(arg: string, table: FlagTable, next: () => string | undefined, state: State): void {
  let shorthands = arg.slice(1);
  while (shorthands.length > 0) {
    const letter = shorthands[0]!;
    const name = table.short.get(letter);
    if (letter === "=" || name === undefined) {
      state.problems.push({ kind: "unknown", name: letter === "=" ? arg : shorthands, written: arg });
      return;
    }
    const arity = table.long.get(name) ?? "value";
    if (shorthands.length > 2 && shorthands[1] === "=") {
      state.occurrences.push({ name, value: shorthands.slice(2), written: arg });
      return;
    }
    if (arity === "optional-value") {
      state.occurrences.push({ name, value: "true", written: `-${letter}` });
      shorthands = shorthands.slice(1);
      continue;
    }
    if (shorthands.length > 1) {
      state.occurrences.push({ name, value: shorthands.slice(1), written: arg });
      return;
    }
    const value = next();
    if (value === undefined) state.problems.push({ kind: "needs-value", name, written: arg });
    else state.occurrences.push({ name, value, written: `${arg} ${value}` });
    return;
  }
}

/**
 * Splits one string of flags (as `simulate --controller-manager-flags "…"` takes them) into
 * words the way a POSIX shell would: whitespace separates, single quotes keep everything,
 * double quotes keep everything but `\"` and `\\`, and a backslash outside quotes escapes.
 */
export function splitFlagLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && (line[index + 1] === '"' || line[index + 1] === "\\")) word += line[++index]!;
      else word += char;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      inWord = true;
      if (char === "'" || char === '"') quote = char;
      else word += char === "\\" && index + 1 < line.length ? line[++index]! : char;
    }
  }
  if (quote !== undefined) throw new SyntaxError(`unterminated ${quote} quote in ${JSON.stringify(line)}`);
  if (inWord) words.push(word);
  return words;
}

/**
 * One word quoted so that `splitFlagLine` reads it back unchanged: as is when it holds no
 * whitespace, quote or backslash; otherwise in single quotes, after a `--name=` prefix left bare so
 * the word still starts with its flag's name (callers look flags up by that prefix).
 */
export function quoteFlagWord(word: string): string {
  if (word !== "" && !/[\s'"\\]/.test(word)) return word;
  const prefix = /^--?[A-Za-z0-9][A-Za-z0-9-]*=/.exec(word)?.[0] ?? "";
  // Inside single quotes nothing is special but the quote itself: close, put it in double quotes, reopen.
  return `${prefix}'${word.slice(prefix.length).replaceAll("'", `'"'"'`)}'`;
}

/** Words joined into one flag line that `splitFlagLine` splits back into the same words. */
export function joinFlagLine(words: readonly string[]): string {
  return words.map(quoteFlagWord).join(" ");
}
