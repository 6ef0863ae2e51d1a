/**
 * Kubernetes resource quantities (`10Mi`, `100m`, `1.5G`, `1e3`), as doc 3 uses them for
 * containerLogMaxSize, reserved resources, eviction thresholds and infoBufferSize. The grammar is
 * resource.Quantity's: a signed decimal number and one suffix, binary (Ki…Ei), decimal (n u m "" k
 * M G T P E) or a decimal exponent (e3, E-2). The value is kept exact, as a fraction of bigints.
 */

/** How the suffix wrote the quantity. */
export type QuantityFormat = "BinarySI" | "DecimalSI" | "DecimalExponent";

/** A parsed quantity: the text as written and its exact value, `numerator / denominator`. */
export interface Quantity {
  readonly text: string;
  readonly numerator: bigint;
  /** Always positive. */
  readonly denominator: bigint;
  readonly format: QuantityFormat;
}

/** Text that is not a quantity. */
export class QuantityError extends Error {}

const NUMBER_AND_SUFFIX = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/;

const BINARY_SUFFIXES: ReadonlyMap<string, number> = new Map([["Ki", 10], ["Mi", 20], ["Gi", 30], ["Ti", 40], ["Pi", 50], ["Ei", 60]]);
const DECIMAL_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ["n", -9], ["u", -6], ["m", -3], ["", 0], ["k", 3], ["M", 6], ["G", 9], ["T", 12], ["P", 15], ["E", 18],
]);
// Exponents beyond this are refused rather than expanded into enormous bigints.
const MAX_EXPONENT = 1000;

/** Parses `text` as a Kubernetes quantity, or throws QuantityError. */
export function parseQuantity(text: string): Quantity {
  const match = NUMBER_AND_SUFFIX.exec(text);
  const invalid = () => new QuantityError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', got ${JSON.stringify(text)}`);
  if (match === null) throw invalid();
  const [, sign = "", whole = "", fraction, suffix = ""] = match;
  if (whole === "" && (fraction === undefined || fraction === "")) throw invalid();
  const scale = power(10n, (fraction ?? "").length);
  let numerator = BigInt(`${whole}${fraction ?? ""}` || "0") * (sign === "-" ? -1n : 1n);
  let denominator = scale;
  let format: QuantityFormat;
  const binary = BINARY_SUFFIXES.get(suffix);
  const decimal = DECIMAL_SUFFIXES.get(suffix);
  if (binary !== undefined) {
    numerator *= power(2n, binary);
    format = "BinarySI";
  } else if (decimal !== undefined) {
    [numerator, denominator] = scaleByTen(numerator, denominator, decimal);
    format = "DecimalSI";
  } else if (/^[eE][-+]?[0-9]+$/.test(suffix)) {
    const exponent = Number(suffix.slice(1));
    if (Math.abs(exponent) > MAX_EXPONENT) throw new QuantityError(`quantity ${JSON.stringify(text)} is out of range`);
    [numerator, denominator] = scaleByTen(numerator, denominator, exponent);
    format = "DecimalExponent";
  } else {
    throw new QuantityError(`unable to parse quantity's suffix ${JSON.stringify(suffix)} in ${JSON.stringify(text)}`);
  }
  return { text, numerator, denominator, format };
}

function scaleByTen(numerator: bigint, denominator: bigint, exponent: number): [bigint, bigint] {
  return exponent >= 0 ? [numerator * power(10n, exponent), denominator] : [numerator, denominator * power(10n, -exponent)];
}

function power(base: bigint, exponent: number): bigint {
  return base ** BigInt(exponent);
}

/** -1, 0 or 1 as the quantity is negative, zero or positive. */
export function quantitySign(quantity: Quantity): -1 | 0 | 1 {
  return quantity.numerator < 0n ? -1 : quantity.numerator === 0n ? 0 : 1;
}

/** Negative, zero or positive as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The quantity as the nearest float (bytes for memory, cores for cpu). */
export function quantityToNumber(quantity: Quantity): number {
  return Number(quantity.numerator) / Number(quantity.denominator);
}

/** A percentage as eviction thresholds write it (`10%`): the fraction, or undefined when `text` is not one. */
export function parsePercentage(text: string): number | undefined {
  if (!text.endsWith("%")) return undefined;
  const body = text.slice(0, -1);
  // Kubernetes parses the number with strconv.ParseFloat(…, 32).
  if (!/^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(body)) return undefined;
  return Number(body) / 100;
}
