/**
 * The recorded history of a concurrent workload against one API server (issue 15): every request
 * and its answer, every watch event, with client-side start and end times, the client that made
 * it, and answers that never came (uncertain outcomes). `soak` (conformance/soak) records it from
 * any server; the history checkers (sim/history) read it and nothing else, as pure functions.
 *
 * The workload writes ConfigMaps in one namespace of its own. Every write that changes an object
 * sets `data.v` to a value used by no other write of the run (`<client>-<sequence>`), so the
 * state of the namespace after each write is distinct from every other state, and an object seen
 * anywhere (a watch event, a list, a get) names the write that produced it. Versions are opaque
 * (doc 1 §2.2): the checkers learn the server's order of writes from what watches deliver and
 * never compare two versions as numbers.
 *
 * Times are milliseconds of the recording process's monotonic clock (conformance/soak reads it;
 * the checkers never do), so they order what one process saw, not what the server did: "A was
 * answered before B was sent" is `A.endMs < B.startMs`.
 */

/** What the history keeps of an object: enough to name the write that made it. */
export interface ObjectState {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  /** `data.v`: the unique value of the write that produced this state (absent if none). */
  readonly value: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
}

/** An answer that came and was an error: its HTTP status and the Status reason. */
export interface FailedAnswer {
  readonly type: "failed";
  readonly code: number;
  readonly reason: string;
}

/**
 * No answer: a timeout, a reset connection, a body cut short. For a write, it may or may not have
 * happened (doc 1 says nothing; etcd's robustness tests branch on both, and so do the checkers).
 */
export interface UncertainAnswer {
  readonly type: "uncertain";
  readonly error: string;
}

/** Fields every operation has. */
export interface OperationTimes {
  /** Unique in the history, in the order operations started. */
  readonly id: number;
  /** The client that made it (`HistoryClient.id`). */
  readonly client: string;
  readonly startMs: number;
  /** When the answer (or, for a watch, the end of the stream) arrived; undefined if it never did. */
  readonly endMs: number | undefined;
}

/** A write of one ConfigMap. */
export interface WriteOperation extends OperationTimes {
  readonly kind: "write";
  readonly verb: "create" | "update" | "patch" | "delete";
  readonly name: string;
  /**
   * The resourceVersion the write was conditioned on: `metadata.resourceVersion` of an update's
   * body or of a patch, `preconditions.resourceVersion` of a delete; undefined for none.
   */
  readonly precondition: string | undefined;
  /** The unique `data.v` the write sets (undefined for a delete, which sets none). */
  readonly value: string | undefined;
  /**
   * Labels the write sets: all of them for create and update; for a (merge) patch the labels it
   * changes, null meaning removed; undefined for a delete.
   */
  readonly labels: Readonly<Record<string, string | null>> | undefined;
  readonly answer:
    | {
        readonly type: "ok";
        readonly code: number;
        /** The object the server returned (for a delete, the object as the server returned it). */
        readonly object: ObjectState;
      }
    | FailedAnswer
    | UncertainAnswer;
}

/** A GET of one ConfigMap. */
export interface GetOperation extends OperationTimes {
  readonly kind: "get";
  readonly name: string;
  /** The `resourceVersion` query parameter sent (undefined: not sent, Most Recent; "0": Any). */
  readonly resourceVersion: string | undefined;
  readonly answer:
    | { readonly type: "ok"; readonly object: ObjectState }
    | FailedAnswer // 404 NotFound is a failed answer with code 404
    | UncertainAnswer;
}

/** One page of a list. */
export interface ListPage {
  readonly startMs: number;
  readonly endMs: number | undefined;
  /** The `continue` token sent (undefined for the first page). */
  readonly continueSent: string | undefined;
  readonly answer:
    | {
        readonly type: "ok";
        /** The list's `metadata.resourceVersion`. */
        readonly resourceVersion: string;
        readonly items: readonly ObjectState[];
        /** `metadata.continue` ("" or undefined on the last page). */
        readonly continue: string | undefined;
        readonly remainingItemCount: number | undefined;
      }
    | FailedAnswer
    | UncertainAnswer;
}

/** A list of the namespace's ConfigMaps: one page, or a paged list followed to its end. */
export interface ListOperation extends OperationTimes {
  readonly kind: "list";
  /** The `labelSelector` sent, undefined for none. */
  readonly labelSelector: string | undefined;
  /** The `resourceVersion` query parameter of the first page. */
  readonly resourceVersion: string | undefined;
  /** `resourceVersionMatch` of the first page: "Exact", "NotOlderThan" or undefined. */
  readonly resourceVersionMatch: "Exact" | "NotOlderThan" | undefined;
  /** `limit`, undefined for none. */
  readonly limit: number | undefined;
  /** The pages in the order they were requested; the last may have failed or be uncertain. */
  readonly pages: readonly ListPage[];
}

/** One line of a watch stream. */
export interface WatchEvent {
  readonly atMs: number;
  readonly type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  /** The object of ADDED, MODIFIED and DELETED. */
  readonly object: ObjectState | undefined;
  /** A BOOKMARK's `metadata.resourceVersion`. */
  readonly bookmarkVersion: string | undefined;
  /** An ERROR's Status. */
  readonly status: { readonly code: number; readonly reason: string } | undefined;
}

/** One watch request, from its start to the end of its stream. */
export interface WatchOperation extends OperationTimes {
  readonly kind: "watch";
  readonly labelSelector: string | undefined;
  /**
   * The `resourceVersion` sent: undefined (Get State and Start at Most Recent: synthetic ADDED
   * events for the state at the start, then the changes), "0" (Start at Any), or a version
   * (Start at Exact: the changes after it, doc 1 §4.7).
   */
  readonly resourceVersion: string | undefined;
  readonly allowWatchBookmarks: boolean;
  /**
   * Where `resourceVersion` came from: the watch this one resumes (the last version it saw, an
   * event's or a bookmark's), or the list it follows (reflector: list, then watch from the
   * list's version). Undefined for neither.
   */
  readonly resumes: { readonly kind: "watch" | "list"; readonly operation: number } | undefined;
  /** Answer to the request itself: ok (stream opened) or failed (e.g. 410 Expired). */
  readonly opened: { readonly type: "ok" } | FailedAnswer | UncertainAnswer;
  readonly events: readonly WatchEvent[];
  /**
   * How the stream ended: the server closed it, the client closed it on purpose (to resume
   * later), the connection broke, or it was still open when the run ended.
   */
  readonly ending: "server-closed" | "client-closed" | "connection-lost" | "run-ended";
}

export type Operation = WriteOperation | GetOperation | ListOperation | WatchOperation;

/** One client of the workload. */
export interface HistoryClient {
  readonly id: string;
  readonly role: "writer" | "watcher" | "reader";
}

/** A whole recorded history. */
export interface ApiHistory {
  /** The namespace the workload wrote in; every object of the history is in it. */
  readonly namespace: string;
  readonly seed: number;
  /** Human-readable target (URL or "embedded"); never a credential. */
  readonly target: string;
  readonly clients: readonly HistoryClient[];
  /** Every operation, sorted by `startMs` (ties by `id`). */
  readonly operations: readonly Operation[];
  /** Monotonic time of the first request and of the end of recording. */
  readonly startMs: number;
  readonly endMs: number;
}
