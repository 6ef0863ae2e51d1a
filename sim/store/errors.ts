/**
 * Typed failures of the MVCC store. The API server maps each to a Kubernetes `Status`
 * (code and reason from spec/doc1/errors.ts); the store itself knows nothing of HTTP.
 */

/** Base class of every failure the store reports on purpose (anything else is a bug). */
export abstract class StoreError extends Error {
  /** HTTP status the API server answers with (doc 1 §7 where the document gives one). */
  abstract readonly code: number;
  /** Kubernetes `Status.reason` for this failure. */
  abstract readonly reason: string;
}

/** The object does not exist (at the revision read). */
export class NotFoundError extends StoreError {
  readonly code = 404;
  readonly reason = "NotFound";
  constructor(readonly key: string) {
    super(`${key} not found`);
  }
}

/** A create found the key taken (doc 1 §2.1.3: one object per name at a time). */
export class AlreadyExistsError extends StoreError {
  readonly code = 409;
  readonly reason = "AlreadyExists";
  constructor(readonly key: string) {
    super(`${key} already exists`);
  }
}

/** A write's resourceVersion precondition is stale: the object changed since the caller read it. */
export class ConflictError extends StoreError {
  readonly code = 409;
  readonly reason = "Conflict";
  constructor(
    readonly key: string,
    readonly expectedRevision: number,
    readonly actualRevision: number,
  ) {
    super(`${key} has been modified: precondition revision ${expectedRevision}, current ${actualRevision}`);
  }
}

/**
 * A read, watch or continue token asks for a revision that compaction removed (doc 1 §7: 410).
 * For an expired continue token, `continueToken` resumes the same list from the same key at the
 * latest revision (an inconsistent continuation), as Kubernetes offers in its 410 Status.
 */
export class ExpiredError extends StoreError {
  readonly code = 410;
  readonly reason = "Expired";
  constructor(
    readonly requestedRevision: number,
    readonly compactedRevision: number,
    readonly continueToken?: string,
  ) {
    super(`revision ${requestedRevision} has been compacted (oldest retained is ${compactedRevision})`);
  }
}

/** A continue token that this store did not issue, or that was altered (tamper-evident tokens). */
export class InvalidContinueTokenError extends StoreError {
  readonly code = 400;
  readonly reason = "BadRequest";
  constructor(why: string) {
    super(`invalid continue token: ${why}`);
  }
}

/** A revision the store has not reached and did not reach within the wait (doc 1 §7: 504). */
export class TooLargeResourceVersionError extends StoreError {
  readonly code = 504;
  readonly reason = "Timeout";
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`Too large resource version: ${requestedRevision}, current: ${currentRevision}`);
  }
}
