/**
 * What the history keeps of the server's answers (sim/history/api-history.ts): an object's name,
 * uid, resourceVersion, `data.v` and labels; an error's status and reason. Taken as the server
 * sent them, never normalized: the checkers judge the server, so the record must not fix it up.
 */
import type { FailedAnswer, ObjectState, WatchEvent } from "../../sim/history/api-history.ts";

/** The parts of an object the history keeps. */
export function objectState(object: unknown): ObjectState {
  const value = object as { metadata?: Record<string, unknown>; data?: Record<string, unknown> } | null | undefined;
  const metadata = value?.metadata ?? {};
  const labels = metadata["labels"];
  const v = value?.data?.["v"];
  return {
    name: typeof metadata["name"] === "string" ? metadata["name"] : "",
    uid: typeof metadata["uid"] === "string" ? metadata["uid"] : "",
    resourceVersion: typeof metadata["resourceVersion"] === "string" ? metadata["resourceVersion"] : "",
    value: typeof v === "string" ? v : undefined,
    labels: isStringRecord(labels) ? { ...labels } : {},
  };
}

/**
 * What a successful DELETE answered. Kubernetes answers a ConfigMap's deletion with a Status
 * (`status: Success`, `details: {name, kind, uid}`), not the object (kube-apiserver 1.26,
 * spec/reference/kube-apiserver-1.26 `delete-plain`), so the state has the name and uid and an
 * empty resourceVersion, no value and no labels; when a server returns the object, it is kept.
 */
export function deletedObjectState(body: unknown): ObjectState {
  const status = body as { kind?: unknown; details?: { name?: unknown; uid?: unknown } } | null | undefined;
  if (status?.kind !== "Status") return objectState(body);
  return {
    name: typeof status.details?.name === "string" ? status.details.name : "",
    uid: typeof status.details?.uid === "string" ? status.details.uid : "",
    resourceVersion: "",
    value: undefined,
    labels: {},
  };
}

/** An error answer: its HTTP status and the Status reason ("" when the body has none). */
export function failedAnswer(code: number, body: unknown): FailedAnswer {
  const reason = (body as { reason?: unknown } | null | undefined)?.reason;
  return { type: "failed", code, reason: typeof reason === "string" ? reason : "" };
}

/** One line of a watch stream as the history keeps it; undefined for a line that is no event. */
export function watchEvent(line: unknown, atMs: number): WatchEvent | undefined {
  const event = line as { type?: unknown; object?: unknown } | null | undefined;
  const type = event?.type;
  if (type !== "ADDED" && type !== "MODIFIED" && type !== "DELETED" && type !== "BOOKMARK" && type !== "ERROR") return undefined;
  if (type === "ERROR") {
    const status = event!.object as { code?: unknown; reason?: unknown } | undefined;
    return {
      atMs,
      type,
      object: undefined,
      bookmarkVersion: undefined,
      status: { code: typeof status?.code === "number" ? status.code : 0, reason: typeof status?.reason === "string" ? status.reason : "" },
    };
  }
  if (type === "BOOKMARK") {
    const version = (event!.object as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
    return { atMs, type, object: undefined, bookmarkVersion: typeof version === "string" ? version : "", status: undefined };
  }
  return { atMs, type, object: objectState(event!.object), bookmarkVersion: undefined, status: undefined };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === "string");
}
