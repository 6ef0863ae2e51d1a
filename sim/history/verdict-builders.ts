/**
 * How a checker accumulates its verdict: it counts the obligations it checked and keeps the first
 * violation it found (checkers visit the history in a fixed order, so "first" is deterministic),
 * then answers one HistoryVerdict for its invariant.
 */
import type { HistoryInvariantId } from "../../spec/invariants-history.ts";
import type { EventRef, HistoryVerdict, HistoryWitness } from "./history-verdict.ts";

/** The verdict of one invariant under construction. */
export class VerdictBuilder {
  private checkedCount = 0;
  private firstWitness: HistoryWitness | undefined;

  constructor(readonly id: HistoryInvariantId) {}

  /** Counts `n` obligations checked. */
  count(n = 1): void {
    this.checkedCount += n;
  }

  /** Whether a violation was already found (later ones are not reported). */
  get violated(): boolean {
    return this.firstWitness !== undefined;
  }

  /** Records a violation unless an earlier one was recorded. Operation ids are deduplicated, in order. */
  fail(explanation: string, operations: readonly number[], events: readonly EventRef[] = []): void {
    if (this.firstWitness !== undefined) return;
    const uniqueEvents = events.filter(
      (event, index) => events.findIndex((other) => other.operation === event.operation && other.index === event.index) === index,
    );
    this.firstWitness = { explanation, operations: [...new Set(operations)], events: uniqueEvents };
  }

  verdict(): HistoryVerdict {
    const { id, checkedCount: checked, firstWitness: witness } = this;
    return witness === undefined ? { id, held: true, checked } : { id, held: false, checked, witness };
  }
}
