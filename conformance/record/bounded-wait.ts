/**
 * The waits of a recording, all bounded: a request gets an answer within its timeout or fails,
 * and an interrupt (Ctrl-C) cuts any wait short, so the run reaches its cleanup at once.
 */

/** A wait cut short by the interrupt: the run stops quietly and cleans up. */
export class Interrupted extends Error {}

/**
 * `work`, or a rejection after `timeoutMs` (an Error) or on `signal` (Interrupted). The work goes
 * on unobserved when cut short; its late failure must not become an unhandled rejection.
 */
export function within<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => undefined;
  const cutShort = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    onAbort = () => reject(new Interrupted("interrupted"));
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => undefined);
  return Promise.race([work, cutShort]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  });
}

/** Waits `ms`, or less when `signal` fires. */
export function sleepUnlessInterrupted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
