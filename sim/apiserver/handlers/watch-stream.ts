/**
 * watch (doc 1 §4.6.1, §4.7 watch table, §6): a chunked stream of events, ADDED, MODIFIED,
 * DELETED, BOOKMARK (with allowWatchBookmarks), and ERROR for a start version that was compacted
 * (in the kubernetes dialect; deviation watch-expired). Each event is one JSON line (its object a
 * Table with an `as=Table` Accept header), or one length-prefixed Protobuf frame
 * (`<protobuf type>;stream=watch`); representation.ts encodes them.
 */
import { minWatchTimeoutMs } from "../../../spec/doc1/limits.ts";
import { lookupWatchSemantic } from "../../../spec/doc1/resource-version-tables.ts";
import type { TimerHandle } from "../../kernel/clock.ts";
import { ExpiredError } from "../../store/errors.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import type { WatchEvent } from "../../store/watch.ts";
import type { WatchEvents } from "../watch/watch-source.ts";
import { assert } from "../../kernel/assert.ts";
import { ApiError, badRequest, expiredResourceVersion, failure } from "../responses/api-error.ts";
import { broadcastMemberStream } from "../watch/broadcast-member-stream.ts";
import { joinedBytes } from "../watch/joined-bytes.ts";
import { objectFilter } from "../request/object-filter.ts";
import { flag, optional, timeoutSeconds } from "../request/query-options.ts";
import { awaitRevision, parseResourceVersion } from "../request/read-revision.ts";
import { negotiateRepresentation } from "../responses/representation.ts";
import { apiVersionOf } from "../routing/resource-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { storagePrefix, withTypeMeta } from "../registry/stored-resource.ts";

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
  let watch: WatchEvents;
  try {
    const opened = context.watches.open({
      prefix: storagePrefix(type, target.namespace),
      ...(start.fromRevision !== undefined && { fromRevision: start.fromRevision }),
      initialState: start.initialState,
      ...(filter !== undefined && { filter }),
      ...(flag(query, "allowWatchBookmarks") && { bookmarkIntervalMs: context.bookmarkIntervalMs }),
    });
    // Only a planted defect opens late: the store's watch opens in this step, and no tick may pass before it.
    watch = opened instanceof Promise ? await opened : opened;
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
  const stream = eventStream(context, watch, timeoutMs(context, seconds), encodeEvent);
  return new Response(stream, { status: 200, headers });
}

/**
 * The broadcast a watch joins (watch-broadcast.ts), or undefined for a watch that needs a stream
 * of its own: one with a selector or a name (its events depend on it), with bookmarks (each
 * watcher's come on its own timer), in a Table (encoded per request), on a server without a flush
 * interval (in-process and virtual time), or whose watch source is not to be shared (planted defects).
 */
function broadcastKeyOf(
  context: ServerContext,
  target: ResourceRequest,
  filter: ((object: StoredObject) => boolean) | undefined,
  sharedEncoding: string | undefined,
): string | undefined {
  if (context.watchFlushIntervalMs <= 0 || !context.watches.shareable) return undefined;
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
function eventStream(context: ServerContext, watch: WatchEvents, durationMs: number, encoded: (event: WatchEvent) => Uint8Array): ReadableStream<Uint8Array> {
  let timer: TimerHandle | undefined;
  let pause: { timer: TimerHandle; resume: () => void } | undefined;
  let lastFlushMs = Number.NEGATIVE_INFINITY;
  // The last write stopped at MAX_FLUSH_BYTES with events left: the next goes out without waiting,
  // or a watcher of large objects could never read faster than one write per interval.
  let backlogged = false;
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
  // Consumed: events leave in the order the store produced them (sim/store/watch.ts).
  let lastRevision = Number.NEGATIVE_INFINITY;
  const inOrder = (event: WatchEvent | undefined): WatchEvent | undefined => {
    if (event === undefined || !watch.ordered) return event;
    assert(event.revision >= lastRevision, "watch/next-after-last", () => `${event.type} at revision ${event.revision} sent after ${lastRevision}`);
    lastRevision = event.revision;
    return event;
  };
  return new ReadableStream<Uint8Array>({
    start() {
      timer = context.clock.setTimer(durationMs, () => watch.close());
    },
    async pull(controller) {
      const first = inOrder(await watch.next());
      if (first === undefined) return end(controller);
      await waitForFlushTime();
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      let failed = false;
      for (let event: WatchEvent | undefined = first; event !== undefined; event = bytes < MAX_FLUSH_BYTES ? inOrder(watch.tryNext()) : undefined) {
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
