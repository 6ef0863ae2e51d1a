/**
 * The per-case timeout (issue #5, "a per-case timeout"). It bounds how long a case may hang, not
 * how long it deliberately waits: a time-dependent case run with --slow against a real server waits
 * for real (toward the server's retention: over 10 minutes on a Kubernetes default), and each such
 * wait moves the deadline on by its length, so the default timeout still holds for the rest of the
 * case.
 */

/** A deadline that fails `race`d work once it passes; `extend` moves it later. */
export class CaseDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private deadlineAt: number;
  /** Waits in progress whose time does not count (waitOutside); the deadline cannot pass during one. */
  private suspended = 0;
  private expire: ((error: Error) => void) | undefined;
  private readonly expired: Promise<never>;

  constructor(private readonly timeoutMs: number) {
    this.deadlineAt = performance.now() + timeoutMs;
    this.expired = new Promise<never>((_, reject) => {
      this.expire = reject;
    });
    // Nobody may be racing yet; an unobserved rejection must not crash the process.
    this.expired.catch(() => undefined);
    this.arm();
  }

  /** Moves the deadline `ms` later (a deliberate wait of that length). */
  extend(ms: number): void {
    if (this.expire === undefined) return;
    this.deadlineAt += Math.max(0, ms);
    if (this.suspended === 0) this.arm();
  }

  /**
   * Waits for `work` with the clock stopped: the time it takes does not count (another case's
   * measurement that this case needs). Resolves or rejects as `work` does.
   */
  async waitOutside<T>(work: Promise<T>): Promise<T> {
    const started = performance.now();
    this.suspended++;
    clearTimeout(this.timer);
    try {
      return await work;
    } finally {
      this.suspended--;
      this.extend(performance.now() - started);
    }
  }

  /** Resolves as `work` does, or rejects once the deadline passes first. */
  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.expired]);
  }

  /** Stops the timer: the case is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.expire = undefined;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        if (this.suspended > 0) return;
        if (performance.now() < this.deadlineAt) return this.arm();
        this.expire?.(new Error(`timed out after ${this.timeoutMs / 1000} s`));
        this.expire = undefined;
      },
      Math.max(0, this.deadlineAt - performance.now()),
    );
  }
}
