/**
 * Reading and writing the canonical results JSON (conformance/results.ts). Reading checks the
 * schema version first, with a message that says which side is out of date, then the structure,
 * naming the first bad field by its path (`cases[3].transcript[0].status`). Writing is canonical:
 * fields in schema order (unknown fields after them, sorted), header names sorted, two-space
 * indent, one trailing newline, credentials scrubbed; the same results always give the same bytes.
 */
import { readFile } from "node:fs/promises";
import { RESULTS_SCHEMA_VERSION, type RunResults } from "../conformance/results.ts";
import { redactResults, type RedactionOptions } from "./redaction.ts";

/** Why a results file could not be read: the command maps `missing` to a usage error. */
export type ResultsFileProblem = "missing" | "unreadable" | "not-json" | "schema-version" | "invalid";

/** A results file that is missing, not JSON, of another schema version, or malformed. */
export class ResultsFileError extends Error {
  constructor(
    readonly problem: ResultsFileProblem,
    message: string,
  ) {
    super(message);
    this.name = "ResultsFileError";
  }
}

/** Reads, parses and validates the results file at `path`. */
export async function readResultsFile(path: string): Promise<RunResults> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ResultsFileError("missing", `${path}: no such file`);
    throw new ResultsFileError("unreadable", `${path}: cannot read: ${(error as Error).message}`);
  }
  return parseResults(text, path);
}

/** Parses and validates results JSON; `source` names the file in error messages. */
export function parseResults(text: string, source = "results"): RunResults {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ResultsFileError("not-json", `${source}: not JSON: ${(error as Error).message}`);
  }
  return validateResults(value, source);
}

/** Checks that `value` is RunResults of this schema version; throws ResultsFileError naming the bad field. */
export function validateResults(value: unknown, source = "results"): RunResults {
  if (!isObject(value)) throw invalid(source, "", "expected an object");
  const version = value["schemaVersion"];
  if (version === undefined) {
    throw new ResultsFileError("schema-version", `${source}: not a results file: it has no schemaVersion`);
  }
  if (typeof version !== "number" || !Number.isInteger(version)) {
    throw new ResultsFileError("schema-version", `${source}: schemaVersion must be an integer, got ${JSON.stringify(version)}`);
  }
  if (version > RESULTS_SCHEMA_VERSION) {
    throw new ResultsFileError(
      "schema-version",
      `${source}: results schema version ${version} is newer than this harness reads (${RESULTS_SCHEMA_VERSION}); upgrade orb-harness`,
    );
  }
  if (version < RESULTS_SCHEMA_VERSION) {
    throw new ResultsFileError(
      "schema-version",
      `${source}: results schema version ${version} is older than this harness reads (${RESULTS_SCHEMA_VERSION}); rerun the suite to regenerate it`,
    );
  }
  const check = new Checker(source);
  check.string(value, "harnessVersion", "");
  const target = check.object(value, "target", "");
  check.string(target, "url", "target");
  check.oneOf(target, "kind", "target", ["embedded", "server", "kubeconfig", "kube-assets"]);
  check.string(target, "dialect", "target");
  check.string(target, "serverVersion", "target");
  check.string(value, "startedAt", "");
  check.string(value, "finishedAt", "");
  check.string(value, "command", "");
  const cases = check.array(value, "cases", "");
  const firstIndex = new Map<string, number>();
  cases.forEach((item, index) => {
    const at = `cases[${index}]`;
    if (!isObject(item)) throw invalid(source, at, "expected an object");
    const id = check.string(item, "id", at);
    if (id === "") throw invalid(source, `${at}.id`, "expected a non-empty case id");
    const first = firstIndex.get(id);
    if (first !== undefined) throw invalid(source, `${at}.id`, `duplicate case id ${JSON.stringify(id)} (first at cases[${first}])`);
    firstIndex.set(id, index);
    check.string(item, "area", at);
    check.stringArray(item, "clauses", at);
    check.stringArray(item, "tags", at);
    check.oneOf(item, "status", at, ["pass", "fail", "skip", "error"]);
    check.duration(item, "durationMs", at);
    check.string(item, "message", at);
    check.array(item, "transcript", at).forEach((exchange, exchangeIndex) => {
      const exchangeAt = `${at}.transcript[${exchangeIndex}]`;
      if (!isObject(exchange)) throw invalid(source, exchangeAt, "expected an object");
      check.string(exchange, "method", exchangeAt);
      check.string(exchange, "path", exchangeAt);
      const status = check.number(exchange, "status", exchangeAt);
      if (!Number.isInteger(status) || status < 0 || status > 999) {
        throw invalid(source, `${exchangeAt}.status`, `expected an HTTP status 0..999, got ${status}`);
      }
      check.headers(exchange, "requestHeaders", exchangeAt);
      check.headers(exchange, "responseHeaders", exchangeAt);
      check.string(exchange, "requestBody", exchangeAt);
      check.string(exchange, "responseBody", exchangeAt);
      check.boolean(exchange, "truncated", exchangeAt);
      check.duration(exchange, "durationMs", exchangeAt);
    });
  });
  return value as unknown as RunResults;
}

/** The canonical text of results.json: schema key order, sorted headers, 2-space indent, final newline, redacted. */
export function formatResultsJson(results: RunResults, options: RedactionOptions = {}): string {
  return `${JSON.stringify(canonical(redactResults(results, options), RUN_KEYS), null, 2)}\n`;
}

// Field order of each object of the schema (conformance/results.ts); objects without one (header
// maps, unknown fields) get their keys sorted.
interface KeyOrder {
  readonly keys: readonly string[];
  readonly children?: Readonly<Record<string, KeyOrder>>;
  /** Order for every element of an array-valued field. */
  readonly items?: Readonly<Record<string, KeyOrder>>;
}
const EXCHANGE_KEYS: KeyOrder = {
  keys: ["method", "path", "status", "requestHeaders", "responseHeaders", "requestBody", "responseBody", "truncated", "durationMs"],
};
const CASE_KEYS: KeyOrder = {
  keys: ["id", "area", "clauses", "tags", "status", "durationMs", "message", "transcript"],
  items: { transcript: EXCHANGE_KEYS },
};
const RUN_KEYS: KeyOrder = {
  keys: ["schemaVersion", "harnessVersion", "target", "startedAt", "finishedAt", "command", "cases"],
  children: { target: { keys: ["url", "kind", "dialect", "serverVersion"] } },
  items: { cases: CASE_KEYS },
};

// Rebuilds `value` with known keys in schema order, then any other keys sorted.
function canonical(value: unknown, order: KeyOrder | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, order));
  if (!isObject(value)) return value;
  const known = order?.keys ?? [];
  const rest = Object.keys(value)
    .filter((key) => !known.includes(key))
    .sort();
  const result: Record<string, unknown> = {};
  for (const key of [...known.filter((key) => key in value), ...rest]) {
    result[key] = canonical(value[key], order?.items?.[key] ?? order?.children?.[key]);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function invalid(source: string, path: string, problem: string): ResultsFileError {
  return new ResultsFileError("invalid", `${source}: ${path === "" ? "" : `${path}: `}${problem}`);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing (the field is missing)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 60)}`;
}

// Field checks that name the field's path in their error.
class Checker {
  constructor(private readonly source: string) {}

  private field(parent: Record<string, unknown>, key: string, at: string): { value: unknown; path: string } {
    return { value: parent[key], path: at === "" ? key : `${at}.${key}` };
  }

  private fail(path: string, expected: string, value: unknown): never {
    throw invalid(this.source, path, `expected ${expected}, got ${describe(value)}`);
  }

  string(parent: Record<string, unknown>, key: string, at: string): string {
    const { value, path } = this.field(parent, key, at);
    if (typeof value !== "string") this.fail(path, "a string", value);
    return value;
  }

  number(parent: Record<string, unknown>, key: string, at: string): number {
    const { value, path } = this.field(parent, key, at);
    if (typeof value !== "number" || !Number.isFinite(value)) this.fail(path, "a number", value);
    return value;
  }

  duration(parent: Record<string, unknown>, key: string, at: string): number {
    const { value, path } = this.field(parent, key, at);
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) this.fail(path, "a duration in ms (a number ≥ 0)", value);
    return value;
  }

  boolean(parent: Record<string, unknown>, key: string, at: string): boolean {
    const { value, path } = this.field(parent, key, at);
    if (typeof value !== "boolean") this.fail(path, "true or false", value);
    return value;
  }

  oneOf(parent: Record<string, unknown>, key: string, at: string, allowed: readonly string[]): string {
    const { value, path } = this.field(parent, key, at);
    if (typeof value !== "string" || !allowed.includes(value)) this.fail(path, `one of ${allowed.join(", ")}`, value);
    return value;
  }

  object(parent: Record<string, unknown>, key: string, at: string): Record<string, unknown> {
    const { value, path } = this.field(parent, key, at);
    if (!isObject(value)) this.fail(path, "an object", value);
    return value;
  }

  array(parent: Record<string, unknown>, key: string, at: string): readonly unknown[] {
    const { value, path } = this.field(parent, key, at);
    if (!Array.isArray(value)) this.fail(path, "an array", value);
    return value;
  }

  stringArray(parent: Record<string, unknown>, key: string, at: string): readonly string[] {
    const items = this.array(parent, key, at);
    const path = at === "" ? key : `${at}.${key}`;
    items.forEach((item, index) => {
      if (typeof item !== "string") this.fail(`${path}[${index}]`, "a string", item);
    });
    return items as readonly string[];
  }

  headers(parent: Record<string, unknown>, key: string, at: string): void {
    const headers = this.object(parent, key, at);
    const path = at === "" ? key : `${at}.${key}`;
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== "string") this.fail(`${path}[${JSON.stringify(name)}]`, "a string header value", value);
    }
  }
}
