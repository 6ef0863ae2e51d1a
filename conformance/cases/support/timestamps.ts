/** Timestamps of the API (RFC 3339, whole seconds): parsed, compared with the server's clock, and waited past. */
import type { CaseContext } from "../../case-context.ts";
import { check } from "../../check.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp of the API (failing the case on anything else); milliseconds since the epoch. */
export function timestampMs(value: unknown, what: string): number {
  check(typeof value === "string" && RFC3339.test(value), `${what}: expected an RFC 3339 timestamp, got ${JSON.stringify(value)}`);
  const ms = Date.parse(value);
  check(!Number.isNaN(ms), `${what}: unparseable timestamp ${value}`);
  return ms;
}

/**
 * Checks that `timestamp` is the server's current time when `response` was sent: within a few
 * seconds of the response's Date header (the server's clock; API timestamps have whole seconds).
 * Without a Date header there is no server clock to compare with, and only the format is checked.
 */
export function checkServerNow(timestamp: unknown, response: ApiResponse, what: string): number {
  const ms = timestampMs(timestamp, what);
  const date = response.headers.get("date");
  if (date !== null && !Number.isNaN(Date.parse(date))) {
    const skew = Math.abs(ms - Date.parse(date));
    check(skew <= 5_000, `${what}: ${String(timestamp)} is ${Math.round(skew / 1000)} s away from the server's Date header (${date}); expected the current time`);
  }
  return ms;
}

/** Waits a little over one second, so whole-second timestamps of two writes must differ. */
export async function nextSecond(context: CaseContext): Promise<void> {
  await context.advance(1_100);
}
