/**
 * Kubernetes' static token file (`--token-file`, k8s.io/apiserver tokenfile.NewCSV): CSV records
 * `token,user,uid[,"group1,group2"]`, read with Go's encoding/csv defaults:
 *
 * - fields are separated by commas and kept as written (no trimming);
 * - a field that starts with `"` is quoted: `""` inside it is one quote, and it may hold commas and
 *   line breaks; after its closing quote comes a comma or the end of the line;
 * - a `"` inside an unquoted field is an error;
 * - empty lines are skipped; records may have any number of fields, at least 3 are needed, fields
 *   after the 4th are ignored.
 *
 * As Kubernetes: a record with an empty token is skipped, and a repeated token replaces the
 * earlier one; both give a warning. The 4th field is split at commas into the groups. Stricter
 * than Kubernetes (which would accept them silently): an empty user name is an error, empty group
 * names (`a,,b`, a trailing comma) are dropped, and a leading byte-order mark is ignored.
 *
 * Every problem names its line (1-based, the line where the record starts).
 */
import type { UserInfo } from "./user.ts";

/** Users by bearer token. */
export type TokenTable = ReadonlyMap<string, UserInfo>;

/** A parsed token file. */
export interface StaticTokenFile {
  readonly tokens: TokenTable;
  /** Things Kubernetes would log as warnings: empty and repeated tokens, ignored extra columns. */
  readonly warnings: readonly string[];
}

/** A token file that cannot be used; `problems` lists each, naming its line. */
export class TokenFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`token file: ${problems.length === 1 ? problems[0]! : `${problems.length} problems:\n  ${problems.join("\n  ")}`}`);
    this.name = "TokenFileError";
  }
}

/** Parses the text of a static token file; throws a TokenFileError listing every problem. */
export function parseStaticTokenFile(text: string): StaticTokenFile {
  const { records, problems } = readCsv(text.startsWith("\ufeff") ? text.slice(1) : text);
  const problem = (line: number, message: string) => problems.push({ line, message: `line ${line}: ${message}` });
  const tokens = new Map<string, UserInfo>();
  const firstLineOf = new Map<string, number>();
  const warnings: string[] = [];
  for (const { line, fields } of records) {
    if (fields.length < 3) {
      problem(line, `needs at least 3 columns (token, user name, user uid), found ${fields.length}`);
      continue;
    }
    const [token, name, uid, groupField] = fields as [string, string, string, string | undefined];
    if (token === "") {
      warnings.push(`line ${line}: empty token, record skipped`);
      continue;
    }
    if (name === "") {
      problem(line, `the user name (2nd column) is empty`);
      continue;
    }
    if (fields.length > 4) warnings.push(`line ${line}: ${fields.length - 4} column(s) after the groups ignored`);
    const earlier = firstLineOf.get(token);
    if (earlier !== undefined) warnings.push(`line ${line}: token already given on line ${earlier}; this record replaces it`);
    else firstLineOf.set(token, line);
    const groups = groupField === undefined ? [] : groupField.split(",").filter((group) => group !== "");
    tokens.set(token, { name, uid, groups });
  }
  if (problems.length > 0) {
    // Syntax errors were found first: report everything in line order.
    throw new TokenFileError(problems.sort((a, b) => a.line - b.line).map((entry) => entry.message));
  }
  return { tokens, warnings };
}

interface CsvRecord {
  /** Line where the record starts, 1-based. */
  readonly line: number;
  readonly fields: readonly string[];
}

/**
 * Go's encoding/csv reader (comma ",", no comment character, LazyQuotes off, FieldsPerRecord -1).
 * A syntax error drops its record and reading goes on at the next line, so all are reported.
 */
interface CsvProblem {
  readonly line: number;
  readonly message: string;
}

function readCsv(text: string): { records: CsvRecord[]; problems: CsvProblem[] } {
  const source = text.replace(/\r\n/g, "\n");
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  let pos = 0;
  let line = 1;
  while (pos < source.length) {
    const recordLine = line;
    if (source[pos] === "\n") {
      pos++;
      line++;
      continue;
    }
    const fields: string[] = [];
    let error: CsvProblem | undefined;
    for (;;) {
      if (source[pos] === '"') {
        // Quoted field.
        const startLine = line;
        let value = "";
        pos++;
        for (;;) {
          const close = source.indexOf('"', pos);
          if (close === -1) {
            error = { line: startLine, message: `line ${startLine}: the quoted field opened here is never closed` };
            value += source.slice(pos);
            line += countNewlines(source.slice(pos));
            pos = source.length;
            break;
          }
          const chunk = source.slice(pos, close);
          value += chunk;
          line += countNewlines(chunk);
          pos = close + 1;
          if (source[pos] === '"') {
            value += '"';
            pos++;
            continue;
          }
          if (pos < source.length && source[pos] !== "," && source[pos] !== "\n") {
            const message = `unexpected ${JSON.stringify(source[pos])} after a closing quote (write "" for a quote inside a quoted field)`;
            error = { line, message: `line ${line}, column ${columnOf(source, pos)}: ${message}` };
          }
          break;
        }
        fields.push(value);
      } else {
        // Unquoted field: up to the next comma or end of line.
        let end = pos;
        while (end < source.length && source[end] !== "," && source[end] !== "\n") end++;
        const value = source.slice(pos, end);
        const quote = value.indexOf('"');
        if (quote !== -1) {
          const message = `a quote inside an unquoted field (quote the whole field and double the quote: "a""b")`;
          error = { line, message: `line ${line}, column ${columnOf(source, pos + quote)}: ${message}` };
        }
        fields.push(value);
        pos = end;
      }
      if (error !== undefined) break;
      if (source[pos] === ",") {
        pos++;
        continue;
      }
      break; // end of line or of text
    }
    if (error !== undefined) {
      problems.push(error);
      // Resume after the end of the current line.
      const next = source.indexOf("\n", pos);
      pos = next === -1 ? source.length : next;
    } else {
      records.push({ line: recordLine, fields });
    }
    if (source[pos] === "\n") {
      pos++;
      line++;
    }
  }
  return { records, problems };
}

function countNewlines(text: string): number {
  let count = 0;
  for (const char of text) if (char === "\n") count++;
  return count;
}

/** 1-based column of `pos` within its line. */
function columnOf(source: string, pos: number): number {
  return pos - (source.lastIndexOf("\n", pos - 1) + 1) + 1;
}
