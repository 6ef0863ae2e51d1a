import { describe, expect, it } from "vitest";
import { BadPatternError, goFilepathMatch } from "./go-glob.ts";

// Go's path/filepath match_test.go table (Linux).
const matches: [string, string, boolean][] = [
  ["abc", "abc", true],
  ["*", "abc", true],
  ["*c", "abc", true],
  ["a*", "a", true],
  ["a*", "abc", true],
  ["a*", "ab/c", false],
  ["a*/b", "abc/b", true],
  ["a*/b", "a/c/b", false],
  ["a*b*c*d*e*/f", "axbxcxdxe/f", true],
  ["a*b*c*d*e*/f", "axbxcxdxexxx/f", true],
  ["a*b*c*d*e*/f", "axbxcxdxe/xxx/f", false],
  ["a*b*c*d*e*/f", "axbxcxdxexxx/fff", false],
  ["a*b?c*x", "abxbbxdbxebxczzx", true],
  ["a*b?c*x", "abxbbxdbxebxczzy", false],
  ["ab[c]", "abc", true],
  ["ab[b-d]", "abc", true],
  ["ab[e-g]", "abc", false],
  ["ab[^c]", "abc", false],
  ["ab[^b-d]", "abc", false],
  ["ab[^e-g]", "abc", true],
  ["a\\*b", "a*b", true],
  ["a\\*b", "ab", false],
  ["a?b", "a\u263ab", true],
  ["a[^a]b", "a\u263ab", true],
  ["a???b", "a\u263ab", false],
  ["a[^a][^a][^a]b", "a\u263ab", false],
  ["[a-\u03b6]*", "\u03b1", true],
  ["*[a-\u03b6]", "A", false],
  ["a?b", "a/b", false],
  ["a*b", "a/b", false],
  ["[\\]a]", "]", true],
  ["[\\-]", "-", true],
  ["[x\\-]", "x", true],
  ["[x\\-]", "-", true],
  ["[x\\-]", "z", false],
  ["[\\-x]", "x", true],
  ["[\\-x]", "-", true],
  ["[\\-x]", "a", false],
  ["*x", "xxx", true],
];

const bad: [string, string][] = [
  ["[]a]", "]"],
  ["[-]", "-"],
  ["[x-]", "x"],
  ["[-x]", "a"],
  ["\\", "a"],
  ["[a-b-c]", "a"],
  ["[", "a"],
  ["[^", "a"],
  ["[^bc", "a"],
  ["a[", "a"],
  ["a[", "ab"],
  ["a[", "x"],
  ["a/b[", "x"],
];

describe("goFilepathMatch", () => {
  it("answers Go's filepath.Match table", () => {
    for (const [pattern, name, expected] of matches) expect(goFilepathMatch(pattern, name), `${pattern} ~ ${name}`).toBe(expected);
  });

  it("reports a malformed pattern as Go's ErrBadPattern, even when the match failed earlier", () => {
    for (const [pattern, name] of bad) expect(() => goFilepathMatch(pattern, name), `${pattern} ~ ${name}`).toThrow(BadPatternError);
  });
});
