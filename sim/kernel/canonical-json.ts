/**
 * Canonical JSON: one byte-exact text per value, so that traces, store hashes and reports can be
 * compared and hashed across runs and machines.
 *
 * Rules: object keys sorted recursively (by UTF-16 code units, `Array.prototype.sort`'s default,
 * which does not depend on locale), no whitespace, properties whose value is `undefined` omitted,
 * `toJSON` honoured (so a `Date` becomes its ISO string). Values that plain `JSON.stringify` would
 * silently drop or distort (functions, symbols, bigints, NaN and ±Infinity, Map, Set, typed
 * arrays, cycles) throw instead: a canonical form that loses information would let two different
 * runs hash the same.
 */

/** Returns the canonical JSON text of `value`; throws a TypeError for values JSON cannot carry. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) {
    throw new TypeError("canonicalJson: undefined has no JSON form");
  }
  // The trace's most frequent line lists node names: for strings the canonical form is
  // JSON.stringify's, so skip the walker's bookkeeping (a cycle set and a parts list per call).
  if (Array.isArray(value) && isStringArray(value)) return JSON.stringify(value);
  const parts: string[] = [];
  writeValue(value, parts, new Set<object>(), "$");
  return parts.join("");
}

function writeValue(value: unknown, parts: string[], ancestors: Set<object>, path: string): void {
  const json = applyToJson(value);
  switch (typeof json) {
    case "string":
    case "boolean":
      parts.push(JSON.stringify(json));
      return;
    case "number":
      if (!Number.isFinite(json)) {
        throw new TypeError(`canonicalJson: non-finite number ${json} at ${path}`);
      }
      parts.push(JSON.stringify(json));
      return;
    case "object":
      if (json === null) {
        parts.push("null");
        return;
      }
      writeContainer(json, parts, ancestors, path);
      return;
    default:
      // undefined (only reachable inside arrays or from toJSON), function, symbol, bigint.
      throw new TypeError(`canonicalJson: a ${typeof json} has no JSON form (at ${path})`);
  }
}

function writeContainer(value: object, parts: string[], ancestors: Set<object>, path: string): void {
  if (value instanceof Map || value instanceof Set || ArrayBuffer.isView(value)) {
    throw new TypeError(`canonicalJson: ${value.constructor.name} would serialize lossily (at ${path})`);
  }
  if (ancestors.has(value)) {
    throw new TypeError(`canonicalJson: cycle at ${path}`);
  }
  if (Array.isArray(value) && isStringArray(value)) {
    // As at the top: for strings the canonical form is JSON.stringify's, without a path per element.
    parts.push(JSON.stringify(value));
    return;
  }
  ancestors.add(value);
  if (Array.isArray(value)) {
    parts.push("[");
    // An index loop, not forEach, which skips holes: a hole or undefined element is an error
    // rather than JSON.stringify's null, so `[undefined]` and `[null]` never share a canonical form.
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(",");
      writeValue(value[index], parts, ancestors, `${path}[${index}]`);
    }
    parts.push("]");
  } else {
    writeObject(value as Record<string, unknown>, parts, ancestors, path);
  }
  ancestors.delete(value);
}

function writeObject(
  value: Record<string, unknown>,
  parts: string[],
  ancestors: Set<object>,
  path: string,
): void {
  parts.push("{");
  let first = true;
  for (const key of Object.keys(value).sort()) {
    const member = value[key];
    if (member === undefined) continue;
    if (!first) parts.push(",");
    first = false;
    parts.push(JSON.stringify(key), ":");
    writeValue(member, parts, ancestors, `${path}.${key}`);
  }
  parts.push("}");
}

// Holes read as undefined, so an array with holes takes the general path (and throws there).
function isStringArray(value: readonly unknown[]): value is readonly string[] {
  for (let index = 0; index < value.length; index++) if (typeof value[index] !== "string") return false;
  return true;
}

function applyToJson(value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson === "function") return (toJson as () => unknown).call(value);
  }
  return value;
}
