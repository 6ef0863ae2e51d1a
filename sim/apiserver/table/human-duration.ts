/**
 * Ages in Table cells, as kube-apiserver prints them: the server computes them with its own clock
 * at the time it answers (transcripts table-*: "0s", "10s", "89s"; watch-as-table: each event's
 * age at the time it was sent). Here the time is the caller's `Clock`, never the wall clock.
 */
import type { Clock } from "../../kernel/clock.ts";

/**
 * A duration as k8s.io/apimachinery/pkg/util/duration.HumanDuration writes it: about two or
 * three significant figures ("0s".."119s", "2m5s".."9m59s", "10m".."179m", "3h".."7h59m",
 * "8h".."47h", "2d".."7d23h", "8d".."729d", "2y".."7y364d", then "8y"...). Up to one second in
 * the future is "0s" (clock skew); more is "<invalid>".
 */
export function humanDuration(ms: number): string {
  // Go converts with int(): truncation toward zero.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp (metav1.Time or MicroTime), or undefined
 * for an absent, null, unparseable or zero ("0001-01-01T00:00:00Z") time: the times Go's
 * `IsZero` reports for a field the object does not set.
 */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = RFC3339.exec(value);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), fraction === undefined ? 0 : Math.trunc(Number(`0.${fraction}`) * 1000));
  let ms = date.getTime();
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  }
  if (Number.isNaN(ms) || ms === ZERO_TIME_MS) return undefined;
  return ms;
}

// Go's zero time.Time, 0001-01-01T00:00:00Z.
const ZERO_TIME_MS = (() => {
  const date = new Date(0);
  date.setUTCFullYear(1, 0, 1);
  return date.getTime();
})();

/**
 * The printers' translateTimestampSince: the age of `timestamp` at the clock's now, or
 * "<unknown>" when the time is zero (unset).
 */
export function ageSince(timestamp: unknown, clock: Pick<Clock, "nowMs">): string {
  const ms = parseTimestamp(timestamp);
  return ms === undefined ? "<unknown>" : humanDuration(clock.nowMs() - ms);
}

/** A timestamp as metav1.Time marshals it: RFC 3339 in UTC, whole seconds ("0001-01-01T00:00:00Z" for zero). */
export function formatTimestamp(ms: number | undefined): string {
  if (ms === undefined) return "0001-01-01T00:00:00Z";
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
