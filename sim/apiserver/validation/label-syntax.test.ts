import { describe, expect, it } from "vitest";
import { byteLength, labelValueProblems, qualifiedNameProblems } from "./label-syntax.ts";

// Expected texts from transcripts labels-* of spec/reference/kube-apiserver-1.26/transcripts-metadata-validation.jsonl.
const NAME_MISMATCH =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe("qualified names (label and annotation keys, finalizers)", () => {
  it("accepts names of up to 63 characters with a prefix of up to 253", () => {
    const prefix = ["a".repeat(63), "a".repeat(63), "a".repeat(63), "a".repeat(61)].join(".");
    for (const name of ["a", "A.b_c-9", "x".repeat(63), `${prefix}/n`, "example.com/MyName"]) expect(qualifiedNameProblems(name), name).toEqual([]);
    expect(qualifiedNameProblems(`${prefix}a/n`)).toEqual(["prefix part must be no more than 253 characters"]);
  });

  it("reports Kubernetes' problems in its order", () => {
    expect(qualifiedNameProblems("")).toEqual(["name part must be non-empty", NAME_MISMATCH]);
    expect(qualifiedNameProblems("x".repeat(64))).toEqual(["name part must be no more than 63 characters"]);
    expect(qualifiedNameProblems("/n")).toEqual(["prefix part must be non-empty"]);
    expect(qualifiedNameProblems("bad key")).toEqual([NAME_MISMATCH]);
    expect(qualifiedNameProblems("a/b/c")[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    expect(qualifiedNameProblems("Example.com/x")[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain must consist/);
    // Lengths are bytes, as Go counts them: 32 two-byte characters are 64 bytes.
    expect(qualifiedNameProblems("é".repeat(32))).toContain("name part must be no more than 63 characters");
  });
});

describe("label values", () => {
  it("accept the empty string and 63 characters; refuse 64, edges that are not alphanumeric, and U+FFFD", () => {
    expect(labelValueProblems("")).toEqual([]);
    expect(labelValueProblems("v".repeat(63))).toEqual([]);
    expect(labelValueProblems("v".repeat(64))).toEqual(["must be no more than 63 characters"]);
    for (const value of ["-bad", "bad-", "a b", "a\ufffdb", "a\u00ffb", "bad\n"]) expect(labelValueProblems(value), value).toHaveLength(1);
  });
});

describe("byteLength", () => {
  it("counts UTF-8 bytes as Go's len() does, a lone surrogate as the 3 bytes of U+FFFD", () => {
    expect(["", "abc", "é", "€", "\u{1F600}", "\ud800", "a\udc00b"].map(byteLength)).toEqual([0, 3, 2, 3, 4, 3, 5]);
  });
});
