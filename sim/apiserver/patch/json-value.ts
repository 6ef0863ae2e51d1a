/** JSON values as the patch formats handle them: the type, and copies that cannot be poisoned. */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [member: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [member: string]: JsonValue };

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The member `name` of `object` itself: one named like Object's own (`constructor`, `toString`) is absent unless set. */
export function ownMember(object: object, name: string): unknown {
  return Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined;
}

/**
 * Sets a member. Plain assignment of "__proto__" would change the object's prototype instead of
 * adding the member JSON.parse gave us; it is defined as an own property like any other name.
 */
export function setMember(object: JsonObject, name: string, value: JsonValue): void {
  if (name === "__proto__") Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
  else object[name] = value;
}

/** A deep copy sharing nothing with `value`. */
export function cloneJson(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isJsonObject(value)) {
    const copy: JsonObject = {};
    for (const [name, member] of Object.entries(value)) setMember(copy, name, cloneJson(member));
    return copy;
  }
  return value as JsonValue;
}

/**
 * The items of a list of structs as Go decodes them: absent or null is an empty list, and a null
 * item is the zero struct (`{}`). The value types were checked on the way in (value-types.ts), so
 * a non-list here is only ever absent or null.
 */
export function structItems(value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown) => (isJsonObject(item) ? item : {}));
}
