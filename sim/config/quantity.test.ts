import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareQuantities, parsePercentage, parseQuantity, QuantityError, quantitySign, quantityToNumber } from "./quantity.ts";

describe("parseQuantity", () => {
  it("reads binary, decimal and exponent suffixes exactly", () => {
    expect(quantityToNumber(parseQuantity("10Mi"))).toBe(10 * 1024 * 1024);
    expect(quantityToNumber(parseQuantity("1Ki"))).toBe(1024);
    expect(quantityToNumber(parseQuantity("100m"))).toBe(0.1);
    expect(quantityToNumber(parseQuantity("1.5G"))).toBe(1.5e9);
    expect(quantityToNumber(parseQuantity("1e3"))).toBe(1000);
    expect(quantityToNumber(parseQuantity("1E-2"))).toBe(0.01);
    expect(quantityToNumber(parseQuantity("5n"))).toBeCloseTo(5e-9);
    expect(quantityToNumber(parseQuantity("2E"))).toBe(2e18);
    expect(quantityToNumber(parseQuantity("-1"))).toBe(-1);
    expect(parseQuantity("10Mi").format).toBe("BinarySI");
    expect(parseQuantity("1e3").format).toBe("DecimalExponent");
    expect(parseQuantity("1k").format).toBe("DecimalSI");
  });

  it("rejects what Kubernetes rejects", () => {
    for (const text of ["", "Mi", "1K", "1Mb", "1 Mi", "1.2.3", "--1", "1e", "1Mi1", "abc"]) expect(() => parseQuantity(text), text).toThrow(QuantityError);
  });

  it("compares exactly across suffixes", () => {
    expect(compareQuantities(parseQuantity("1Ki"), parseQuantity("1024"))).toBe(0);
    expect(compareQuantities(parseQuantity("1k"), parseQuantity("1Ki"))).toBeLessThan(0);
    expect(compareQuantities(parseQuantity("1001m"), parseQuantity("1"))).toBeGreaterThan(0);
    expect(quantitySign(parseQuantity("0Mi"))).toBe(0);
    expect(quantitySign(parseQuantity("-5m"))).toBe(-1);
  });

  it("a whole number of binary units equals its byte count (property)", () => {
    const units = { Ki: 10, Mi: 20, Gi: 30 } as const;
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.constantFrom("Ki", "Mi", "Gi") as fc.Arbitrary<keyof typeof units>, (count, unit) => {
        return compareQuantities(parseQuantity(`${count}${unit}`), parseQuantity(String(BigInt(count) << BigInt(units[unit])))) === 0;
      }),
    );
  });
});

describe("parsePercentage", () => {
  it("reads eviction percentages", () => {
    expect(parsePercentage("10%")).toBe(0.1);
    expect(parsePercentage("-5%")).toBe(-0.05);
    expect(parsePercentage("10")).toBeUndefined();
    expect(parsePercentage("x%")).toBeUndefined();
  });
});
