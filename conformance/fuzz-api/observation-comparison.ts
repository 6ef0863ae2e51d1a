/**
 * The differential check of `fuzz --target api`: the target's observation of a step against the
 * model's. Versions and uids are opaque (doc 1 §2.2) and differ between servers, so they are never
 * compared as values: each one the target shows is paired with the one the model shows in the same
 * place, and the pairing must stay one-to-one for the whole run (the same target version always
 * stands for the same model version, and the reverse). List versions are left out of the pairing:
 * on a real cluster other namespaces' writes move them.
 *
 * Watch events are compared key by key: events of one key come in the order of its writes on any
 * server, while events of different keys written "together" may come in either order. Bookmarks
 * are not compared with the model's (when they come is the server's choice); a target's bookmark
 * whose version is paired must not stand for an older state than the events before it (doc 1 §4.7,
 * watch/bookmark-order): that order is read on the model's versions, which are the model's own
 * counters, never on the target's.
 */
import type { Observation, SeenEvent, SeenObject, SeenPage } from "./fuzz-observation.ts";

/** The pairing of the target's versions and uids with the model's. */
export class OpaquePairing {
  private readonly targetToModel = new Map<string, string>();
  private readonly modelToTarget = new Map<string, string>();

  /** The model's version paired with a target's, if any. */
  modelVersion(target: string): string | undefined {
    return this.targetToModel.get(`resourceVersion/${target}`);
  }

  /** Pairs two values; a difference in words when either is already paired with another. */
  pair(what: string, target: string, model: string): string | undefined {
    if ((target === "") !== (model === "")) return `${what}: the model has ${model === "" ? "none" : "one"}, the target ${target === "" ? "none" : `"${target}"`}`;
    if (target === "") return undefined;
    const known = this.targetToModel.get(`${what}/${target}`);
    const knownTarget = this.modelToTarget.get(`${what}/${model}`);
    if (known !== undefined && known !== model) return `${what} "${target}" stood for the model's "${known}" before, now for its "${model}"`;
    if (knownTarget !== undefined && knownTarget !== target) return `${what}: the model's "${model}" was the target's "${knownTarget}" before, now the target shows "${target}"`;
    this.targetToModel.set(`${what}/${target}`, model);
    this.modelToTarget.set(`${what}/${model}`, target);
    return undefined;
  }
}

/** The first difference between the model's observation and the target's, in words; undefined when they agree. */
export function observationDifference(model: Observation, target: Observation, pairing: OpaquePairing): string | undefined {
  if (model.kind !== target.kind) return `the model saw ${model.kind}, the target ${target.kind}`;
  switch (model.kind) {
    case "answer": {
      const other = target as typeof model;
      return (
        codeDifference(model, other) ??
        (model.statusKind !== other.statusKind && (model.statusKind === "Status" || other.statusKind === "Status") ? `answer kind: model ${model.statusKind}, target ${other.statusKind}` : undefined) ??
        objectDifference("object", model.object, other.object, pairing)
      );
    }
    case "representation": {
      const other = target as typeof model;
      return codeDifference(model, other) ?? same("media type", model.mediaType, other.mediaType) ?? same("body", model.body, other.body);
    }
    case "list":
      return pagesDifference(model.pages, (target as typeof model).pages, pairing);
    case "watch-opened":
      return codeDifference(model, target as typeof model);
    case "watch-events":
      return eventsDifference(model.events, (target as typeof model).events, pairing);
    case "readyz": {
      const other = target as typeof model;
      return same("code", model.code, other.code) ?? same("last line", model.lastLine, other.lastLine);
    }
    case "none":
      return undefined;
  }
}

/** The first difference between two watches' events (see the file comment), undefined when they agree. */
export function eventsDifference(modelEvents: readonly SeenEvent[], targetEvents: readonly SeenEvent[], pairing: OpaquePairing): string | undefined {
  const model = modelEvents.filter((event) => event.type !== "BOOKMARK");
  const target = targetEvents.filter((event) => event.type !== "BOOKMARK");
  const byKey = (events: readonly SeenEvent[]) => {
    const keys = new Map<string, SeenEvent[]>();
    for (const event of events) {
      const key = event.object?.name ?? `(${event.type})`;
      keys.set(key, [...(keys.get(key) ?? []), event]);
    }
    return keys;
  };
  const modelKeys = byKey(model);
  const targetKeys = byKey(target);
  for (const key of new Set([...modelKeys.keys(), ...targetKeys.keys()])) {
    const expected = modelKeys.get(key) ?? [];
    const received = targetKeys.get(key) ?? [];
    for (let index = 0; index < Math.max(expected.length, received.length); index++) {
      const want = expected[index];
      const got = received[index];
      if (want === undefined) return `events of ${key}: the target sent an extra ${eventText(got!)} (the model sent ${expected.length})`;
      if (got === undefined) return `events of ${key}: the target never sent ${eventText(want)} (event ${index + 1} of ${expected.length})`;
      const difference = same("type", want.type, got.type) ?? same("code", want.code, got.code) ?? objectDifference(`${want.type} event`, want.object, got.object, pairing);
      if (difference !== undefined) return `events of ${key}, event ${index + 1}: ${difference}`;
    }
  }
  return bookmarkDifference(targetEvents, pairing);
}

/** A target's bookmark that stands for a state older than an event it sent before. */
function bookmarkDifference(target: readonly SeenEvent[], pairing: OpaquePairing): string | undefined {
  let latest: { event: SeenEvent; modelVersion: number } | undefined;
  for (const event of target) {
    const version = event.type === "BOOKMARK" ? event.bookmarkVersion : event.object?.resourceVersion;
    const modelVersion = Number(version === undefined ? undefined : pairing.modelVersion(version));
    if (!Number.isSafeInteger(modelVersion)) continue;
    if (event.type === "BOOKMARK" && latest !== undefined && modelVersion < latest.modelVersion) {
      return `a BOOKMARK at "${event.bookmarkVersion}" came after ${eventText(latest.event)} at "${latest.event.object?.resourceVersion}", and stands for an older state (the model's versions ${modelVersion} < ${latest.modelVersion})`;
    }
    if (event.type !== "BOOKMARK" && (latest === undefined || modelVersion > latest.modelVersion)) latest = { event, modelVersion };
  }
  return undefined;
}

function pagesDifference(model: readonly SeenPage[], target: readonly SeenPage[], pairing: OpaquePairing): string | undefined {
  if (model.length !== target.length) return `pages: the model read ${model.length}, the target ${target.length}`;
  for (let index = 0; index < model.length; index++) {
    const want = model[index]!;
    const got = target[index]!;
    const page = `page ${index + 1}`;
    const difference =
      codeDifference(want, got) ??
      same("item names", want.items.map((item) => item.name).join(","), got.items.map((item) => item.name).join(",")) ??
      want.items.map((item, at) => objectDifference(`item ${item.name}`, item, got.items[at], pairing)).find((text) => text !== undefined) ??
      same("more pages", want.more, got.more) ??
      same("remainingItemCount", want.remainingItemCount, got.remainingItemCount);
    if (difference !== undefined) return `${page}: ${difference}`;
  }
  return undefined;
}

function objectDifference(what: string, model: SeenObject | undefined, target: SeenObject | undefined, pairing: OpaquePairing): string | undefined {
  if (model === undefined || target === undefined) return model === target ? undefined : `${what}: the model ${model === undefined ? "has none" : "has one"}, the target ${target === undefined ? "none" : "one"}`;
  return (
    same(`${what} name`, model.name, target.name) ??
    same(`${what} data`, model.name === "kube-root-ca.crt" ? "" : JSON.stringify(sorted(model.data)), model.name === "kube-root-ca.crt" ? "" : JSON.stringify(sorted(target.data))) ??
    same(`${what} labels`, JSON.stringify(sorted(model.labels)), JSON.stringify(sorted(target.labels))) ??
    same(`${what} finalizers`, model.finalizers.join(","), target.finalizers.join(",")) ??
    same(`${what} deletionTimestamp set`, model.deleting, target.deleting) ??
    pairing.pair(`resourceVersion`, target.resourceVersion, model.resourceVersion) ??
    pairing.pair(`uid`, target.uid, model.uid)
  );
}

function codeDifference(model: { code: number; reason: string }, target: { code: number; reason: string }): string | undefined {
  return same("code", model.code, target.code) ?? same("reason", model.reason, target.reason);
}

function same<T>(what: string, model: T, target: T): string | undefined {
  return model === target ? undefined : `${what}: model ${JSON.stringify(model)}, target ${JSON.stringify(target)}`;
}

function sorted(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function eventText(event: SeenEvent): string {
  return event.type === "ERROR" ? `ERROR ${event.code}` : `${event.type} ${event.object?.name ?? "?"} v=${event.object?.data["v"] ?? "-"}`;
}
