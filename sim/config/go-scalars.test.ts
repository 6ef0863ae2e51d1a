import { describe, expect, it } from "vitest";
import { GoSyntaxError, parseGoBool, parseGoCsvRecord, parseGoFloat, parseGoInt } from "./go-scalars.ts";

describe("parseGoBool", () => {
  it("accepts strconv.ParseBool's words and nothing else", () => {
    for (const word of ["1", "t", "T", "TRUE", "true", "True"]) expect(parseGoBool(word)).toBe(true);
    for (const word of ["0", "f", "F", "FALSE", "false", "False"]) expect(parseGoBool(word)).toBe(false);
    for (const word of ["yes", "on", "tRUE", "", " true"]) expect(() => parseGoBool(word), word).toThrow(GoSyntaxError);
  });
});

describe("parseGoInt (base 0, as pflag parses ints)", () => {
  it("reads base prefixes and underscores", () => {
    expect(parseGoInt("10", 32)).toBe(10n);
    expect(parseGoInt("-10", 32)).toBe(-10n);
    expect(parseGoInt("+7", 32)).toBe(7n);
    expect(parseGoInt("0x1F", 32)).toBe(31n);
    expect(parseGoInt("0o17", 32)).toBe(15n);
    expect(parseGoInt("017", 32)).toBe(15n);
    expect(parseGoInt("0b101", 32)).toBe(5n);
    expect(parseGoInt("1_000", 64)).toBe(1000n);
    expect(parseGoInt("0", 32)).toBe(0n);
  });

  it("rejects bad syntax and values out of the bit size", () => {
    for (const text of ["", "1.0", "08", "0x", "_1", "1_", "1__0", "ten", "1e3"]) expect(() => parseGoInt(text, 64), text).toThrow("invalid syntax");
    expect(parseGoInt("2147483647", 32)).toBe(2147483647n);
    expect(() => parseGoInt("2147483648", 32)).toThrow("value out of range");
    expect(parseGoInt("-2147483648", 32)).toBe(-2147483648n);
    expect(() => parseGoInt("9223372036854775808", 64)).toThrow("value out of range");
  });
});

describe("parseGoFloat", () => {
  it("reads decimals, exponents, Inf and NaN", () => {
    expect(parseGoFloat("0.1")).toBe(0.1);
    expect(parseGoFloat("1e-3")).toBe(0.001);
    expect(parseGoFloat(".5")).toBe(0.5);
    expect(parseGoFloat("5.")).toBe(5);
    expect(parseGoFloat("+Inf")).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isNaN(parseGoFloat("NaN"))).toBe(true);
    for (const text of ["", ".", "1.2.3", "abc", "1e"]) expect(() => parseGoFloat(text), text).toThrow("invalid syntax");
    expect(() => parseGoFloat("1e400")).toThrow("value out of range");
  });
});

describe("parseGoCsvRecord (pflag string slices)", () => {
  it("splits on commas and honours quotes", () => {
    expect(parseGoCsvRecord("")).toEqual([]);
    expect(parseGoCsvRecord("a")).toEqual(["a"]);
    expect(parseGoCsvRecord("a,b,,c")).toEqual(["a", "b", "", "c"]);
    expect(parseGoCsvRecord("a,")).toEqual(["a", ""]);
    expect(parseGoCsvRecord('"a,b",c')).toEqual(["a,b", "c"]);
    expect(parseGoCsvRecord('"say ""hi""",x')).toEqual(['say "hi"', "x"]);
  });

  it("rejects a bare quote in an unquoted field and an unclosed quote", () => {
    expect(() => parseGoCsvRecord('a"b')).toThrow('bare " in non-quoted-field');
    expect(() => parseGoCsvRecord('"ab')).toThrow(GoSyntaxError);
    expect(() => parseGoCsvRecord('"a"b')).toThrow(GoSyntaxError);
  });
});
