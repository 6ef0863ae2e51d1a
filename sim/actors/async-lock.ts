/**
 * Mutual exclusion between an actor's own loops: the node lifecycle controller's monitor pass,
 * its tainting pass and its pod evictions never interleave, so a decision is never taken on a view
 * another loop is halfway through changing (one process, one logical thread of decisions).
 */

/** A FIFO lock for async functions. */
export class AsyncLock {
  #tail: Promise<void> = Promise.resolve();
  #held = false;

  /** Whether some function holds the lock now. */
  get held(): boolean {
    return this.#held;
  }

  /** Runs `task` once every task queued before it has finished; resolves with its result. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(async () => {
      this.#held = true;
      try {
        return await task();
      } finally {
        this.#held = false;
      }
    });
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
