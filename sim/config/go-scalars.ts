/**
 * Go's scalar parsers as the daemons' flag library (pflag) calls them: `strconv.ParseBool`,
 * `strconv.ParseInt(s, 0, bits)` (so `0x10`, `0o17`, `0b101`, `017` and `1_000` are integers) and
 * `strconv.ParseFloat(s, 64)`. Each throws GoSyntaxError with Go's message.
 */

/** A value Go's strconv rejects; the message is strconv's. */
export class GoSyntaxError extends Error {}

const TRUE_WORDS = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE_WORDS = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** `strconv.ParseBool`: 1, t, T, TRUE, true, True and their false counterparts. */
export function parseGoBool(text: string): boolean {
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  throw new GoSyntaxError(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
}

/** The bit sizes pflag parses integers with. */
export type GoIntBits = 32 | 64;

/** `strconv.ParseInt(text, 0, bits)`: a base prefix picks the base; returns a bigint. */
export function parseGoInt(text: string, bits: GoIntBits): bigint {
  const syntax = () => new GoSyntaxError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const sign = text.startsWith("-") ? -1n : 1n;
  const body = text.startsWith("-") || text.startsWith("+") ? text.slice(1) : text;
  const { base, digits, prefixed } = splitBasePrefix(body);
  if (digits === "" || !underscoresOk(digits, prefixed)) throw syntax();
  const clean = digits.replaceAll("_", "");
  if (clean === "" || ![...clean].every((char) => digitValue(char) < base)) throw syntax();
  const value = sign * [...clean].reduce((sum, char) => sum * BigInt(base) + BigInt(digitValue(char)), 0n);
  const limit = 1n << BigInt(bits - 1);
  if (value >= limit || value < -limit) {
    throw new GoSyntaxError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return value;
}

// Base 0: "0x"/"0X" hex, "0b"/"0B" binary, "0o"/"0O" octal, a leading "0" octal, else decimal.
function splitBasePrefix(body: string): { base: number; digits: string; prefixed: boolean } {
  const prefix = body.slice(0, 2).toLowerCase();
  if (prefix === "0x") return { base: 16, digits: body.slice(2), prefixed: true };
  if (prefix === "0b") return { base: 2, digits: body.slice(2), prefixed: true };
  if (prefix === "0o") return { base: 8, digits: body.slice(2), prefixed: true };
  if (body.length > 1 && body.startsWith("0")) return { base: 8, digits: body.slice(1), prefixed: true };
  return { base: 10, digits: body, prefixed: false };
}

// Go allows "_" only between digits, or between a base prefix and a digit.
function underscoresOk(digits: string, prefixed: boolean): boolean {
  if (!digits.includes("_")) return true;
  if (digits.endsWith("_") || digits.includes("__")) return false;
  return prefixed || !digits.startsWith("_");
}

function digitValue(char: string): number {
  const code = char.toLowerCase().charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 87;
  return 99;
}

const DECIMAL_FLOAT = /^[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9]+)?$/;
const SPECIAL_FLOAT = /^[+-]?(?:inf|infinity|nan)$/i;

/** `strconv.ParseFloat(text, 64)` for decimal forms and Inf/NaN (Go's hex floats are not accepted here). */
export function parseGoFloat(text: string): number {
  if (SPECIAL_FLOAT.test(text)) {
    if (/nan/i.test(text)) return Number.NaN;
    return text.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!DECIMAL_FLOAT.test(text)) {
    throw new GoSyntaxError(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  const value = Number(text.replaceAll("_", ""));
  if (!Number.isFinite(value)) {
    throw new GoSyntaxError(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return value;
}

/**
 * One record of Go's `encoding/csv` reader with its defaults, as pflag reads string slices:
 * fields split on commas, double-quoted fields may hold commas and `""`, and a bare quote inside an
 * unquoted field is an error. The empty string is the empty list.
 */
export function parseGoCsvRecord(text: string): string[] {
  if (text === "") return [];
  const fields: string[] = [];
  let index = 0;
  for (;;) {
    let field = "";
    if (text[index] === '"') {
      index++;
      for (;;) {
        const close = text.indexOf('"', index);
        if (close === -1) throw new GoSyntaxError(`parse error on line 1, column ${text.length + 1}: extraneous or missing " in quoted-field`);
        field += text.slice(index, close);
        index = close + 1;
        if (text[index] === '"') {
          field += '"';
          index++;
          continue;
        }
        if (index < text.length && text[index] !== ",") {
          throw new GoSyntaxError(`parse error on line 1, column ${index + 1}: extraneous or missing " in quoted-field`);
        }
        break;
      }
    } else {
      const comma = text.indexOf(",", index);
      field = comma === -1 ? text.slice(index) : text.slice(index, comma);
      const quoteAt = field.indexOf('"');
      if (quoteAt !== -1) throw new GoSyntaxError(`parse error on line 1, column ${index + quoteAt + 1}: bare " in non-quoted-field`);
      index += field.length;
    }
    fields.push(field);
    if (index >= text.length) return fields;
    index++; // the comma
    if (index === text.length) {
      fields.push("");
      return fields;
    }
  }
}
