/**
 * What a step saw, in the terms the model and the target are compared in (issue 16, differential):
 * status codes, Status reasons, objects without their server-generated fields (uid, timestamps,
 * managedFields), list pages, watch events, and for other representations the media type and what
 * identifies the body (Protobuf's prefix, a Table's columns and rows). resourceVersions and uids
 * are kept as the server sent them: observation-comparison.ts maps each side's onto the other's.
 */

/** An object as compared. */
export interface SeenObject {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, string>>;
  readonly finalizers: readonly string[];
  /** metadata.deletionTimestamp is set. */
  readonly deleting: boolean;
}

/** One page of a list. */
export interface SeenPage {
  readonly code: number;
  readonly reason: string;
  readonly items: readonly SeenObject[];
  readonly more: boolean;
  readonly remainingItemCount: number | undefined;
}

/**
 * One watch event. Bookmarks come when the server chooses, so they are not compared with the
 * model's: a BOOKMARK stands only for its version, checked against the events before it.
 */
export interface SeenEvent {
  readonly type: string;
  /** A BOOKMARK's resourceVersion. */
  readonly bookmarkVersion?: string;
  readonly object: SeenObject | undefined;
  /** An ERROR event's code. */
  readonly code: number | undefined;
}

/** What one step saw. */
export type Observation =
  | { readonly kind: "answer"; readonly code: number; readonly reason: string; readonly object: SeenObject | undefined; readonly statusKind: string | undefined }
  | { readonly kind: "representation"; readonly code: number; readonly reason: string; readonly mediaType: string; readonly body: string }
  | { readonly kind: "list"; readonly pages: readonly SeenPage[] }
  | { readonly kind: "watch-opened"; readonly code: number; readonly reason: string }
  | { readonly kind: "watch-events"; readonly events: readonly SeenEvent[] }
  | { readonly kind: "readyz"; readonly code: number; readonly lastLine: string }
  | { readonly kind: "none" };

/** The object of a JSON body, or undefined when it is none. */
export function seenObject(value: unknown): SeenObject | undefined {
  const object = value as { metadata?: Record<string, unknown>; data?: unknown } | null | undefined;
  const metadata = object?.metadata;
  if (typeof metadata !== "object" || metadata === null || typeof metadata["name"] !== "string") return undefined;
  return {
    name: metadata["name"],
    uid: stringOr(metadata["uid"]),
    resourceVersion: stringOr(metadata["resourceVersion"]),
    labels: stringRecord(metadata["labels"]),
    data: stringRecord(object?.data),
    finalizers: Array.isArray(metadata["finalizers"]) ? metadata["finalizers"].filter((item): item is string => typeof item === "string") : [],
    deleting: metadata["deletionTimestamp"] !== undefined && metadata["deletionTimestamp"] !== null,
  };
}

/** The reason of a Status body ("" for none). */
export function statusReason(value: unknown): string {
  const reason = (value as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === "string" ? reason : "";
}

/** The body as JSON, or undefined. */
export function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
