/** The counts an HTTP fuzz run reports at the end (issue #14). */

/** Running counts. */
export class FuzzTally {
  /** Generated requests sent (shrinking runs included). */
  requests = 0;
  /** Helper requests: lists, baselines and clean-ups of the lanes' objects. */
  helperRequests = 0;
  /** Answers by status class ("2xx", …) or "no answer". */
  readonly byClass = new Map<string, number>();
  /** Error answers whose body was a well-formed Status with the right code. */
  statusBodies = 0;
  /** Counted exceptions by id. */
  readonly exceptions = new Map<string, number>();
  /** Every broken rule, by signature, repeats included. */
  readonly findingOccurrences = new Map<string, number>();

  countAnswer(status: number | undefined): void {
    const key = status === undefined ? "no answer" : `${Math.floor(status / 100)}xx`;
    this.byClass.set(key, (this.byClass.get(key) ?? 0) + 1);
  }

  countException(id: string): void {
    this.exceptions.set(id, (this.exceptions.get(id) ?? 0) + 1);
  }

  countFinding(signature: string): void {
    this.findingOccurrences.set(signature, (this.findingOccurrences.get(signature) ?? 0) + 1);
  }

  /** The summary lines. */
  lines(): string[] {
    const sorted = (map: ReadonlyMap<string, number>) => [...map].sort(([a], [b]) => a.localeCompare(b));
    const classes = sorted(this.byClass).map(([key, count]) => `${key} ${count}`).join(", ");
    const lines = [
      `requests sent: ${this.requests} (plus ${this.helperRequests} helper requests tracking the lanes' objects)`,
      `answers: ${classes === "" ? "none" : classes}`,
      `Status bodies: ${this.statusBodies}`,
      `counted exceptions: ${[...this.exceptions.values()].reduce((sum, count) => sum + count, 0)}`,
      ...sorted(this.exceptions).map(([id, count]) => `  ${id}: ${count}`),
      `findings: ${this.findingOccurrences.size} distinct (${[...this.findingOccurrences.values()].reduce((sum, count) => sum + count, 0)} occurrences)`,
    ];
    return lines;
  }
}
