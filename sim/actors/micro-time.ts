/**
 * Kubernetes' MicroTime: RFC 3339 with six fractional digits, always UTC, as in Lease
 * `renewTime`/`acquireTime` ("2006-01-02T15:04:05.000000Z07:00").
 */

// The date and time to the second change once a second; thousands of renewals share them.
let cachedSecond = Number.NaN;
let cachedPrefix = "";
// The last string made, and its time: the node agents that renew at one instant (dozens, on the
// start grid) share one string, which a Lease's history then keeps once rather than per agent.
let lastMs = Number.NaN;
let lastMicroTime = "";

/** `ms` (since the Unix epoch, fractional allowed) as a MicroTime string. */
export function microTime(ms: number): string {
  if (ms === lastMs) return lastMicroTime;
  const wholeMs = Math.floor(ms);
  const second = Math.floor(wholeMs / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19); // 2006-01-02T15:04:05
  }
  const micros = (wholeMs - second * 1000) * 1000 + Math.floor((ms - wholeMs) * 1000);
  // join, not a template: it makes one flat string, where `+` chains would make a rope of pieces
  // that every comparison of renew times (the controller's, each pass) had to flatten again.
  lastMicroTime = [cachedPrefix, ".", String(micros).padStart(6, "0"), "Z"].join("");
  lastMs = ms;
  return lastMicroTime;
}

/** RFC 3339 with whole seconds (metav1.Time), as in condition heartbeat times. */
export function rfc3339Seconds(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
