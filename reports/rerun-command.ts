/**
 * The one-line command that reruns a single case: the run's own command line (results.command)
 * with its target flags kept, its case selection replaced by `--focus '^<id>$'`, and every
 * credential flag (`--token`, `--password`, ...) dropped rather than masked.
 */
import type { RunResults } from "../conformance/results.ts";
import { isSensitiveName } from "./redaction.ts";

/** How a rerun starts; the run's flags follow. */
export const RERUN_PREFIX = "npx tsx scripts/cli.ts conformance";

// Flags of the original run that select cases or place output; a rerun of one case drops them.
const DROPPED_FLAGS = new Set(["focus", "skip", "area", "tag", "shard", "list", "list-uncovered", "report-dir"]);

/** `npx tsx scripts/cli.ts conformance <the run's target flags> --focus '^<escaped id>$'`. */
export function rerunCommand(results: Pick<RunResults, "command">, caseId: string): string {
  const words = [...RERUN_PREFIX.split(" "), ...keptFlags(runArguments(results.command)), "--focus", focusPattern(caseId)];
  return words.map(shellQuote).join(" ");
}

/** The anchored pattern that matches exactly this case id (regex syntax escaped; valid with or without the u flag). */
export function focusPattern(caseId: string): string {
  return `^${caseId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
}

/** `word` as one shell word: bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Splits a POSIX shell command line into words (single and double quotes, backslash escapes). */
export function splitShellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (char === "'") {
      const end = command.indexOf("'", index + 1);
      const stop = end === -1 ? command.length : end;
      word += command.slice(index + 1, stop);
      index = stop;
    } else if (char === '"') {
      for (index++; index < command.length && command[index] !== '"'; index++) {
        const inner = command[index]!;
        const next = command[index + 1];
        if (inner === "\\" && next !== undefined && '"\\$`'.includes(next)) {
          word += next;
          index++;
        } else word += inner;
      }
    } else if (char === "\\" && index + 1 < command.length) {
      word += command[++index]!;
    } else word += char;
  }
  if (inWord) words.push(word);
  return words;
}

// The arguments of the run: the words after `conformance`, else from the first flag on.
function runArguments(command: string): string[] {
  const words = splitShellWords(command);
  const subcommand = words.indexOf("conformance");
  if (subcommand !== -1) return words.slice(subcommand + 1);
  const firstFlag = words.findIndex((word) => word.startsWith("-"));
  return firstFlag === -1 ? [] : words.slice(firstFlag);
}

// Drops selection flags and credentials, each with its value (`--flag value` or `--flag=value`).
function keptFlags(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const flag = /^--?([^=]+)(=?)/.exec(arg);
    if (flag === null) {
      kept.push(arg);
      continue;
    }
    const name = flag[1]!;
    if (DROPPED_FLAGS.has(name) || isSensitiveName(name)) {
      const next = args[index + 1];
      if (flag[2] === "" && next !== undefined && !next.startsWith("-")) index++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}
