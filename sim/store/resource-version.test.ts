import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalResourceVersions, opaqueResourceVersions } from "./resource-version.ts";

describe.each([
  ["decimal", decimalResourceVersions],
  ["opaque", opaqueResourceVersions],
])("%s resourceVersions", (_, codec) => {
  it("parse inverts format for every revision", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (revision) => codec.parse(codec.format(revision)) === revision));
  });

  it("rejects what it never emits", () => {
    for (const text of ["", "0", "-1", "01", "abc", "1.5", " 1", "rv.", "rv.0", "rv.01"]) expect(codec.parse(text)).toBeUndefined();
  });
});

describe("opaque resourceVersions", () => {
  it("are never numeric, so clients that parse them fail", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e12 }), (revision) => Number.isNaN(Number(opaqueResourceVersions.format(revision)))));
  });
});
