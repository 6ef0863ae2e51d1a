/**
 * A history checker's answer: held or violated, how many obligations it checked, and for a
 * violation the minimal witness: the few operations (and events of them) that prove it, with a
 * sentence saying what they show. The timeline report highlights exactly these.
 */

/** A pointer to one event of a watch operation. */
export interface EventRef {
  readonly operation: number;
  /** Index into that watch's `events`. */
  readonly index: number;
}

/** The evidence of a violation. */
export interface HistoryWitness {
  readonly explanation: string;
  /** Ids of the operations that prove it (a handful, not the history). */
  readonly operations: readonly number[];
  /** The watch events among them that matter, if any. */
  readonly events: readonly EventRef[];
}

/** The verdict of one history invariant (spec/invariants-history.ts) on one history. */
export interface HistoryVerdict {
  readonly id: string;
  readonly held: boolean;
  /** Obligations checked (writes ordered, events matched, reads placed…): 0 means nothing was exercised. */
  readonly checked: number;
  readonly witness?: HistoryWitness;
}
