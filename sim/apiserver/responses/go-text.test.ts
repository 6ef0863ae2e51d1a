import { describe, expect, it } from "vitest";
import { goJson } from "./go-text.ts";

describe("goJson", () => {
  it("escapes as Go's encoding/json does: <, >, & and the two line separators, everywhere; nothing else", () => {
    expect(goJson({ cell: "<none>", q: "a&b>c", sep: "x\u2028y\u2029z" })).toBe('{"cell":"\\u003cnone\\u003e","q":"a\\u0026b\\u003ec","sep":"x\\u2028y\\u2029z"}\n');
    expect(goJson({ plain: "ünïcode ✓", n: 1 })).toBe('{"plain":"ünïcode ✓","n":1}\n');
  });

  it("escapes every occurrence, also in one body after another", () => {
    expect(goJson(["<<", ">>"])).toBe('["\\u003c\\u003c","\\u003e\\u003e"]\n');
    expect(goJson(["<"])).toBe('["\\u003c"]\n');
  });
});
