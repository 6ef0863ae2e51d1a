/**
 * The JSON forms of the values whose Protobuf form differs, as Kubernetes' Go types write them:
 * metav1.Time (RFC 3339, whole seconds, UTC, `Z`), metav1.MicroTime (RFC 3339 with six fraction
 * digits), []byte (standard base64 with padding), intstr.IntOrString (a number or a string) and
 * resource.Quantity (a string). Pure functions, no clock.
 */

/** Seconds and nanoseconds since the Unix epoch: the Protobuf `Timestamp` {1: seconds, 2: nanos}. */
export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Days in `month` (1–12) of `year`, proleptic Gregorian. */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Milliseconds since the epoch of a UTC calendar time (years 0–99 included, which Date.UTC maps to 19xx). */
function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  return date.getTime();
}

/** Parses an RFC 3339 timestamp (Go's time.RFC3339 layout, which also takes a fraction); undefined if it is not one. */
export function parseRfc3339(text: string): Timestamp | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetSeconds = 0;
  if (match[9] !== undefined) {
    const offsetHours = Number(match[10]);
    const offsetMinutes = Number(match[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offsetSeconds = (match[9] === "-" ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  }
  const fraction = match[7] ?? "";
  const nanos = fraction === "" ? 0 : Number(fraction.padEnd(9, "0"));
  const seconds = utcMillis(year, month, day, hour, minute, second) / 1000 - offsetSeconds;
  return { seconds, nanos };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/** RFC 3339 in UTC of whole `seconds` since the epoch, with `fractionDigits` digits of `nanos`. */
function formatUtc(seconds: number, nanos: number, fractionDigits: number): string {
  const date = new Date(seconds * 1000);
  const base =
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  if (fractionDigits === 0) return `${base}Z`;
  return `${base}.${pad(nanos, 9).slice(0, fractionDigits)}Z`;
}

/** metav1.Time's JSON: `2026-11-21T12:54:46Z` (Go keeps whole seconds only). */
export function formatTime(seconds: number): string {
  return formatUtc(seconds, 0, 0);
}

/** metav1.MicroTime's JSON: `2026-11-21T12:00:00.000000Z`. */
export function formatMicroTime(seconds: number, nanos: number): string {
  return formatUtc(seconds, nanos, 6);
}

/** The first and last second Go's time formatting gives four-digit years for. */
export const MIN_SECONDS = -62135596800; // 0001-01-01T00:00:00Z
export const MAX_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Standard base64 with padding (Go's encoding/json for []byte) to bytes; undefined if not base64.
 * Line breaks are skipped, as Go's base64 decoder skips `\r` and `\n` (wrapped certificates in a
 * Secret's data decode on a real server).
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const unwrapped = text.replace(/[\r\n]/g, "");
  if (!BASE64.test(unwrapped)) return undefined;
  return new Uint8Array(Buffer.from(unwrapped, "base64"));
}

/** Bytes to standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** Go's sort.Strings order: by UTF-8 bytes (differs from JS `<` for characters beyond U+FFFF). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
