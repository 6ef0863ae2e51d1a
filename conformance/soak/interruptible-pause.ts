/** A pause in real time that ends early when the run is told to stop (soak's clients pause between requests). */

/** Resolves after `ms`, or at once when `signal` aborts (or already has). */
export function interruptiblePause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
