/**
 * Errors at the HTTP surface: each carries the `Status` body Kubernetes would send (reasons and
 * codes from spec/doc1/errors.ts, message shapes from the reference transcripts named below). The
 * handler turns any ApiError into a response; anything else is a bug, answered as a 500 Status.
 */
import { statusCodeFor, tooLargeResourceVersion, type Status, type StatusCause, type StatusReason } from "../../../spec/doc1/errors.ts";

import {
  AlreadyExistsError,
  ConflictError,
  ExpiredError,
  InvalidContinueTokenError,
  NotFoundError,
  StoreError,
  TooLargeResourceVersionError,
} from "../../store/errors.ts";
import { goQuote } from "./go-text.ts";

/** An error answered with a Status object. */
export class ApiError extends Error {
  constructor(
    readonly status: Status,
    /** Extra response headers (Retry-After on a 504). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(status.message);
  }

  /** The HTTP status code. */
  get code(): number {
    return this.status.code;
  }
}

type Details = NonNullable<Status["details"]>;

/** A Failure Status with `reason`, its code and `message`. */
export function failure(reason: StatusReason, message: string, details?: Details, metadata: Status["metadata"] = {}): ApiError {
  return new ApiError({
    kind: "Status",
    apiVersion: "v1",
    metadata,
    status: "Failure",
    message,
    reason,
    ...(details !== undefined && { details }),
    code: statusCodeFor(reason),
  });
}

/** A resource type as errors name it: the plural, qualified by its group (`leases.coordination.k8s.io`). */
export interface ResourceRef {
  readonly resource: string;
  readonly group: string;
}

function qualified(ref: ResourceRef): string {
  return ref.group === "" ? ref.resource : `${ref.resource}.${ref.group}`;
}

function objectDetails(ref: ResourceRef, name: string): Details {
  return { name, ...(ref.group !== "" && { group: ref.group }), kind: ref.resource };
}

/** `<resource> "<name>" not found` (transcript get-missing). */
export function notFound(ref: ResourceRef, name: string): ApiError {
  return failure("NotFound", `${qualified(ref)} "${name}" not found`, objectDetails(ref, name));
}

/** The 404 for a path the server does not serve (transcript unknown-resource). */
export function pathNotFound(): ApiError {
  return failure("NotFound", "the server could not find the requested resource", {});
}

/** `<resource> "<name>" already exists` (transcripts create-duplicate, node-lease-create). */
export function alreadyExists(ref: ResourceRef, name: string): ApiError {
  return failure("AlreadyExists", `${qualified(ref)} "${name}" already exists`, objectDetails(ref, name));
}

/** The 409 of a stale update (transcript update-stale). */
export function conflict(ref: ResourceRef, name: string): ApiError {
  return failure(
    "Conflict",
    `Operation cannot be fulfilled on ${qualified(ref)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    objectDetails(ref, name),
  );
}

/** A 400 BadRequest with Kubernetes' bare shape (no details). */
export function badRequest(message: string): ApiError {
  return failure("BadRequest", message);
}

/** The 405 for a verb a resource does not allow (transcript patch-collection). */
export function methodNotAllowed(): ApiError {
  return failure("MethodNotAllowed", "the server does not allow this method on the requested resource", {});
}

/**
 * A 422 Invalid: `<Kind> "<name>" is invalid: <field>: <message>` with one cause per problem
 * (transcripts create-invalid-name, list-rvmatch-no-rv).
 */
export function invalid(kind: string, name: string, causes: readonly StatusCause[], group?: string): ApiError {
  const summary = causes.map((cause) => (cause.field ? `${cause.field}: ${cause.message}` : cause.message));
  const subject = group === undefined ? kind : `${kind}.${group}`;
  const text = summary.length === 1 ? summary[0]! : `[${summary.join(", ")}]`;
  return failure("Invalid", `${subject} "${name}" is invalid: ${text}`, {
    ...(name !== "" && { name }),
    ...(group !== undefined && { group }),
    kind,
    causes,
  });
}

/** A cause of kind FieldValueInvalid: `Invalid value: "<value>": <why>`, the value quoted as Go's %q does. */
export function invalidValue(field: string, value: string, why: string): StatusCause {
  return { reason: "FieldValueInvalid", message: `Invalid value: ${goQuote(value)}: ${why}`, field };
}

/** The 504 for a resourceVersion the server has not reached (doc 1 §7; transcript list-rv-future). */
export function tooLargeResourceVersionError(requested: string, current: string): ApiError {
  const answer = tooLargeResourceVersion;
  return new ApiError(
    {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
      reason: answer.reason,
      details: { causes: [{ reason: answer.causeReason, message: "Too large resource version" }], retryAfterSeconds: answer.retryAfterSeconds },
      code: answer.code,
    },
    { "retry-after": String(answer.retryAfterSeconds) },
  );
}

/** The 410 of an expired continue token, carrying the token that continues inconsistently (transcript expiry-continue). */
export function expiredContinueToken(inconsistentContinue: string | undefined): ApiError {
  return failure(
    "Expired",
    "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
    undefined,
    inconsistentContinue === undefined ? {} : { continue: inconsistentContinue },
  );
}

/** The 410 of an Exact list, get or watch at a compacted resourceVersion (transcripts expiry-*). */
export function expiredResourceVersion(what: "list" | "watch"): ApiError {
  return failure("Expired", `The resourceVersion for the provided ${what} is too old.`);
}

/**
 * The ApiError for a store failure in a request on type `ref` and object `name`. Store errors that
 * need request context (expiry, which differs for lists, tokens and watches) are mapped by callers.
 */
export function fromStoreError(error: StoreError, ref: ResourceRef, name: string, formatRevision: (revision: number) => string): ApiError {
  if (error instanceof NotFoundError) return notFound(ref, name);
  if (error instanceof AlreadyExistsError) return alreadyExists(ref, name);
  if (error instanceof ConflictError) return conflict(ref, name);
  if (error instanceof InvalidContinueTokenError) return badRequest(error.message);
  if (error instanceof TooLargeResourceVersionError) {
    return tooLargeResourceVersionError(formatRevision(error.requestedRevision), formatRevision(error.currentRevision));
  }
  if (error instanceof ExpiredError) {
    return error.continueToken !== undefined ? expiredContinueToken(error.continueToken) : expiredResourceVersion("list");
  }
  return failure("InternalError", error.message);
}
