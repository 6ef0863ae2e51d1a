/**
 * A terse way to write small histories by hand (the tricky cases of the checkers' tests): objects,
 * events and operations with ids in the order they are added, times given as [sent, answered].
 */
import type {
  ApiHistory,
  GetOperation,
  HistoryClient,
  ListOperation,
  ListPage,
  ObjectState,
  Operation,
  WatchEvent,
  WatchOperation,
  WriteOperation,
} from "./api-history.ts";

/** An object state; the uid defaults to one per name. */
export function object(name: string, value: string | undefined, resourceVersion: string, labels: Record<string, string> = {}, uid = `uid-${name}`): ObjectState {
  return { name, uid, resourceVersion, value, labels };
}

const change = (type: "ADDED" | "MODIFIED" | "DELETED") => (state: ObjectState, atMs: number): WatchEvent => ({
  atMs,
  type,
  object: state,
  bookmarkVersion: undefined,
  status: undefined,
});
export const added = change("ADDED");
export const modified = change("MODIFIED");
export const deleted = change("DELETED");

export function bookmark(version: string, atMs: number): WatchEvent {
  return { atMs, type: "BOOKMARK", object: undefined, bookmarkVersion: version, status: undefined };
}

export function expired(atMs: number): WatchEvent {
  return { atMs, type: "ERROR", object: undefined, bookmarkVersion: undefined, status: { code: 410, reason: "Expired" } };
}

/** The same object deleted: its last state with the deletion's version. */
export function deletion(state: ObjectState, resourceVersion: string): ObjectState {
  return { ...state, resourceVersion };
}

type Times = readonly [number, number | undefined];

export class HistoryBuilder {
  private readonly operations: Operation[] = [];
  private readonly clients = new Map<string, HistoryClient["role"]>();

  private add<T extends Operation>(operation: Omit<T, "id">, role: HistoryClient["role"]): T {
    const made = { ...operation, id: this.operations.length } as T;
    this.operations.push(made);
    this.clients.set(made.client, role);
    return made;
  }

  /** An acknowledged create, update or patch: its answer is `result`. */
  write(client: string, [startMs, endMs]: Times, verb: "create" | "update" | "patch", result: ObjectState, options: { precondition?: string; labels?: Record<string, string | null> } = {}): WriteOperation {
    return this.add<WriteOperation>(
      {
        kind: "write",
        client,
        startMs,
        endMs,
        verb,
        name: result.name,
        precondition: options.precondition,
        value: result.value,
        labels: options.labels ?? result.labels,
        answer: { type: "ok", code: verb === "create" ? 201 : 200, object: result },
      },
      "writer",
    );
  }

  /** An acknowledged delete whose answer carries `state`. */
  delete(client: string, [startMs, endMs]: Times, state: ObjectState, precondition?: string): WriteOperation {
    return this.add<WriteOperation>(
      { kind: "write", client, startMs, endMs, verb: "delete", name: state.name, precondition, value: undefined, labels: undefined, answer: { type: "ok", code: 200, object: state } },
      "writer",
    );
  }

  /** A write whose answer never came (or a 5xx, or a 4xx when `failed` is given). */
  unanswered(
    client: string,
    [startMs, endMs]: Times,
    verb: "create" | "update" | "patch",
    name: string,
    value: string,
    labels: Record<string, string | null>,
    options: { precondition?: string; failed?: { code: number; reason: string } } = {},
  ): WriteOperation {
    return this.add<WriteOperation>(
      {
        kind: "write",
        client,
        startMs,
        endMs: options.failed === undefined ? undefined : endMs,
        verb,
        name,
        precondition: options.precondition,
        value,
        labels,
        answer: options.failed === undefined ? { type: "uncertain", error: "timeout" } : { type: "failed", ...options.failed },
      },
      "writer",
    );
  }

  watch(
    client: string,
    [startMs, endMs]: Times,
    events: readonly WatchEvent[],
    options: {
      resourceVersion?: string;
      labelSelector?: string;
      resumes?: WatchOperation["resumes"];
      ending?: WatchOperation["ending"];
      opened?: WatchOperation["opened"];
    } = {},
  ): WatchOperation {
    return this.add<WatchOperation>(
      {
        kind: "watch",
        client,
        startMs,
        endMs,
        labelSelector: options.labelSelector,
        resourceVersion: options.resourceVersion,
        allowWatchBookmarks: events.some((event) => event.type === "BOOKMARK"),
        resumes: options.resumes,
        opened: options.opened ?? { type: "ok" },
        events,
        ending: options.ending ?? (endMs === undefined ? "run-ended" : "client-closed"),
      },
      "watcher",
    );
  }

  /** A one-page list answered with `items` at `resourceVersion`. */
  list(
    client: string,
    [startMs, endMs]: Times,
    resourceVersion: string,
    items: readonly ObjectState[],
    options: { sent?: string; match?: ListOperation["resourceVersionMatch"]; labelSelector?: string } = {},
  ): ListOperation {
    const page: ListPage = { startMs, endMs, continueSent: undefined, answer: { type: "ok", resourceVersion, items, continue: undefined, remainingItemCount: undefined } };
    return this.add<ListOperation>(
      {
        kind: "list",
        client,
        startMs,
        endMs,
        labelSelector: options.labelSelector,
        resourceVersion: options.sent,
        resourceVersionMatch: options.match,
        limit: undefined,
        pages: [page],
      },
      "reader",
    );
  }

  /** A paged list: `pages` as [times, items], all at `resourceVersion`. */
  pagedList(client: string, resourceVersion: string, limit: number, pages: readonly (readonly [Times, readonly ObjectState[]])[]): ListOperation {
    const made: ListPage[] = pages.map(([[startMs, endMs], items], i) => ({
      startMs,
      endMs,
      continueSent: i === 0 ? undefined : `token-${i}`,
      answer: { type: "ok", resourceVersion, items, continue: i + 1 < pages.length ? `token-${i + 1}` : undefined, remainingItemCount: undefined },
    }));
    return this.add<ListOperation>(
      {
        kind: "list",
        client,
        startMs: made[0]!.startMs,
        endMs: made[made.length - 1]!.endMs,
        labelSelector: undefined,
        resourceVersion: undefined,
        resourceVersionMatch: undefined,
        limit,
        pages: made,
      },
      "reader",
    );
  }

  get(client: string, [startMs, endMs]: Times, name: string, answer: ObjectState | undefined, resourceVersion?: string): GetOperation {
    return this.add<GetOperation>(
      {
        kind: "get",
        client,
        startMs,
        endMs,
        name,
        resourceVersion,
        answer: answer === undefined ? { type: "failed", code: 404, reason: "NotFound" } : { type: "ok", object: answer },
      },
      "reader",
    );
  }

  build(): ApiHistory {
    const operations = [...this.operations].sort((a, b) => a.startMs - b.startMs || a.id - b.id);
    const ends = operations.flatMap((operation) => [operation.startMs, operation.endMs ?? operation.startMs]);
    return {
      namespace: "hand-written",
      seed: 0,
      target: "hand-written",
      clients: [...this.clients].map(([id, role]) => ({ id, role })),
      operations,
      startMs: 0,
      endMs: Math.max(0, ...ends) + 1,
    };
  }
}
