/**
 * Errors: the table of doc 1 §7, the Kubernetes `Status` reasons and codes the server answers with
 * (doc 1 leaves the body shape open, §7), and the exact form of the answers doc 1 describes only
 * in words. Reasons and codes are confirmed against the reference transcripts named below.
 */
import type { ClauseId } from "./clauses.ts";
import { tooLargeResourceVersionRetryAfterSeconds } from "./limits.ts";

/** Each `Status.reason` the server uses, with its HTTP code and a transcript where Kubernetes sent it. */
export const statusReasons = {
  BadRequest: { code: 400, transcript: "create-wrong-kind" },
  Unauthorized: { code: 401, transcript: "unauthorized" },
  Forbidden: { code: 403, transcript: "forbidden" },
  NotFound: { code: 404, transcript: "get-missing" },
  MethodNotAllowed: { code: 405, transcript: "patch-collection" },
  NotAcceptable: { code: 406, transcript: "accept-xml" },
  AlreadyExists: { code: 409, transcript: "create-duplicate" },
  Conflict: { code: 409, transcript: "update-stale" },
  // Kubernetes 1.26 reports every compaction 410 as Expired; Gone exists but no transcript shows it.
  Gone: { code: 410, transcript: undefined },
  Expired: { code: 410, transcript: "expiry-continue" },
  RequestEntityTooLarge: { code: 413, transcript: "body-too-large" },
  UnsupportedMediaType: { code: 415, transcript: "content-type-text" },
  Invalid: { code: 422, transcript: "create-invalid-name" },
  TooManyRequests: { code: 429, transcript: undefined },
  // Kubernetes' bare 500s (transcripts list-rv-nonnumeric, list-rv-future-exact) carry no reason at all.
  InternalError: { code: 500, transcript: undefined },
  // A watch whose timeoutSeconds is negative: "context deadline exceeded" (transcript
  // watch-timeout-negative of transcripts-metadata-validation.jsonl, outside the main set).
  ServiceUnavailable: { code: 503, transcript: undefined },
  Timeout: { code: 504, transcript: "list-rv-future" },
} as const satisfies Record<string, { code: number; transcript: string | undefined }>;

/** A `Status.reason` the server may send. */
export type StatusReason = keyof typeof statusReasons;

/** The HTTP status code that goes with a reason. */
export function statusCodeFor(reason: StatusReason): number {
  return statusReasons[reason].code;
}

/** One entry of `Status.details.causes`. */
export interface StatusCause {
  readonly reason: string;
  readonly message: string;
  readonly field?: string;
}

/**
 * The body of every error response. Not shown in doc 1 (§7, clause doc1/7/not-shown/body-shape);
 * Kubernetes answers a Status object of this shape, never a stack trace.
 */
export interface Status {
  readonly kind: "Status";
  readonly apiVersion: "v1";
  /** `continue` carries the inconsistent continue token of an expired-token 410 (transcript expiry-continue). */
  readonly metadata: { readonly continue?: string };
  readonly status: "Failure" | "Success";
  readonly message: string;
  readonly reason?: StatusReason;
  readonly details?: {
    readonly name?: string;
    readonly group?: string;
    readonly kind?: string;
    readonly uid?: string;
    readonly causes?: readonly StatusCause[];
    readonly retryAfterSeconds?: number;
  };
  readonly code: number;
}

/** One condition of a §7 row, and the reason Kubernetes gives for it. */
export interface ErrorCondition {
  readonly text: string;
  readonly clause: ClauseId;
  readonly reason?: StatusReason;
  /** How Kubernetes 1.26 delivers it, where that differs from a plain status response. */
  readonly kubernetes?: string;
  readonly transcript?: string;
}

/** One row of the doc 1 §7 error table. */
export interface ErrorTableRow {
  /** The status column as doc 1 writes it. */
  readonly status: string;
  /** The HTTP code, for rows that are one ("Retry-After header" and "dry-run failure" are not). */
  readonly code: number | undefined;
  readonly conditions: readonly ErrorCondition[];
  readonly clientHandling: string;
  readonly clientHandlingClause: ClauseId;
}

/** The error table of doc 1 §7, row by row. */
export const errorTable: readonly ErrorTableRow[] = [
  {
    status: "410 Gone",
    code: 410,
    conditions: [
      {
        text: "A watch starts from a version no longer retained.",
        clause: "doc1/7/410/watch-too-old",
        reason: "Expired",
        kubernetes: "HTTP 200, then one ERROR event whose object is a 410 Expired Status",
        transcript: "expiry-watch-old",
      },
      {
        text: "A continue token has expired.",
        clause: "doc1/7/410/continue-expired",
        reason: "Expired",
        kubernetes: "410 Expired whose metadata.continue resumes the list at the latest version (inconsistently)",
        transcript: "expiry-continue",
      },
      { text: "Exact is unavailable.", clause: "doc1/7/410/exact-unavailable", reason: "Expired", transcript: "expiry-list-exact-old" },
      { text: "NotOlderThan with limit fails.", clause: "doc1/7/410/not-older-than-limit", reason: "Expired" },
      { text: "A version is outside the retained limit (cache dependent).", clause: "doc1/7/410/outside-retained", reason: "Expired" },
    ],
    clientHandling: "Clear local cache, list or get again, then watch from the returned resourceVersion. With an expired token, start over or omit limit.",
    clientHandlingClause: "doc1/7/410/client-handling",
  },
  {
    status: "406",
    code: 406,
    conditions: [{ text: "None of the requested media types is supported.", clause: "doc1/7/406", reason: "NotAcceptable", transcript: "accept-xml" }],
    clientHandling: "Request another type.",
    clientHandlingClause: "doc1/7/client-handling",
  },
  {
    status: "400 Bad Request",
    code: 400,
    conditions: [
      {
        text: "List with limit, continue and a resourceVersion other than 0.",
        clause: "doc1/7/400/limit-continue-rv",
        reason: "BadRequest",
        transcript: "list-continue-with-rv",
      },
    ],
    clientHandling: "Do not combine.",
    clientHandlingClause: "doc1/7/client-handling",
  },
  {
    status: "504 Gateway Timeout",
    code: 504,
    conditions: [
      {
        text: "A get or list asks for a version the server does not recognize, and it does not appear in reasonable time. Messages mention \"Too large resource version\".",
        clause: "doc1/7/504/too-large-resource-version",
        reason: "Timeout",
        transcript: "list-rv-future",
      },
    ],
    clientHandling: "Retry.",
    clientHandlingClause: "doc1/7/client-handling",
  },
  {
    status: "Retry-After header",
    code: undefined,
    conditions: [
      {
        text: "The server may use it instead of waiting for an unrecognized version. Its value is seconds.",
        clause: "doc1/7/retry-after",
        kubernetes: "sent with the 504 above, together with details.retryAfterSeconds",
        transcript: "list-rv-future",
      },
    ],
    clientHandling: "Wait that long.",
    clientHandlingClause: "doc1/7/client-handling",
  },
  {
    status: "dry-run failure",
    code: undefined,
    conditions: [
      {
        text: "The request would trigger an admission controller with side effects.",
        clause: "doc1/7/dry-run-failure",
        reason: "BadRequest",
        kubernetes: "400 BadRequest naming the webhook that does not support dry-run (Kubernetes 1.26 admission code; not in the reference transcripts)",
      },
    ],
    clientHandling: "The request fails.",
    clientHandlingClause: "doc1/7/client-handling",
  },
];

/** The shape of the answer to a resourceVersion the server has not reached. */
export interface TooLargeResourceVersionAnswer {
  readonly code: number;
  readonly reason: StatusReason;
  readonly messageMentions: string;
  readonly causeReason: string;
  readonly retryAfterSeconds: number;
  readonly clause: ClauseId;
}

/**
 * The 504 for a resourceVersion the server has not reached (doc 1 §7): reason Timeout, a message
 * mentioning "Too large resource version", a ResourceVersionTooLarge cause, and Retry-After with
 * details.retryAfterSeconds of 1 (transcripts list-rv-future, get-rv-future).
 */
export const tooLargeResourceVersion = {
  code: 504,
  reason: "Timeout",
  messageMentions: "Too large resource version",
  causeReason: "ResourceVersionTooLarge",
  retryAfterSeconds: tooLargeResourceVersionRetryAfterSeconds,
  clause: "doc1/7/504/too-large-resource-version",
} as const satisfies TooLargeResourceVersionAnswer;
