/** Query parameters of resource requests (doc 1 §4.2), parsed once with Kubernetes' errors. */
import { badRequest, failure, type ApiError } from "./api-error.ts";
import { goQuote } from "./object-names.ts";

/** A boolean flag: present with "", "1", "true" or "t" is true (doc 1 §4.2: "value 1 is used"). */
export function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  if (["", "1", "true", "t", "True", "TRUE"].includes(value)) return true;
  if (["0", "false", "f", "False", "FALSE"].includes(value)) return false;
  throw badRequest(`invalid boolean value for ${name}: ${JSON.stringify(value)}`);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `timeoutSeconds` of a list or watch (ListOptions), undefined when absent. Kubernetes parses it
 * with Go's strconv.ParseInt(value, 10, 64): a sign is allowed and a negative value parses, but
 * anything else, the empty string included, is 400 BadRequest with ParseInt's own message
 * (transcripts list-timeout-abc, watch-timeout-abc, list-timeout-empty, list-timeout-huge,
 * list-timeout-negative in spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl).
 */
export function timeoutSeconds(query: URLSearchParams): number | undefined {
  const value = query.get("timeoutSeconds");
  if (value === null) return undefined;
  if (!/^[+-]?[0-9]+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
  const parsed = BigInt(value);
  if (parsed < INT64_MIN || parsed > INT64_MAX) throw badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: value out of range`);
  return Number(parsed);
}

/** A string parameter, undefined when absent or empty (Kubernetes treats both as unset). */
export function optional(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === "" ? undefined : value;
}

/** How unknown fields in a body are treated (`fieldValidation`, Kubernetes; not in doc 1). */
export type FieldValidation = "Strict" | "Warn" | "Ignore";

/** The `fieldValidation` parameter; Kubernetes 1.26 defaults to Warn when it is absent. */
export function fieldValidation(query: URLSearchParams): FieldValidation {
  const value = query.get("fieldValidation");
  if (value === null || value === "") return "Warn";
  if (value === "Strict" || value === "Warn" || value === "Ignore") return value;
  throw badRequest(`fieldValidation parameter unsupported: ${JSON.stringify(value)}; must be one of Strict, Warn or Ignore`);
}

/** The options kind named in a dryRun 422 (transcripts dryrun-bogus, dryrun-bare). */
export type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions" | "DeleteOptions";

/**
 * Whether the request is a dry run (doc 1 §4.4). `All` is; a bare `dryRun` is accepted where the
 * dialect follows doc 1 §4.4.4, else it is 422 Invalid like any value other than All (Kubernetes).
 */
export function dryRun(query: URLSearchParams, optionsKind: OptionsKind, metaGroup: string, bareAccepted: boolean, bodyValues: readonly string[] = []): boolean {
  // DELETE may carry dryRun in its DeleteOptions body instead (kubectl delete --dry-run=server does).
  const values = [...query.getAll("dryRun"), ...bodyValues];
  if (values.length === 0) return false;
  if (values.every((value) => value === "All" || (value === "" && bareAccepted))) return true;
  const listed = values.map((value) => JSON.stringify(value)).join(", ");
  const message = `Unsupported value: []string{${listed}}: supported values: "All"`;
  return rejectOptions(optionsKind, metaGroup, "dryRun", message);
}

function rejectOptions(kind: OptionsKind, metaGroup: string, field: string, message: string): never {
  const error: ApiError = failure("Invalid", `${kind}.${metaGroup} "" is invalid: ${field}: ${message}`, {
    group: metaGroup,
    kind,
    causes: [{ reason: "FieldValueNotSupported", message, field }],
  });
  throw error;
}
