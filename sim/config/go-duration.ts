/**
 * Go durations, as doc 2 and doc 3 write them (`15s`, `1m0s`, `8760h0m0s`): parsed exactly as Go's
 * `time.ParseDuration` parses them and printed exactly as `time.Duration.String()` prints them.
 * A duration is a bigint of nanoseconds: 8760h is 3.15e16 ns, beyond the 2^53 a number holds exactly.
 */

/** Nanoseconds per unit, as Go's `unitMap` (both micro signs: U+00B5 and U+03BC). */
const NANOS_PER_UNIT: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n],
  ["\u03bcs", 1_000n],
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

/** The largest Go duration (int64), about 292 years. */
export const MAX_GO_DURATION_NS = (1n << 63n) - 1n;
/** The smallest Go duration (int64). */
export const MIN_GO_DURATION_NS = -(1n << 63n);
/** One second in nanoseconds. */
export const SECOND_NS = 1_000_000_000n;

const TWO_POW_63 = 1n << 63n;

/** A string Go's `time.ParseDuration` rejects; the message is Go's. */
export class GoDurationError extends Error {}

/** Parses `text` as Go's `time.ParseDuration` does; returns nanoseconds or throws GoDurationError. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new GoDurationError(`time: invalid duration ${quote(text)}`);
  let rest = text;
  let negative = false;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    negative = rest[0] === "-";
    rest = rest.slice(1);
  }
  // Go accepts a bare 0 (with or without a sign) and nothing else without a unit.
  if (rest === "0") return 0n;
  if (rest === "") throw invalid();
  let total = 0n;
  while (rest !== "") {
    const term = parseTerm(rest, text, invalid);
    rest = term.rest;
    total += term.nanos;
    if (total > TWO_POW_63) throw invalid();
  }
  if (negative) return -total;
  if (total > MAX_GO_DURATION_NS) throw invalid();
  return total;
}

// One `[0-9]*(\.[0-9]*)?[a-z]+` term of a duration, as the body of Go's parse loop.
function parseTerm(text: string, original: string, invalid: () => GoDurationError): { nanos: bigint; rest: string } {
  if (!/^[0-9.]/.test(text)) throw invalid();
  const whole = leadingInt(text);
  if (whole === undefined) throw invalid();
  let rest = text.slice(whole.length);
  let fraction = { value: 0n, scale: 1, length: 0 };
  if (rest.startsWith(".")) {
    rest = rest.slice(1);
    fraction = leadingFraction(rest);
    rest = rest.slice(fraction.length);
  }
  if (whole.length === 0 && fraction.length === 0) throw invalid();
  const unitLength = rest.search(/[0-9.]/);
  const unitText = unitLength === -1 ? rest : rest.slice(0, unitLength);
  if (unitText === "") throw new GoDurationError(`time: missing unit in duration ${quote(original)}`);
  const unit = NANOS_PER_UNIT.get(unitText);
  if (unit === undefined) throw new GoDurationError(`time: unknown unit ${quote(unitText)} in duration ${quote(original)}`);
  let nanos = whole.value;
  if (nanos > TWO_POW_63 / unit) throw invalid();
  nanos *= unit;
  if (fraction.value > 0n) {
    // Go computes the fraction in float64 (exact to the nanosecond for fractions of an hour) and
    // truncates it to an integer; Number(bigint) rounds to nearest like Go's float64(uint64).
    nanos += BigInt(Math.trunc(Number(fraction.value) * (Number(unit) / fraction.scale)));
    if (nanos > TWO_POW_63) throw invalid();
  }
  return { nanos, rest: rest.slice(unitText.length) };
}

// Go's leadingInt: the leading digits, or undefined when they overflow 2^63.
function leadingInt(text: string): { value: bigint; length: number } | undefined {
  let value = 0n;
  let length = 0;
  while (length < text.length && text[length]! >= "0" && text[length]! <= "9") {
    if (value > TWO_POW_63 / 10n) return undefined;
    value = value * 10n + BigInt(text.charCodeAt(length) - 48);
    if (value > TWO_POW_63) return undefined;
    length++;
  }
  return { value, length };
}

// Go's leadingFraction: digits after the point; past 2^63 it stops adding precision, not digits.
function leadingFraction(text: string): { value: bigint; scale: number; length: number } {
  let value = 0n;
  let scale = 1;
  let overflow = false;
  let length = 0;
  for (; length < text.length && text[length]! >= "0" && text[length]! <= "9"; length++) {
    if (overflow) continue;
    if (value > (TWO_POW_63 - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const next = value * 10n + BigInt(text.charCodeAt(length) - 48);
    if (next > TWO_POW_63) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  return { value, scale, length };
}

/** Prints `nanos` as Go's `time.Duration.String()` does: `0s`, `500ms`, `1.5s`, `1m30s`, `8760h0m0s`. */
export function formatGoDuration(nanos: bigint): string {
  if (nanos < MIN_GO_DURATION_NS || nanos > MAX_GO_DURATION_NS) {
    throw new RangeError(`${nanos}ns is outside the range of a Go duration`);
  }
  const sign = nanos < 0n ? "-" : "";
  const magnitude = nanos < 0n ? -nanos : nanos;
  if (magnitude === 0n) return "0s";
  if (magnitude < SECOND_NS) {
    // Below a second Go picks the largest unit that keeps an integer part: ns, µs (U+00B5) or ms.
    const [precision, unit] = magnitude < 1_000n ? [0, "ns"] : magnitude < 1_000_000n ? [3, "\u00b5s"] : [6, "ms"];
    const { fraction, integer } = formatFraction(magnitude, precision);
    return `${sign}${integer}${fraction}${unit}`;
  }
  const { fraction, integer: seconds } = formatFraction(magnitude, 9);
  let text = `${seconds % 60n}${fraction}s`;
  const minutes = seconds / 60n;
  if (minutes > 0n) {
    text = `${minutes % 60n}m${text}`;
    const hours = minutes / 60n;
    if (hours > 0n) text = `${hours}h${text}`;
  }
  return sign + text;
}

// Go's fmtFrac: the last `precision` digits as a fraction without trailing zeros (and without the
// point when they are all zero), and what remains above them.
function formatFraction(value: bigint, precision: number): { fraction: string; integer: bigint } {
  let digits = "";
  let printing = false;
  let rest = value;
  for (let index = 0; index < precision; index++) {
    const digit = rest % 10n;
    printing ||= digit !== 0n;
    if (printing) digits = `${digit}${digits}`;
    rest /= 10n;
  }
  return { fraction: printing ? `.${digits}` : "", integer: rest };
}

/** Milliseconds for the simulation's clock: exact when `nanos` is whole milliseconds, else the nearest float. */
export function goDurationToMs(nanos: bigint): number {
  return nanos % 1_000_000n === 0n ? Number(nanos / 1_000_000n) : Number(nanos) / 1e6;
}

// Go's quote: a double-quoted string with escapes.
function quote(text: string): string {
  return JSON.stringify(text);
}
