/**
 * metadata.managedFields as Kubernetes keeps it: one entry per manager (an Apply entry per manager
 * and subresource; an Update entry per manager, apiVersion and subresource), each with its
 * operation, apiVersion, time (RFC 3339, seconds), `fieldsType: FieldsV1` and its fields, in
 * Kubernetes' order: Apply before Update, then by time, manager, apiVersion and subresource.
 */
import { FieldSet } from "./field-set.ts";

/** One manager's entry, its fields decoded. */
export interface ManagerEntry {
  readonly manager: string;
  readonly operation: "Apply" | "Update";
  readonly apiVersion: string;
  /** Absent where Kubernetes writes none (writes through the scale subresource, recorded). */
  readonly time?: string | undefined;
  readonly subresource?: string | undefined;
  readonly fields: FieldSet;
}

/** Who writes: a manager's name, the operation, and where. */
export interface Writer {
  readonly manager: string;
  readonly operation: "Apply" | "Update";
  readonly apiVersion: string;
  readonly subresource?: string | undefined;
}

/**
 * The identity of an entry (Kubernetes' BuildManagerIdentifier): an applier is the same manager
 * whatever apiVersion it applies with; an updater is one per apiVersion.
 */
export function managerIdentity(writer: Writer): string {
  return JSON.stringify([writer.manager, writer.operation, writer.operation === "Apply" ? "" : writer.apiVersion, writer.subresource ?? ""]);
}

/** The entries of a stored object's managedFields (malformed entries are skipped, as they cannot be owners). */
export function decodeManagedFields(value: unknown): ManagerEntry[] {
  if (!Array.isArray(value)) return [];
  const out: ManagerEntry[] = [];
  for (const entry of value) {
    if (entry === null || typeof entry !== "object") continue;
    const record = entry as Record<string, unknown>;
    const operation = record["operation"];
    if (operation !== "Apply" && operation !== "Update") continue;
    out.push({
      manager: typeof record["manager"] === "string" ? record["manager"] : "",
      operation,
      apiVersion: typeof record["apiVersion"] === "string" ? record["apiVersion"] : "",
      ...(typeof record["time"] === "string" && { time: record["time"] }),
      ...(typeof record["subresource"] === "string" && record["subresource"] !== "" && { subresource: record["subresource"] }),
      fields: FieldSet.fromFieldsV1(record["fieldsV1"]),
    });
  }
  return out;
}

/** The managedFields of `entries`, sorted as Kubernetes sorts them; entries without fields dropped. */
export function encodeManagedFields(entries: readonly ManagerEntry[]): Record<string, unknown>[] {
  return entries
    .filter((entry) => !entry.fields.isEmpty())
    .sort(compareEntries)
    .map((entry) => encodeEntry(entry, entry.fields.toFieldsV1()));
}

/** One entry of managedFields, its fields already in FieldsV1 form. */
export function encodeEntry(entry: Omit<ManagerEntry, "fields">, fieldsV1: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.apiVersion,
    ...(entry.time !== undefined && { time: entry.time }),
    fieldsType: "FieldsV1",
    fieldsV1,
    ...(entry.subresource !== undefined && { subresource: entry.subresource }),
  };
}

function compareEntries(a: ManagerEntry, b: ManagerEntry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  const aSeconds = a.time === undefined ? 0 : Date.parse(a.time);
  const bSeconds = b.time === undefined ? 0 : Date.parse(b.time);
  if (aSeconds !== bSeconds) return aSeconds - bSeconds;
  for (const [x, y] of [
    [a.manager, b.manager],
    [a.apiVersion, b.apiVersion],
    [a.subresource ?? "", b.subresource ?? ""],
  ] as const) {
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
