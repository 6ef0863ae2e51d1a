/**
 * Reading the untyped JSON of a stored object as Go code reads its typed struct: what a field
 * holds, or Go's zero value when it is absent or of another type (a missing field of a Go struct
 * is its zero value). For Table rows (the printers of internalversion) and field selectors.
 */

export function record(value: unknown): Readonly<Record<string, unknown>> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function integer(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** Set: neither absent nor null (a Go pointer that is not nil). */
export function has(value: unknown): boolean {
  return value !== undefined && value !== null;
}
