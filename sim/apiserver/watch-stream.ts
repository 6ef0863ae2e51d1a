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
  // Planted defect "resumed-watch-drops-first-event" (sim/apiserver/defects.ts): Start at Exact loses its first change.
  const dropFirst = context.defects.has("resumed-watch-drops-first-event") && start.fromRevision !== undefined;
  return new Response(eventStream(context, target, watch, timeoutMs(context, seconds), encode, dropFirst), { status: 200, headers });
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

function eventStream(
  context: ServerContext,
  target: ResourceRequest,
  watch: Watch,
  durationMs: number,
  encode: EventEncoder,
  dropFirst = false,
): ReadableStream<Uint8Array> {
  let timer: TimerHandle | undefined;
  let dropNext = dropFirst;
  let lastSentRevision: number | undefined;
  const withheld = (event: WatchEvent): boolean => {
    // Planted defect "deleted-events-missing" (sim/apiserver/defects.ts): DELETED is never sent.
    if (event.type === "DELETED" && context.defects.has("deleted-events-missing")) return true;
    // Planted defect "resumed-watch-drops-first-event" (sim/apiserver/defects.ts): the first change is never sent.
    if (!dropNext || event.type === "BOOKMARK") return false;
    dropNext = false;
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start() {
      timer = context.clock.setTimer(durationMs, () => watch.close());
    },
    async pull(controller) {
      let event = await watch.next();
      while (event !== undefined && withheld(event)) event = await watch.next();
      // Planted defect "bookmarks-go-backwards" (sim/apiserver/defects.ts): a bookmark from before the last event sent.
      if (event?.type === "BOOKMARK" && context.defects.has("bookmarks-go-backwards") && lastSentRevision !== undefined) {
        const revision = lastSentRevision - 1;
        event = { type: "BOOKMARK", revision, object: { metadata: { resourceVersion: context.store.formatRevision(revision) } } };
      }
      if (event !== undefined && event.type !== "BOOKMARK") lastSentRevision = event.revision;
      if (event === undefined) {
        timer?.cancel();
        controller.close();
        return;
      }
      let chunk: Uint8Array;
      try {
        chunk = encode(wireEvent(context, target, event));
      } catch (error) {
        // An event that cannot be encoded (a Table with an unrecognized includeObject) ends the
        // stream without being sent, as in Kubernetes 1.26.
        if (!(error instanceof ApiError)) throw error;
        timer?.cancel();
        watch.close();
        controller.close();
        return;
      }
      controller.enqueue(chunk);
    },
    cancel() {
      timer?.cancel();
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
