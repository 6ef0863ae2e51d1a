/**
 * Always-on checks of the model's own invariants: where a relationship is produced and again
 * where it is consumed (a revision only grows; a page's revision is its continue token's; a
 * watch's next event is not before its last). A failed one is a bug of ours, never of the
 * client: it throws InvariantViolation, naming the invariant, which the server answers as any
 * internal error (a 500 Status, never a crash). Cheap by contract: a comparison, with the detail
 * made only when it fails.
 */

/** A model invariant that did not hold. */
export class InvariantViolation extends Error {
  override readonly name = "InvariantViolation";
  constructor(
    /** The invariant's id, e.g. "store/revision-grows". */
    readonly invariant: string,
    detail: string,
  ) {
    super(`invariant ${invariant} violated: ${detail}`);
  }
}

/** Throws InvariantViolation for `invariant` unless `condition` holds; `detail` says what was seen. */
export function assert(condition: boolean, invariant: string, detail: () => string): asserts condition {
  if (!condition) throw new InvariantViolation(invariant, detail());
}
