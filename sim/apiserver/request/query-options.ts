/** Query parameters of resource requests (doc 1 §4.2), parsed once with Kubernetes' errors. */
import type { StatusCause } from "../../../spec/doc1/errors.ts";
import { badRequest, failure, type ApiError } from "../responses/api-error.ts";

import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { goQuote } from "../responses/go-text.ts";

/**
 * A boolean flag, as apimachinery converts a query value to a bool: absent, "0" or "false" in any
 * case is false; anything else, "" and "yes" included, is true (doc 1 §4.2: "value 1 is used").
 * kube-apiserver 1.26.4 watches at `watch=yes` and `watch=x` (recorded 2026-11-25; found by
 * comparing with `fuzz --target http`, which the embedded server answered 400).
 */
export function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  return !(value === "0" || value.toLowerCase() === "false");
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
  return int64Parameter(query, "timeoutSeconds");
}

/**
 * `limit` of a list, checked as Kubernetes converts it (strconv.ParseInt, like timeoutSeconds:
 * `limit=` and `limit=1.5` are 400; transcript list-limit-abc), undefined when absent. What a
 * limit means is decided later, by the §4.7 tables (spec/doc1/resource-version-tables.ts).
 */
export function limitParameter(query: URLSearchParams): number | undefined {
  return int64Parameter(query, "limit");
}

/** An int64 query parameter parsed with Go's strconv.ParseInt(value, 10, 64) and its messages. */
export function int64Parameter(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
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

/**
 * The `fieldValidation` parameter; Kubernetes 1.26 defaults to Warn when it is absent. Writes have
 * refused any other value already, with their options' 422 (`dryRun` above, as kube-apiserver
 * 1.26.4 answers; recorded 2026-11-25); the 400 here is for any caller that did not.
 */
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
export function dryRun(
  query: URLSearchParams,
  optionsKind: OptionsKind,
  metaGroup: string,
  bareAccepted: boolean,
  bodyValues: readonly string[] = [],
  apply = false,
): boolean {
  // Kubernetes validates an options object's fields together, in this order: force (patches),
  // fieldManager, dryRun, fieldValidation; a DELETE's options have only dryRun.
  const causes: StatusCause[] = [];
  // Any force, even force=false, is Forbidden on a patch that is not an apply patch; an apply
  // patch needs a fieldManager (apimachinery's ValidatePatchOptions; recorded in apply/recorded/).
  if (optionsKind === "PatchOptions" && !apply && query.has("force")) causes.push({ reason: "FieldValueForbidden", message: "Forbidden: may not be specified for non-apply patch", field: "force" });
  if (apply && (query.get("fieldManager") ?? "") === "") causes.push({ reason: "FieldValueRequired", message: "Required value: is required for apply patch", field: "fieldManager" });
  if (optionsKind !== "DeleteOptions") causes.push(...fieldManagerCauses(query.get("fieldManager") ?? ""));
  // DELETE may carry dryRun in its DeleteOptions body instead (kubectl delete --dry-run=server
  // does); which of the two a DELETE reads is isDryRunDelete's (delete-options.ts).
  const values = [...query.getAll("dryRun"), ...bodyValues];
  const dry = values.length > 0 && values.every((value) => value === "All" || (value === "" && bareAccepted));
  if (values.length > 0 && !dry) {
    const listed = values.map((value) => JSON.stringify(value)).join(", ");
    causes.push({ reason: "FieldValueNotSupported", message: `Unsupported value: []string{${listed}}: supported values: "All"`, field: "dryRun" });
  }
  const validation = query.get("fieldValidation");
  if (optionsKind !== "DeleteOptions" && validation !== null && !FIELD_VALIDATIONS.includes(validation)) {
    const supported = FIELD_VALIDATIONS.map((value) => JSON.stringify(value)).join(", ");
    causes.push({ reason: "FieldValueNotSupported", message: `Unsupported value: ${goQuote(validation)}: supported values: ${supported}`, field: "fieldValidation" });
  }
  if (causes.length > 0) rejectOptions(optionsKind, metaGroup, causes);
  return dry;
}

// The fieldValidation values Kubernetes 1.26 lists ("" is unset: Warn).
const FIELD_VALIDATIONS = ["", "Ignore", "Strict", "Warn"];

/** The longest fieldManager Kubernetes takes (apimachinery's FieldManagerMaxLength). */
const FIELD_MANAGER_MAX_BYTES = 128;

/**
 * apimachinery's ValidateFieldManager: at most 128 bytes, printable characters only (kube-apiserver
 * 1.26.4, recorded 2026-11-25; found by comparing with `fuzz --target http`, which the embedded
 * server took any fieldManager from). "" is unset.
 */
function fieldManagerCauses(fieldManager: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const bytes = Buffer.byteLength(fieldManager, "utf8");
  if (bytes > FIELD_MANAGER_MAX_BYTES) causes.push({ reason: "FieldValueTooLong", message: `Too long: must have at most ${FIELD_MANAGER_MAX_BYTES} bytes`, field: "fieldManager" });
  let position = 0;
  for (const char of fieldManager) {
    // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) {
      const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      causes.push({ reason: "FieldValueInvalid", message: `Invalid value: ${goQuote(fieldManager)}: invalid character ${code} (at position ${position})`, field: "fieldManager" });
    }
    position += Buffer.byteLength(char, "utf8");
  }
  return causes;
}

function rejectOptions(kind: OptionsKind, metaGroup: string, causes: readonly StatusCause[]): never {
  const summary = causes.map((cause) => `${cause.field}: ${cause.message}`);
  const text = summary.length === 1 ? summary[0]! : `[${summary.join(", ")}]`;
  const error: ApiError = failure("Invalid", `${kind}.${metaGroup} "" is invalid: ${text}`, { group: metaGroup, kind, causes: [...causes] });
  throw error;
}

/** Whether the request is a dry run, per the dialect's reading of a bare `dryRun` (doc 1 §4.4). */
export function isDryRun(context: Pick<ServerContext, "dialect">, target: Pick<ResourceRequest, "query">, optionsKind: OptionsKind, apply = false): boolean {
  return dryRun(target.query, optionsKind, context.dialect.metaGroup, context.dialect.answers["bare-dry-run"] === "accept", [], apply);
}
