/**
 * watch (doc 1 §4.6.1, §4.7 watch table, §6): a chunked stream of events, ADDED, MODIFIED,
 * DELETED, BOOKMARK (with allowWatchBookmarks), and ERROR for a start version that was compacted
 * (in the kubernetes dialect; deviation watch-expired). Each event is one JSON line (its object a
 * Table with an `as=Table` Accept header), or one length-prefixed Protobuf frame
 * (`<protobuf type>;stream=watch`); representation.ts encodes them.
 */
import { minWatchTimeoutMs } from "../../spec/doc1/limits.ts";
import { lookupWatchSemantic } from "../../spec/doc1/resource-version-tables.ts";
import type { TimerHandle } from "../kernel/clock.ts";
import { ExpiredError } from "../store/errors.ts";
import type { StoredObject } from "../store/stored-object.ts";
import type { Watch, WatchEvent } from "../store/watch.ts";
import { ApiError, badRequest, expiredResourceVersion, failure } from "./api-error.ts";
import { broadcastMemberStream } from "./broadcast-member-stream.ts";
import { joinedBytes } from "./joined-bytes.ts";
import { objectFilter } from "./object-filter.ts";
import { flag, optional, timeoutSeconds } from "./query-options.ts";
import { awaitRevision, parseResourceVersion } from "./read-revision.ts";
import { negotiateRepresentation } from "./representation.ts";
import { apiVersionOf } from "./resource-types.ts";
import type { ResourceRequest, ServerContext } from "./server-context.ts";
import { storagePrefix, withTypeMeta } from "./stored-resource.ts";

/** Encodes one event of the stream (representation.ts). */
type EventEncoder = (event: { readonly type: string; readonly object: Record<string, unknown> }) => Uint8Array;

/** Opens a watch and answers with its event stream. */
export async function handleWatch(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { query, type } = target;
  // A watch needs a streaming representation: YAML alone is 406.
  const representation = negotiateRepresentation(context, target, { watch: true, collection: true });
  const headers = { "content-type": representation.contentType };
  const encode = representation.watchEncoder();
  const seconds = timeoutSeconds(query);
  const start = await watchStart(context, query);
  // A negative timeout has passed before the watch starts: Kubernetes answers 503 "context
  // deadline exceeded" (transcript watch-timeout-negative); a list ignores it.
  if (seconds !== undefined && seconds < 0) throw failure("ServiceUnavailable", "context deadline exceeded");
  const filter = watchFilter(target);
  const sharedEncoding = representation.sharedWatchEncoding();
  const encodeEvent = eventEncoder(context, target, encode, sharedEncoding);
  const broadcastKey = broadcastKeyOf(context, target, filter, sharedEncoding);
  // Planted defect "resumed-watch-skips-concurrent-writes" (sim/apiserver/defects.ts): the history is read now, the live changes joined later.
  const skipped = context.defects.has("resumed-watch-skips-concurrent-writes") && start.fromRevision !== undefined ? await joinLiveLate(context) : undefined;
  let watch: Watch;
  try {
    watch = context.store.watch({
      prefix: storagePrefix(type, target.namespace),
      ...(start.fromRevision !== undefined && { fromRevision: start.fromRevision }),
      // Planted defect "no-synthetic-added" (sim/apiserver/defects.ts): Get State starts without the existing objects.
      initialState: start.initialState && !context.defects.has("no-synthetic-added"),
      ...(filter !== undefined && { filter }),
      ...(flag(query, "allowWatchBookmarks") && { bookmarkIntervalMs: context.bookmarkIntervalMs }),
    });
  } catch (error) {
    if (!(error instanceof ExpiredError)) throw error;
    const expired = expiredResourceVersion("watch");
    if (context.dialect.answers["watch-expired"] === "status") throw expired;
    return new Response(encode({ type: "ERROR", object: { ...expired.status } }), { status: 200, headers });
  }
  if (broadcastKey !== undefined) {
    // The store replayed the start (synthetic ADDED events, the changes after the version asked
    // for) into the watch as it opened; joining the broadcast in the same synchronous step puts the
    // watcher right after them.
    const backlog: Uint8Array[] = [];
    try {
      for (let event = watch.tryNext(); event !== undefined; event = watch.tryNext()) backlog.push(encodeEvent(event));
    } finally {
      watch.close();
    }
    const broadcast = context.watchBroadcasts.broadcastFor(broadcastKey, {
      store: context.store,
      clock: context.clock,
      prefix: storagePrefix(type, target.namespace),
      flushIntervalMs: context.watchFlushIntervalMs,
      capacity: context.store.watchCapacity,
      encode: encodeEvent,
    });
    const stream = broadcastMemberStream(context.clock, broadcast.join(), backlog, timeoutMs(context, seconds), MAX_FLUSH_BYTES);
    return new Response(stream, { status: 200, headers });
  }
  // Planted defect "resumed-watch-drops-first-event" (sim/apiserver/defects.ts): Start at Exact loses its first change.
  const dropFirst = context.defects.has("resumed-watch-drops-first-event") && start.fromRevision !== undefined;
  const stream = eventStream(context, watch, timeoutMs(context, seconds), encodeEvent, dropFirst, skipped);
  return new Response(stream, { status: 200, headers });
}

/** How long the planted defect "resumed-watch-skips-concurrent-writes" takes to join the live changes. */
export const LATE_LIVE_JOIN_MS = 20;

/** Changes a watch never sends: revisions after `after`, up to `through`. */
interface SkippedRevisions {
  readonly after: number;
  readonly through: number;
}

/**
 * Planted defect "resumed-watch-skips-concurrent-writes" (sim/apiserver/defects.ts): a resumed
 * watch replays the history up to the revision of now, then takes LATE_LIVE_JOIN_MS to join the
 * live changes, which start at the revision of then; the writes committed in between are in
 * neither. One client in sequence writes nothing while its watch is being opened.
 */
async function joinLiveLate(context: ServerContext): Promise<SkippedRevisions> {
  const after = context.store.revision;
  await context.clock.sleep(LATE_LIVE_JOIN_MS);
  return { after, through: context.store.revision };
}

/**
 * The broadcast a watch joins (watch-broadcast.ts), or undefined for a watch that needs a stream
 * of its own: one with a selector or a name (its events depend on it), with bookmarks (each
 * watcher's come on its own timer), in a Table (encoded per request), on a server without a flush
 * interval (in-process and virtual time), or with a planted defect (planted on the per-watcher path).
 */
function broadcastKeyOf(
  context: ServerContext,
  target: ResourceRequest,
  filter: ((object: StoredObject) => boolean) | undefined,
  sharedEncoding: string | undefined,
): string | undefined {
  if (context.watchFlushIntervalMs <= 0 || context.defects.size > 0) return undefined;
  if (filter !== undefined || sharedEncoding === undefined || flag(target.query, "allowWatchBookmarks")) return undefined;
  return `${storagePrefix(target.type, target.namespace)}\n${sharedEncoding}\n${apiVersionOf(target.type)}\n${target.type.kind}`;
}

/**
 * Encodes events as the watch's representation does; an event of an object is encoded once for
 * all watchers sharing the representation (encoded-event-cache.ts).
 */
function eventEncoder(context: ServerContext, target: ResourceRequest, encode: EventEncoder, sharedEncoding: string | undefined): (event: WatchEvent) => Uint8Array {
  // Cache keys by event type, made once per watch: events are many, types three.
  const sharedKeys =
    sharedEncoding === undefined
      ? undefined
      : new Map(["ADDED", "MODIFIED", "DELETED"].map((type) => [type, `${type}:${sharedEncoding}:${apiVersionOf(target.type)}:${target.type.kind}`]));
  return (event) => {
    const key = sharedKeys?.get(event.type);
    if (key === undefined || event.type === "BOOKMARK") return encode(wireEvent(context, target, event));
    return context.watchEncodings.encoded(event.object, key, () => encode(wireEvent(context, target, event)));
  };
}

/** Where the watch starts, from the watch table of doc 1 §4.7. */
async function watchStart(context: ServerContext, query: URLSearchParams): Promise<{ fromRevision: number | undefined; initialState: boolean }> {
  const resourceVersion = optional(query, "resourceVersion");
  const lookup = lookupWatchSemantic({ resourceVersion, resourceVersionMatch: optional(query, "resourceVersionMatch") });
  if (lookup.kind === "invalid") throw invalidWatchOptions(context, lookup.message, lookup.causes);
  if (lookup.semantic !== "StartAtExact") return { fromRevision: undefined, initialState: true };
  const revision = parseResourceVersion(context, resourceVersion!);
  await awaitRevision(context, revision);
  return { fromRevision: revision, initialState: false };
}

function invalidWatchOptions(context: ServerContext, message: string, causes: ReadonlyArray<{ field: string; type: string; message: string }>): ApiError {
  if (causes.length === 0) return badRequest(message);
  const group = context.dialect.metaGroup;
  return failure("Invalid", `ListOptions.${group} "" is invalid: ${message}`, {
    group,
    kind: "ListOptions",
    causes: causes.map((cause) => ({ reason: cause.type, message: cause.message, field: cause.field })),
  });
}

/** Selectors, plus the name of a watch on one object's path (`.../pods/<name>?watch=1`). */
function watchFilter(target: ResourceRequest): ((object: StoredObject) => boolean) | undefined {
  const selectors = objectFilter(target.type, target.query);
  const name = target.name;
  if (name === undefined) return selectors;
  return (object) => object.metadata.name === name && (selectors === undefined || selectors(object));
}

/**
 * How long the watch lasts: `timeoutSeconds`, else a random span between the minimum request
 * timeout and twice it, as Kubernetes spreads watch expiry so clients do not reconnect in step.
 */
function timeoutMs(context: ServerContext, seconds: number | undefined): number {
  if (seconds !== undefined) return seconds * 1000;
  return Math.floor(minWatchTimeoutMs * (1 + context.rng.float()));
}

/** The most bytes one write to a watch stream carries; a longer backlog goes out in several. */
const MAX_FLUSH_BYTES = 256 * 1024;

/**
 * The stream of a watch's events. Events waiting when the stream is read go out together in one
 * chunk (one socket write), and with `watchFlushIntervalMs` the stream writes at most once per
 * interval; each event is encoded once for all watchers sharing its representation
 * (encoded-event-cache.ts). Any failure to encode ends this stream alone (Kubernetes 1.26 ends a
 * Table watch with an unrecognized includeObject that way); a bug of ours must cost one watcher,
 * never the server.
 */
function eventStream(
  context: ServerContext,
  watch: Watch,
  durationMs: number,
  encoded: (event: WatchEvent) => Uint8Array,
  dropFirst = false,
  skipped?: SkippedRevisions,
): ReadableStream<Uint8Array> {
  let timer: TimerHandle | undefined;
  let pause: { timer: TimerHandle; resume: () => void } | undefined;
  let lastFlushMs = Number.NEGATIVE_INFINITY;
  // The last write stopped at MAX_FLUSH_BYTES with events left: the next goes out without waiting,
  // or a watcher of large objects could never read faster than one write per interval.
  let backlogged = false;
  let dropNext = dropFirst;
  let lastSentRevision: number | undefined;
  // Read once: the checks below run for every event of every watcher.
  const withholdsDeleted = context.defects.has("deleted-events-missing");
  const bookmarksGoBackwards = context.defects.has("bookmarks-go-backwards");
  const withheld = (event: WatchEvent): boolean => {
    // Planted defect "deleted-events-missing" (sim/apiserver/defects.ts): DELETED is never sent.
    if (event.type === "DELETED" && withholdsDeleted) return true;
    // Planted defect "resumed-watch-skips-concurrent-writes" (sim/apiserver/defects.ts): what was committed while it opened is never sent.
    if (skipped !== undefined && event.type !== "BOOKMARK" && event.revision > skipped.after && event.revision <= skipped.through) return true;
    // Planted defect "resumed-watch-drops-first-event" (sim/apiserver/defects.ts): the first change is never sent.
    if (!dropNext || event.type === "BOOKMARK") return false;
    dropNext = false;
    return true;
  };
  const sendable = (event: WatchEvent): WatchEvent => {
    // Planted defect "bookmarks-go-backwards" (sim/apiserver/defects.ts): a bookmark from before the last event sent.
    if (event.type === "BOOKMARK" && bookmarksGoBackwards && lastSentRevision !== undefined) {
      const revision = lastSentRevision - 1;
      return { type: "BOOKMARK", revision, object: { metadata: { resourceVersion: context.store.formatRevision(revision) } } };
    }
    if (event.type !== "BOOKMARK") lastSentRevision = event.revision;
    return event;
  };
  const nextBuffered = (): WatchEvent | undefined => {
    let event = watch.tryNext();
    while (event !== undefined && withheld(event)) event = watch.tryNext();
    return event === undefined ? undefined : sendable(event);
  };
  const nextWaited = async (): Promise<WatchEvent | undefined> => {
    let event = await watch.next();
    while (event !== undefined && withheld(event)) event = await watch.next();
    return event === undefined ? undefined : sendable(event);
  };
  // Waits out the rest of the flush interval; a cancelled stream stops waiting at once.
  const waitForFlushTime = async (): Promise<void> => {
    const dueMs = lastFlushMs + context.watchFlushIntervalMs - context.clock.nowMs();
    if (dueMs <= 0 || backlogged) return;
    await new Promise<void>((resume) => {
      pause = { timer: context.clock.setTimer(dueMs, resume), resume };
    });
    pause = undefined;
  };
  const end = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    timer?.cancel();
    watch.close();
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    start() {
      timer = context.clock.setTimer(durationMs, () => watch.close());
    },
    async pull(controller) {
      const first = await nextWaited();
      if (first === undefined) return end(controller);
      await waitForFlushTime();
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      let failed = false;
      for (let event: WatchEvent | undefined = first; event !== undefined; event = bytes < MAX_FLUSH_BYTES ? nextBuffered() : undefined) {
        try {
          const chunk = encoded(event);
          chunks.push(chunk);
          bytes += chunk.length;
        } catch {
          failed = true;
          break;
        }
      }
      lastFlushMs = context.clock.nowMs();
      backlogged = bytes >= MAX_FLUSH_BYTES && watch.pending > 0;
      if (chunks.length > 0) controller.enqueue(chunks.length === 1 ? chunks[0]! : joinedBytes(chunks));
      if (failed) end(controller);
    },
    cancel() {
      timer?.cancel();
      pause?.timer.cancel();
      pause?.resume();
      watch.close();
    },
  });
}

function wireEvent(context: ServerContext, target: ResourceRequest, event: WatchEvent): { type: string; object: Record<string, unknown> } {
  if (event.type !== "BOOKMARK") return { type: event.type, object: withTypeMeta(target.type, event.object) };
  const metadata =
    context.dialect.answers["bookmark-object"] === "null-creation-timestamp"
      ? { ...event.object.metadata, creationTimestamp: null }
      : event.object.metadata;
  return { type: "BOOKMARK", object: { kind: target.type.kind, apiVersion: apiVersionOf(target.type), metadata } };
}
