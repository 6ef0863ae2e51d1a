/**
 * JSON Patch (RFC 6902) with JSON Pointer (RFC 6901), the body of a PATCH with Content-Type
 * `application/json-patch+json` (doc1/1/verbs/update-not-patch, doc1/4.1/modify/returns-object;
 * the format and its errors are Kubernetes behaviour, not shown in doc 1).
 *
 * Operations apply in order to a copy of the document; the first that cannot apply stops the
 * patch and nothing of it takes effect. Errors are JsonPatchError, whose `code`, `reason` and
 * `statusMessage` are what a Kubernetes 1.26 server answers (its PATCH handler):
 * - the body is not a JSON array of objects: 400 BadRequest, message = Go's JSON decoding error;
 * - more than 10000 operations: 413 RequestEntityTooLarge;
 * - any operation that cannot apply (failed `test`, missing path, unknown `op`, missing member):
 *   422 Invalid with the fixed message "the server rejected our request due to an error in our
 *   request" and empty details (transcript patch-json-bad-test): Kubernetes drops the reason.
 *
 * This follows RFC 6902 where Kubernetes' JSON patch library is laxer; all such cases are 422 here
 * and may succeed on a real server: negative or zero-padded array indices, a path without its
 * leading '/', `add`/`replace` at the root pointer "" (RFC allows it, the library does not, so
 * there a real server fails where this succeeds), a missing `value` (the library adds null), and
 * `test` of an absent member against null.
 */
import { cloneJson, setMember, type JsonValue } from "./json-value.ts";
import { maxNestingDepth, nestingDepthOf } from "../request/nesting-depth.ts";

/** One operation of a patch, checked: the members RFC 6902 requires for its `op` are present and well-typed. */
export type JsonPatchOperation =
  | { readonly op: "add" | "replace" | "test"; readonly path: string; readonly value: JsonValue }
  | { readonly op: "remove"; readonly path: string }
  | { readonly op: "move" | "copy"; readonly from: string; readonly path: string };

/** Why a patch failed; each maps to one Kubernetes status (see JsonPatchError.code). */
export type JsonPatchFailure =
  | "not-a-patch" // the body is not an array of objects (400)
  | "too-many-operations" // more than maxJsonPatchOperations (413)
  | "invalid-operation" // unknown op, missing or mistyped member, malformed pointer, move into itself (422)
  | "path-not-found" // a pointer names nothing, or an array index is out of range (422)
  | "test-failed" // a test op found another value (422)
  | "too-deep"; // an op would nest the document past maxNestingDepth (422, as a patched object Kubernetes cannot decode)

/** The most operations a Kubernetes server applies in one JSON patch. */
export const maxJsonPatchOperations = 10000;

/** The Status message a Kubernetes server gives every JSON patch that decodes but cannot apply. */
export const jsonPatchApplyFailedMessage = "the server rejected our request due to an error in our request";

/** A JSON patch that cannot be decoded or applied, with the status a Kubernetes server answers it with. */
export class JsonPatchError extends Error {
  constructor(
    /** Which rule the patch broke. */
    readonly failure: JsonPatchFailure,
    message: string,
    /** Index of the operation that failed; undefined for a failure of the whole document. */
    readonly operationIndex?: number,
  ) {
    super(message);
    this.name = "JsonPatchError";
  }

  /** Whether the patch document itself is malformed (Kubernetes answers 400) rather than failing to apply (422). */
  get malformed(): boolean {
    return this.failure === "not-a-patch";
  }

  /** The HTTP status a Kubernetes server answers. */
  get code(): 400 | 413 | 422 {
    if (this.failure === "not-a-patch") return 400;
    if (this.failure === "too-many-operations") return 413;
    return 422;
  }

  /** The Status reason a Kubernetes server answers. */
  get reason(): "BadRequest" | "RequestEntityTooLarge" | "Invalid" {
    if (this.failure === "not-a-patch") return "BadRequest";
    if (this.failure === "too-many-operations") return "RequestEntityTooLarge";
    return "Invalid";
  }

  /**
   * The Status message a Kubernetes server answers: this error's message for a 400, prefixed
   * "Request entity too large: " for a 413, and the fixed jsonPatchApplyFailedMessage for a 422
   * (Kubernetes keeps the library's explanation out of the response).
   */
  get statusMessage(): string {
    if (this.failure === "not-a-patch") return this.message;
    if (this.failure === "too-many-operations") return `Request entity too large: ${this.message}`;
    return jsonPatchApplyFailedMessage;
  }
}

/**
 * `document` with `patch` applied. `patch` is the parsed request body; it is checked here, so
 * any JSON value may be passed. Neither argument is modified. Throws JsonPatchError.
 */
export function applyJsonPatch(document: unknown, patch: unknown): JsonValue {
  const rawOperations = decodeJsonPatch(patch);
  let result = cloneJson(document);
  rawOperations.forEach((raw, index) => {
    // Each operation is read only when reached, as Kubernetes does: a failing test before an
    // unknown op reports the test.
    result = applyOperation(result, readOperation(raw, index), index);
  });
  return result;
}

/** The operations of `patch`, all checked (shape and pointers) without applying them. Throws JsonPatchError. */
export function parseJsonPatch(patch: unknown): JsonPatchOperation[] {
  return decodeJsonPatch(patch).map(readOperation);
}

/** The reference tokens of an RFC 6901 pointer ("" is the whole document); `~1` is '/', `~0` is '~'. Throws JsonPatchError. */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new JsonPatchError("invalid-operation", `JSON pointer ${JSON.stringify(pointer)} does not start with '/'`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~(?![01])/.test(token)) throw new JsonPatchError("invalid-operation", `JSON pointer ${JSON.stringify(pointer)} has a '~' not followed by 0 or 1`);
      // One pass, so "~01" is "~1" (RFC 6901 §4: ~1 then ~0 would wrongly give "/").
      return token.replace(/~[01]/g, (escape) => (escape === "~1" ? "/" : "~"));
    });
}

/** The RFC 6901 pointer of reference tokens: '~' written `~0`, '/' written `~1`. */
export function formatJsonPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

// The patch as Kubernetes' decoder sees it: a JSON array of objects. `null` decodes as an empty
// patch there (Go unmarshals null into a nil slice), so it does here too.
function decodeJsonPatch(patch: unknown): readonly unknown[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) throw new JsonPatchError("not-a-patch", goUnmarshalError(patch, "jsonpatch.Patch"));
  for (const element of patch) {
    // A null element decodes (as an empty map) and fails later as an operation of unknown kind.
    if (element !== null && (typeof element !== "object" || Array.isArray(element))) {
      throw new JsonPatchError("not-a-patch", goUnmarshalError(element, "jsonpatch.Operation"));
    }
  }
  if (patch.length > maxJsonPatchOperations) {
    throw new JsonPatchError("too-many-operations", `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${patch.length}`);
  }
  return patch;
}

// Go's json.UnmarshalTypeError text for a value of the wrong JSON type.
function goUnmarshalError(value: unknown, goType: string): string {
  const jsonType = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value === "boolean" ? "bool" : typeof value;
  return `json: cannot unmarshal ${jsonType} into Go value of type ${goType}`;
}

function readOperation(raw: unknown, index: number): JsonPatchOperation {
  const members = (raw ?? {}) as Record<string, unknown>;
  const op = members["op"];
  const invalid = (why: string) => new JsonPatchError("invalid-operation", `operation ${index}: ${why}`, index);
  const pointer = (name: "path" | "from"): string => {
    if (!Object.hasOwn(members, name)) throw invalid(`missing "${name}"`);
    const value = members[name];
    if (typeof value !== "string") throw invalid(`"${name}" is not a string`);
    withIndex(() => parseJsonPointer(value), index);
    return value;
  };
  const value = (): JsonValue => {
    if (!Object.hasOwn(members, "value")) throw invalid(`missing "value" for op "${String(op)}"`);
    return members["value"] as JsonValue;
  };
  switch (op) {
    case "add":
    case "replace":
    case "test":
      return { op, path: pointer("path"), value: value() };
    case "remove":
      return { op, path: pointer("path") };
    case "move":
    case "copy":
      return { op, from: pointer("from"), path: pointer("path") };
    default:
      throw invalid(`unknown op ${typeof op === "string" ? JSON.stringify(op) : "(missing or not a string)"}`);
  }
}

function applyOperation(document: JsonValue, operation: JsonPatchOperation, index: number): JsonValue {
  return withIndex(() => {
    switch (operation.op) {
      case "add":
        return add(document, parseJsonPointer(operation.path), cloneJson(operation.value));
      case "remove":
        remove(document, parseJsonPointer(operation.path));
        return document;
      case "replace": {
        const tokens = parseJsonPointer(operation.path);
        checkDepth(tokens, operation.value);
        if (tokens.length === 0) return cloneJson(operation.value);
        const { container, token } = locate(document, tokens);
        // Unlike add, replace needs the target to exist (RFC 6902 §4.3).
        if (Array.isArray(container)) container[arrayIndex(container, token, false)] = cloneJson(operation.value);
        else if (Object.hasOwn(container, token)) setMember(container, token, cloneJson(operation.value));
        else throw new JsonPatchError("path-not-found", `${operation.path}: no member ${JSON.stringify(token)}`);
        return document;
      }
      case "move": {
        if (operation.from === operation.path) {
          get(document, parseJsonPointer(operation.from)); // still must exist
          return document;
        }
        if (operation.path.startsWith(`${operation.from}/`)) {
          throw new JsonPatchError("invalid-operation", `cannot move ${operation.from} into its own child ${operation.path}`);
        }
        const value = get(document, parseJsonPointer(operation.from));
        const removed = remove(document, parseJsonPointer(operation.from));
        return add(removed, parseJsonPointer(operation.path), value);
      }
      case "copy":
        return add(document, parseJsonPointer(operation.path), cloneJson(get(document, parseJsonPointer(operation.from))));
      case "test": {
        const actual = get(document, parseJsonPointer(operation.path));
        if (!jsonEqual(actual, operation.value)) {
          throw new JsonPatchError("test-failed", `test failed: the value at ${operation.path} is not the expected value`);
        }
        return document;
      }
    }
  }, index);
}

// Attaches the operation index to an error thrown by a step that does not know it.
function withIndex<T>(step: () => T, index: number): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof JsonPatchError && error.operationIndex === undefined) {
      throw new JsonPatchError(error.failure, `operation ${index}: ${error.message}`, index);
    }
    throw error;
  }
}

type Container = JsonValue[] | { [member: string]: JsonValue };

// The container holding the last token's location, which must exist up to that container.
function locate(document: JsonValue, tokens: readonly string[]): { container: Container; token: string } {
  let current: JsonValue = document;
  for (const token of tokens.slice(0, -1)) current = child(current, token, tokens);
  if (current === null || typeof current !== "object") {
    throw new JsonPatchError("path-not-found", `${formatJsonPointer(tokens)}: the parent is not an object or array`);
  }
  return { container: current, token: tokens[tokens.length - 1]! };
}

function child(value: JsonValue, token: string, tokens: readonly string[]): JsonValue {
  if (Array.isArray(value)) return value[arrayIndex(value, token, false)]!;
  if (value !== null && typeof value === "object" && Object.hasOwn(value, token)) return value[token]!;
  throw new JsonPatchError("path-not-found", `${formatJsonPointer(tokens)}: no member ${JSON.stringify(token)}`);
}

// An array index token: "0" or digits without a leading zero, within the array (or one past its
// end, or "-", when adding).
function arrayIndex(array: readonly JsonValue[], token: string, forAdd: boolean): number {
  if (forAdd && token === "-") return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchError("path-not-found", `${JSON.stringify(token)} is not an array index`);
  const index = Number(token);
  if (index > array.length || (!forAdd && index === array.length)) {
    throw new JsonPatchError("path-not-found", `array index ${token} is out of range (length ${array.length})`);
  }
  return index;
}

function get(document: JsonValue, tokens: readonly string[]): JsonValue {
  let current = document;
  for (const token of tokens) current = child(current, token, tokens);
  return current;
}

function add(document: JsonValue, tokens: readonly string[], value: JsonValue): JsonValue {
  checkDepth(tokens, value);
  if (tokens.length === 0) return value;
  const { container, token } = locate(document, tokens);
  if (Array.isArray(container)) container.splice(arrayIndex(container, token, true), 0, value);
  else setMember(container, token, value);
  return document;
}

// The body's depth was bounded on the way in, but copy and move can nest the document deeper with
// each operation (copying a member into itself doubles its depth), so each placed value is checked
// where it lands, before anything recursive (the next op's clone, the response) sees the result.
function checkDepth(tokens: readonly string[], value: JsonValue): void {
  if (tokens.length + nestingDepthOf(value) > maxNestingDepth) {
    throw new JsonPatchError("too-deep", `${formatJsonPointer(tokens)}: the result would nest deeper than ${maxNestingDepth} levels`);
  }
}

function remove(document: JsonValue, tokens: readonly string[]): JsonValue {
  if (tokens.length === 0) throw new JsonPatchError("invalid-operation", "cannot remove the whole document");
  const { container, token } = locate(document, tokens);
  if (Array.isArray(container)) {
    container.splice(arrayIndex(container, token, false), 1);
  } else {
    if (!Object.hasOwn(container, token)) throw new JsonPatchError("path-not-found", `${formatJsonPointer(tokens)}: no member ${JSON.stringify(token)}`);
    delete container[token];
  }
  return document;
}

// RFC 6902 §4.6 equality: same type; numbers by value; strings by code units; arrays element by
// element; objects by member set regardless of order.
function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]!));
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key]!, b[key]!));
}

