import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import type { JsonValue } from "./json-merge-patch.ts";
import {
  applyJsonPatch,
  formatJsonPointer,
  jsonPatchApplyFailedMessage,
  JsonPatchError,
  maxJsonPatchOperations,
  parseJsonPatch,
  parseJsonPointer,
  type JsonPatchFailure,
} from "./json-patch.ts";

const transcripts = loadReferenceTranscripts();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

// Applies with frozen inputs, so any mutation of them throws (ES modules are strict).
function apply(document: unknown, patch: unknown): JsonValue {
  return applyJsonPatch(deepFreeze(document), deepFreeze(patch));
}

function failure(document: unknown, patch: unknown): JsonPatchError {
  try {
    apply(document, patch);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonPatchError);
    return error as JsonPatchError;
  }
  throw new Error("the patch applied");
}

function expectFailure(document: unknown, patch: unknown, kind: JsonPatchFailure, operationIndex?: number): JsonPatchError {
  const error = failure(document, patch);
  expect(error.failure).toBe(kind);
  if (operationIndex !== undefined) expect(error.operationIndex).toBe(operationIndex);
  return error;
}

describe("RFC 6902 Appendix A", () => {
  it("A.1 adds an object member", () => {
    expect(apply({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }])).toEqual({ baz: "qux", foo: "bar" });
  });

  it("A.2 adds an array element", () => {
    expect(apply({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }])).toEqual({ foo: ["bar", "qux", "baz"] });
  });

  it("A.3 removes an object member", () => {
    expect(apply({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }])).toEqual({ foo: "bar" });
  });

  it("A.4 removes an array element", () => {
    expect(apply({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }])).toEqual({ foo: ["bar", "baz"] });
  });

  it("A.5 replaces a value", () => {
    expect(apply({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }])).toEqual({ baz: "boo", foo: "bar" });
  });

  it("A.6 moves a value", () => {
    expect(apply({ foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } }, [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }])).toEqual({
      foo: { bar: "baz" },
      qux: { corge: "grault", thud: "fred" },
    });
  });

  it("A.7 moves an array element", () => {
    expect(apply({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }])).toEqual({ foo: ["all", "cows", "eat", "grass"] });
  });

  it("A.8 tests values successfully", () => {
    const document = { baz: "qux", foo: ["a", 2, "c"] };
    expect(apply(document, [{ op: "test", path: "/baz", value: "qux" }, { op: "test", path: "/foo/1", value: 2 }])).toEqual(document);
  });

  it("A.9 fails a test of another value", () => {
    const error = expectFailure({ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }], "test-failed", 0);
    expect([error.code, error.reason, error.statusMessage, error.malformed]).toEqual([422, "Invalid", jsonPatchApplyFailedMessage, false]);
  });

  it("A.10 adds a nested member object", () => {
    expect(apply({ foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }])).toEqual({ foo: "bar", child: { grandchild: {} } });
  });

  it("A.11 ignores unrecognized members of an operation", () => {
    expect(apply({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux", xyz: 123 }])).toEqual({ foo: "bar", baz: "qux" });
  });

  it("A.12 fails to add to a nonexistent target", () => {
    expectFailure({ foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }], "path-not-found", 0);
  });

  it("A.13 reads a duplicated op as JSON.parse does (the last wins) and fails on the missing member", () => {
    const patch = JSON.parse('[{ "op": "add", "path": "/baz", "value": "qux", "op": "remove" }]') as unknown;
    expectFailure({ foo: "bar" }, patch, "path-not-found", 0);
  });

  it("A.14 unescapes ~01 as ~1, not /", () => {
    const document = { "/": 9, "~1": 10 };
    expect(apply(document, [{ op: "test", path: "/~01", value: 10 }])).toEqual(document);
  });

  it("A.15 does not equate a string with a number", () => {
    expectFailure({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }], "test-failed");
  });

  it("A.16 appends an array value with '-'", () => {
    expect(apply({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }])).toEqual({ foo: ["bar", ["abc", "def"]] });
  });
});

describe("operations", () => {
  it("apply in order, each seeing the previous one's result", () => {
    const patch = [
      { op: "add", path: "/a", value: { b: [] } },
      { op: "add", path: "/a/b/-", value: 1 },
      { op: "add", path: "/a/b/0", value: 0 },
      { op: "copy", from: "/a/b", path: "/c" },
      { op: "replace", path: "/c/1", value: "one" },
      { op: "move", from: "/a", path: "/d" },
      { op: "test", path: "/d", value: { b: [0, 1] } },
      { op: "remove", path: "/c/0" },
    ];
    expect(apply({}, patch)).toEqual({ c: ["one"], d: { b: [0, 1] } });
  });

  it("add replaces an existing member; add at the array length appends", () => {
    expect(apply({ a: 1 }, [{ op: "add", path: "/a", value: 2 }])).toEqual({ a: 2 });
    expect(apply({ a: [1] }, [{ op: "add", path: "/a/1", value: 2 }])).toEqual({ a: [1, 2] });
  });

  it("add and replace at the root pointer replace the document; remove of the root fails", () => {
    expect(apply({ a: 1 }, [{ op: "add", path: "", value: [1] }])).toEqual([1]);
    expect(apply({ a: 1 }, [{ op: "replace", path: "", value: { b: 2 } }])).toEqual({ b: 2 });
    expectFailure({ a: 1 }, [{ op: "remove", path: "" }], "invalid-operation");
  });

  it("copy makes an independent copy", () => {
    expect(apply({ a: { x: 1 } }, [{ op: "copy", from: "/a", path: "/b" }, { op: "replace", path: "/b/x", value: 2 }])).toEqual({ a: { x: 1 }, b: { x: 2 } });
  });

  it("move to the same place changes nothing, and into its own child fails", () => {
    expect(apply({ a: { b: 1 } }, [{ op: "move", from: "/a", path: "/a" }])).toEqual({ a: { b: 1 } });
    expectFailure({ a: { b: 1 } }, [{ op: "move", from: "/a", path: "/a/b/c" }], "invalid-operation");
    expectFailure({ a: 1 }, [{ op: "move", from: "/x", path: "/x" }], "path-not-found");
    expect(apply({ a: { b: 1 } }, [{ op: "move", from: "/a", path: "/ab" }])).toEqual({ ab: { b: 1 } });
  });

  it("test compares JSON values: objects regardless of member order, arrays in order, null is not absent", () => {
    expect(apply({ o: { x: 1, y: [1, 2] } }, [{ op: "test", path: "/o", value: { y: [1, 2], x: 1 } }])).toEqual({ o: { x: 1, y: [1, 2] } });
    expectFailure({ a: [1, 2] }, [{ op: "test", path: "/a", value: [2, 1] }], "test-failed");
    expectFailure({ a: { x: 1 } }, [{ op: "test", path: "/a", value: { x: 1, y: 2 } }], "test-failed");
    expectFailure({ a: null }, [{ op: "test", path: "/a", value: {} }], "test-failed");
    expectFailure({}, [{ op: "test", path: "/a", value: null }], "path-not-found");
    expect(apply({ a: null }, [{ op: "test", path: "/a", value: null }])).toEqual({ a: null });
    expect(apply({ n: 1 }, [{ op: "test", path: "/n", value: 1.0 }])).toEqual({ n: 1 });
  });

  it("treats __proto__ as an ordinary member", () => {
    const patch = JSON.parse('[{"op": "add", "path": "/__proto__", "value": {"polluted": true}}]') as unknown;
    const result = apply({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("stops at the first failing operation, leaving its input untouched", () => {
    const document = { a: 1 };
    expectFailure(document, [{ op: "add", path: "/b", value: 2 }, { op: "test", path: "/a", value: 2 }, { op: "remove", path: "/a" }], "test-failed", 1);
    expect(document).toEqual({ a: 1 });
  });

  it("reads each operation only when reached: a failed test before an unknown op reports the test", () => {
    expectFailure({ a: 1 }, [{ op: "test", path: "/a", value: 2 }, { op: "frobnicate", path: "/a" }], "test-failed", 0);
  });
});

describe("pointers and indices", () => {
  it("fail on a missing member, an out-of-range index, '-' outside add, or a non-container parent", () => {
    expectFailure({ a: {} }, [{ op: "remove", path: "/a/b" }], "path-not-found");
    expectFailure({ a: {} }, [{ op: "replace", path: "/a/b", value: 1 }], "path-not-found");
    expectFailure({ a: [1] }, [{ op: "add", path: "/a/2", value: 1 }], "path-not-found");
    expectFailure({ a: [1] }, [{ op: "remove", path: "/a/1" }], "path-not-found");
    expectFailure({ a: [1] }, [{ op: "replace", path: "/a/-", value: 1 }], "path-not-found");
    expectFailure({ a: [1] }, [{ op: "test", path: "/a/-", value: 1 }], "path-not-found");
    expectFailure({ a: "text" }, [{ op: "add", path: "/a/b", value: 1 }], "path-not-found");
    expectFailure({ a: [1] }, [{ op: "add", path: "/a/x", value: 1 }], "path-not-found");
  });

  it("reject indices Kubernetes' library would stretch: leading zeros, negatives", () => {
    expectFailure({ a: [1, 2] }, [{ op: "remove", path: "/a/01" }], "path-not-found");
    expectFailure({ a: [1, 2] }, [{ op: "remove", path: "/a/-1" }], "path-not-found");
  });

  it("reject malformed pointers as invalid operations", () => {
    expectFailure({ a: 1 }, [{ op: "remove", path: "a" }], "invalid-operation");
    expectFailure({ a: 1 }, [{ op: "remove", path: "/a~2" }], "invalid-operation");
    expectFailure({ a: 1 }, [{ op: "remove", path: "/a~" }], "invalid-operation");
    expectFailure({ a: 1 }, [{ op: "copy", from: "nope", path: "/b" }], "invalid-operation");
  });

  it("parse and format RFC 6901 pointers", () => {
    expect(parseJsonPointer("")).toEqual([]);
    expect(parseJsonPointer("/")).toEqual([""]);
    expect(parseJsonPointer("/a~1b/c~0d/~01")).toEqual(["a/b", "c~d", "~1"]);
    expect(parseJsonPointer("/a//b")).toEqual(["a", "", "b"]);
    expect(formatJsonPointer(["a/b", "c~d", "~1"])).toBe("/a~1b/c~0d/~01");
    expect(formatJsonPointer([])).toBe("");
    expect(() => parseJsonPointer("x")).toThrow(JsonPatchError);
  });

  it("reach members whose names need escaping", () => {
    expect(apply({ "a/b": { "m~n": 1 } }, [{ op: "replace", path: "/a~1b/m~0n", value: 2 }])).toEqual({ "a/b": { "m~n": 2 } });
    expect(apply({ "": { "": 1 } }, [{ op: "remove", path: "//" }])).toEqual({ "": {} });
  });
});

describe("malformed patches and Kubernetes' statuses", () => {
  it("answers a body that is not an array of objects with 400 and Go's decoding message", () => {
    const cases: [unknown, string][] = [
      [{ op: "add" }, "json: cannot unmarshal object into Go value of type jsonpatch.Patch"],
      ["x", "json: cannot unmarshal string into Go value of type jsonpatch.Patch"],
      [1, "json: cannot unmarshal number into Go value of type jsonpatch.Patch"],
      [true, "json: cannot unmarshal bool into Go value of type jsonpatch.Patch"],
      [[1], "json: cannot unmarshal number into Go value of type jsonpatch.Operation"],
      [[[]], "json: cannot unmarshal array into Go value of type jsonpatch.Operation"],
      [[{ op: "test", path: "/a", value: 1 }, "x"], "json: cannot unmarshal string into Go value of type jsonpatch.Operation"],
    ];
    for (const [patch, message] of cases) {
      const error = expectFailure({ a: 1 }, patch, "not-a-patch");
      expect([error.code, error.reason, error.message, error.statusMessage, error.malformed, error.operationIndex]).toEqual([
        400,
        "BadRequest",
        message,
        message,
        true,
        undefined,
      ]);
    }
  });

  it("applies a null body as an empty patch (Go decodes null as an empty list), and an empty list as nothing", () => {
    expect(apply({ a: 1 }, null)).toEqual({ a: 1 });
    expect(apply({ a: 1 }, [])).toEqual({ a: 1 });
  });

  it("answers operations that cannot be read with 422, as Kubernetes' apply step does", () => {
    const cases: unknown[][] = [
      [{ op: "frobnicate", path: "/a" }],
      [{ path: "/a" }],
      [null],
      [{ op: 1, path: "/a" }],
      [{ op: "remove" }],
      [{ op: "remove", path: 5 }],
      [{ op: "add", path: "/b" }],
      [{ op: "replace", path: "/a" }],
      [{ op: "test", path: "/a" }],
      [{ op: "move", path: "/b" }],
      [{ op: "copy", from: 1, path: "/b" }],
    ];
    for (const patch of cases) {
      const error = expectFailure({ a: 1 }, patch, "invalid-operation", 0);
      expect([error.code, error.reason, error.statusMessage, error.malformed]).toEqual([422, "Invalid", jsonPatchApplyFailedMessage, false]);
    }
  });

  it("answers more than 10000 operations with 413", () => {
    expect(maxJsonPatchOperations).toBe(10000);
    const many = Array.from({ length: 10001 }, () => ({ op: "test", path: "/a", value: 1 }));
    const error = expectFailure({ a: 1 }, many, "too-many-operations");
    expect([error.code, error.reason, error.statusMessage]).toEqual([
      413,
      "RequestEntityTooLarge",
      "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
    ]);
    expect(apply({ a: 1 }, many.slice(1))).toEqual({ a: 1 });
  });

  it("checks a whole patch without applying it", () => {
    expect(parseJsonPatch([{ op: "move", from: "/a", path: "/b", extra: 1 }])).toEqual([{ op: "move", from: "/a", path: "/b" }]);
    expect(() => parseJsonPatch([{ op: "test", path: "/a", value: 1 }, { op: "nope" }])).toThrow(JsonPatchError);
  });
});

describe("reference transcripts", () => {
  const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm-1", namespace: "ref-main" }, data: { key: "cm-1", merged: "yes" } };

  it("adds /data/jp as in patch-json", () => {
    expect(apply(configMap, [{ op: "add", path: "/data/jp", value: "1" }])).toEqual({ ...configMap, data: { key: "cm-1", merged: "yes", jp: "1" } });
  });

  it("fails patch-json-bad-test's test op with 422 Invalid and the generic message", () => {
    const error = expectFailure(configMap, [{ op: "test", path: "/data/key", value: "nope" }], "test-failed", 0);
    expect([error.code, error.reason, error.statusMessage]).toEqual([422, "Invalid", "the server rejected our request due to an error in our request"]);
  });

  it("agree with the recorded answers", () => {
    const good = transcriptById(transcripts, "patch-json");
    const goodBody = transcriptJson(good) as { data: Record<string, string> };
    const patched = apply(configMap, (good.request as unknown as { body: unknown }).body) as { data: Record<string, string> };
    expect(patched.data["jp"]).toBe(goodBody.data["jp"]);

    const bad = transcriptById(transcripts, "patch-json-bad-test");
    const status = transcriptJson(bad) as { code: number; reason: string; message: string; details: object };
    const error = failure(configMap, (bad.request as unknown as { body: unknown }).body);
    expect([error.code, error.reason, error.statusMessage]).toEqual([status.code, status.reason, status.message]);
    expect(status.details).toEqual({});
  });
});

describe("properties", () => {
  const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
  const memberName = fc.string({ maxLength: 4 });
  const document = fc.dictionary(memberName, json, { maxKeys: 4 }) as fc.Arbitrary<Record<string, JsonValue>>;

  it("test after add on the same path succeeds, and the value is there", () => {
    fc.assert(
      fc.property(document, memberName, json, (doc, name, value) => {
        const path = formatJsonPointer([name]);
        const result = apply(doc, [
          { op: "add", path, value },
          { op: "test", path, value },
        ]) as Record<string, JsonValue>;
        expect(result[name]).toEqual(value);
      }),
    );
  });

  it("add then remove of a new member gives the document back", () => {
    fc.assert(
      fc.property(document, memberName, json, (doc, name, value) => {
        fc.pre(!Object.hasOwn(doc, name));
        const path = formatJsonPointer([name]);
        expect(apply(doc, [{ op: "add", path, value }, { op: "remove", path }])).toEqual(doc);
      }),
    );
  });

  it("move there and back gives the document back", () => {
    fc.assert(
      fc.property(document, memberName, (doc, target) => {
        const [source] = Object.keys(doc);
        fc.pre(source !== undefined && !Object.hasOwn(doc, target));
        const from = formatJsonPointer([source!]);
        const path = formatJsonPointer([target]);
        expect(apply(doc, [{ op: "move", from, path }, { op: "move", from: path, path: from }])).toEqual(doc);
      }),
    );
  });

  it("pointers round-trip through format and parse", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom("a", "/", "~", "0", "1") })), (tokens) => {
        expect(parseJsonPointer(formatJsonPointer(tokens))).toEqual(tokens);
      }),
    );
  });

  it("only ever throws JsonPatchError, and never modifies its inputs, on arbitrary patches", () => {
    const operation = fc.record(
      {
        op: fc.constantFrom("add", "remove", "replace", "move", "copy", "test", "nope"),
        path: fc.constantFrom("", "/", "/a", "/a/0", "/a/-", "/b/c", "a", "/~2"),
        from: fc.constantFrom("/a", "/b", "/a/0", ""),
        value: json,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(document, fc.array(operation, { maxLength: 4 }), (doc, patch) => {
        try {
          apply(doc, patch);
        } catch (error) {
          expect(error).toBeInstanceOf(JsonPatchError);
        }
      }),
    );
  });
});
