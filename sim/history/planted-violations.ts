/**
 * Canaries for the history checkers: functions that take a valid generated history (and the truth
 * of what the server did) and plant one violation of one invariant, returning the broken history,
 * the invariant that must catch it and the operations its witness must name. Each planter picks
 * its spot with the given Rng among the spots where the violation is observable; it answers
 * undefined when the history has none (the tests require each to find one for some seeds).
 *
 * Planters use the generator's truth, never the checkers' reconstruction, so that a checker bug
 * cannot make its own canary easy.
 */
import type { HistoryInvariantId } from "../../spec/invariants-history.ts";
import type { Rng } from "../kernel/rng.ts";
import type { ApiHistory, GetOperation, ListOperation, ObjectState, Operation, WatchEvent, WatchOperation, WriteOperation } from "./api-history.ts";
import { workloadSelector, type SimulatedRun } from "./simulated-history.ts";
import type { SimulatedChange } from "./simulated-namespace.ts";

export interface PlantedViolation {
  readonly invariant: HistoryInvariantId;
  readonly history: ApiHistory;
  /** Operations the witness must name. */
  readonly operations: readonly number[];
  readonly description: string;
}

export type Planter = (run: SimulatedRun, rng: Rng) => PlantedViolation | undefined;

// ---------------------------------------------------------------------------------------------
// Reading a generated run

function withOperations(history: ApiHistory, replaced: readonly Operation[]): ApiHistory {
  const byId = new Map(replaced.map((operation) => [operation.id, operation]));
  return { ...history, operations: history.operations.map((operation) => byId.get(operation.id) ?? operation) };
}

function watches(history: ApiHistory): WatchOperation[] {
  return history.operations.filter((operation): operation is WatchOperation => operation.kind === "watch" && operation.opened.type === "ok");
}

function changeOfVersion(run: SimulatedRun): Map<string, SimulatedChange> {
  return new Map(run.truth.namespace.changes.map((change) => [change.version, change]));
}

/** Whether event i of a watch is a real change (not a synthetic state, not a bookmark or error). */
function isDelivery(run: SimulatedRun, changes: Map<string, SimulatedChange>, watch: WatchOperation, i: number): boolean {
  const event = watch.events[i]!;
  if (event.object === undefined || event.type === "BOOKMARK" || event.type === "ERROR") return false;
  const change = changes.get(event.object.resourceVersion);
  const start = run.truth.startCutOfWatch.get(watch.id);
  return change !== undefined && start !== undefined && change.index >= start;
}

/**
 * How many watches delivered each version as a change the event itself names: a watch without
 * selector, or an ADDED or MODIFIED (a selector's DELETED may leave the change's effect unknown).
 */
function deliveriesByVersion(run: SimulatedRun, changes: Map<string, SimulatedChange>): Map<string, number> {
  const count = new Map<string, number>();
  for (const watch of watches(run.history)) {
    watch.events.forEach((event, i) => {
      if (!isDelivery(run, changes, watch, i) || (watch.labelSelector !== undefined && event.type === "DELETED")) return;
      count.set(event.object!.resourceVersion, (count.get(event.object!.resourceVersion) ?? 0) + 1);
    });
  }
  return count;
}

/**
 * Whether an operation is in the run's last tenth: changes there may not have been delivered yet,
 * which leaves the states there doubtful and a planted violation rightly unproven.
 */
function nearTheEnd(run: SimulatedRun, operation: Operation): boolean {
  const { startMs, endMs } = run.history;
  return operation.startMs > startMs + (endMs - startMs) * 0.9;
}

function pick<T>(rng: Rng, candidates: readonly T[]): T | undefined {
  return candidates.length === 0 ? undefined : rng.pick(candidates);
}

function writesById(history: ApiHistory): Map<number, WriteOperation> {
  return new Map(history.operations.filter((operation): operation is WriteOperation => operation.kind === "write").map((write) => [write.id, write]));
}

/** The write operation (by id) that made each change index. */
function writeOfChange(run: SimulatedRun): Map<number, number> {
  const result = new Map<number, number>();
  for (const [id, change] of run.truth.changeOfWrite) result.set(change.index, id);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Watch planters

/**
 * Drops from one stream a change between two of its deliveries, where another stream delivered
 * the three of them in that order (so the gap is provable from the streams alone).
 */
export const dropWatchEvent: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const all = watches(run.history);
  // For each stream, the place of each version it delivered (as a change the event names).
  const placeIn = all.map((watch) => {
    const places = new Map<string, number>();
    watch.events.forEach((event, i) => {
      if (isDelivery(run, changes, watch, i) && !(watch.labelSelector !== undefined && event.type === "DELETED")) places.set(event.object!.resourceVersion, i);
    });
    return places;
  });
  const candidates: { watch: WatchOperation; index: number }[] = [];
  all.forEach((watch, w) => {
    const delivered = watch.events.map((_, i) => i).filter((i) => isDelivery(run, changes, watch, i));
    for (let k = 1; k + 1 < delivered.length; k++) {
      const [before, dropped, after] = [delivered[k - 1]!, delivered[k]!, delivered[k + 1]!].map((i) => watch.events[i]!.object!.resourceVersion);
      const shown = placeIn.some((places, other) => {
        if (other === w) return false;
        const [a, b, c] = [places.get(before!), places.get(dropped!), places.get(after!)];
        return a !== undefined && b !== undefined && c !== undefined && a < b && b < c;
      });
      if (shown) candidates.push({ watch, index: delivered[k]! });
    }
  });
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { watch, index } = chosen;
  const events = watch.events.filter((_, i) => i !== index);
  return {
    invariant: "watch/no-gap",
    history: withOperations(run.history, [{ ...watch, events }]),
    operations: [watch.id],
    description: `dropped event ${index} (${watch.events[index]!.type} rv ${watch.events[index]!.object!.resourceVersion}) of watch #${watch.id}`,
  };
};

/** Swaps two consecutive deliveries of one stream (the times stay in place). */
export const swapWatchEvents: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const deliveries = deliveriesByVersion(run, changes);
  const candidates: { watch: WatchOperation; index: number }[] = [];
  for (const watch of watches(run.history)) {
    for (let i = 0; i + 1 < watch.events.length; i++) {
      if (!isDelivery(run, changes, watch, i) || !isDelivery(run, changes, watch, i + 1)) continue;
      const [a, b] = [watch.events[i]!.object!, watch.events[i + 1]!.object!];
      if ((deliveries.get(a.resourceVersion) ?? 0) >= 2 && (deliveries.get(b.resourceVersion) ?? 0) >= 2) candidates.push({ watch, index: i });
    }
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { watch, index } = chosen;
  const events = [...watch.events];
  const [a, b] = [events[index]!, events[index + 1]!];
  events[index] = { ...b, atMs: a.atMs };
  events[index + 1] = { ...a, atMs: b.atMs };
  return {
    invariant: "watch/no-gap",
    history: withOperations(run.history, [{ ...watch, events }]),
    operations: [watch.id],
    description: `swapped events ${index} and ${index + 1} of watch #${watch.id}`,
  };
};

/** Delivers one change twice in a row. */
export const duplicateWatchEvent: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const candidates: { watch: WatchOperation; index: number }[] = [];
  for (const watch of watches(run.history)) {
    watch.events.forEach((_, i) => {
      if (isDelivery(run, changes, watch, i)) candidates.push({ watch, index: i });
    });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { watch, index } = chosen;
  const events = [...watch.events.slice(0, index + 1), watch.events[index]!, ...watch.events.slice(index + 1)];
  return {
    invariant: "watch/no-gap",
    history: withOperations(run.history, [{ ...watch, events }]),
    operations: [watch.id],
    description: `delivered event ${index} of watch #${watch.id} twice`,
  };
};

/** Replaces the last state a DELETED event carries (of a deletion) with the object's state before it. */
export const wrongDeletedContent: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const candidates: { watch: WatchOperation; index: number; older: ObjectState }[] = [];
  for (const watch of watches(run.history)) {
    watch.events.forEach((event, i) => {
      if (event.type !== "DELETED" || !isDelivery(run, changes, watch, i)) return;
      const deletion = changes.get(event.object!.resourceVersion)!;
      if (deletion.after !== undefined) return; // an object leaving the selector, not a deletion
      const last = changes.get(deletion.before!.resourceVersion);
      const older = last?.before;
      if (older === undefined || older.uid !== deletion.before!.uid || older.value === deletion.before!.value) return;
      candidates.push({ watch, index: i, older });
    });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { watch, index, older } = chosen;
  const events = [...watch.events];
  const event = events[index]!;
  events[index] = { ...event, object: { ...older, resourceVersion: event.object!.resourceVersion } };
  return {
    invariant: "history/watch-event-content",
    history: withOperations(run.history, [{ ...watch, events }]),
    operations: [watch.id],
    description: `DELETED event ${index} of watch #${watch.id} carries an older state`,
  };
};

/** Removes one synthetic ADDED event from a watch that starts with the state and then delivers a change. */
export const wrongSyntheticState: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const candidates: { watch: WatchOperation; index: number }[] = [];
  for (const watch of watches(run.history)) {
    if (watch.resourceVersion !== undefined && watch.resourceVersion !== "0") continue;
    const synthetic = watch.events.findIndex((_, i) => isDelivery(run, changes, watch, i));
    if (synthetic <= 0) continue; // no synthetic event, or no change after them
    for (let i = 0; i < synthetic; i++) if (watch.events[i]!.type === "ADDED") candidates.push({ watch, index: i });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { watch, index } = chosen;
  return {
    invariant: "history/watch-initial-state",
    history: withOperations(run.history, [{ ...watch, events: watch.events.filter((_, i) => i !== index) }]),
    operations: [watch.id],
    description: `removed synthetic ADDED event ${index} of watch #${watch.id}`,
  };
};

/** Moves a bookmark at a change's version before a delivery at or before that version. */
export const bookmarkAhead: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const candidates: { watch: WatchOperation; bookmark: number; delivery: number }[] = [];
  for (const watch of watches(run.history)) {
    watch.events.forEach((event, i) => {
      if (event.type !== "BOOKMARK" || event.bookmarkVersion === undefined || !changes.has(event.bookmarkVersion)) return;
      let j = i - 1;
      while (j >= 0 && watch.events[j]!.type === "BOOKMARK") j--;
      if (j >= 0 && isDelivery(run, changes, watch, j)) candidates.push({ watch, bookmark: i, delivery: j });
    });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { watch, bookmark, delivery } = chosen;
  const events: WatchEvent[] = [...watch.events];
  const moved = events.splice(bookmark, 1)[0]!;
  events.splice(delivery, 0, { ...moved, atMs: watch.events[delivery]!.atMs });
  return {
    invariant: "watch/bookmark-order",
    history: withOperations(run.history, [{ ...watch, events }]),
    operations: [watch.id],
    description: `moved bookmark ${bookmark} of watch #${watch.id} before its delivery ${delivery}`,
  };
};

// ---------------------------------------------------------------------------------------------
// Read planters

/** Makes a Most Recent list answer the state before the last write acknowledged before it was sent. */
export const lagList: Planter = (run, rng) => {
  const { namespace } = run.truth;
  const writes = writesById(run.history);
  const writerOf = writeOfChange(run);
  const candidates: { list: ListOperation; cut: number; write: number }[] = [];
  for (const operation of run.history.operations) {
    if (operation.kind !== "list" || operation.resourceVersion !== undefined || operation.pages.length !== 1 || nearTheEnd(run, operation)) continue;
    const cut = run.truth.cutOfRead.get(operation.id);
    if (cut === undefined || cut === 0) continue;
    const last = namespace.changes[cut - 1]!;
    const write = writes.get(writerOf.get(last.index) ?? -1);
    if (write === undefined || write.answer.type !== "ok" || write.endMs === undefined || write.endMs >= operation.startMs) continue;
    const matches = workloadSelector(operation.labelSelector);
    if (!matches(last.before ?? last.after!) && !(last.after !== undefined && matches(last.after))) continue;
    candidates.push({ list: operation, cut, write: write.id });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { list, cut, write } = chosen;
  const page = list.pages[0]!;
  const items = namespace.stateAt(cut - 1, workloadSelector(list.labelSelector));
  const lagged: ListOperation = {
    ...list,
    pages: [{ ...page, answer: { type: "ok", resourceVersion: namespace.format(namespace.revisionOfCut(cut - 1)), items, continue: undefined, remainingItemCount: undefined } }],
  };
  return {
    invariant: "history/read-freshness",
    history: withOperations(run.history, [lagged]),
    operations: [list.id, write],
    description: `list #${list.id} answers the state before write #${write}, acknowledged before it was sent`,
  };
};

/** Makes a Most Recent get answer its object's previous version, replaced by a write acknowledged before it was sent. */
export const staleGet: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const writes = writesById(run.history);
  const writerOf = writeOfChange(run);
  const candidates: { get: GetOperation; older: ObjectState; write: number }[] = [];
  for (const operation of run.history.operations) {
    if (operation.kind !== "get" || operation.resourceVersion !== undefined || operation.answer.type !== "ok" || nearTheEnd(run, operation)) continue;
    const made = changes.get(operation.answer.object.resourceVersion);
    const older = made?.before;
    const write = writes.get(writerOf.get(made?.index ?? -1) ?? -1);
    if (older === undefined || write === undefined || write.answer.type !== "ok" || write.endMs === undefined || write.endMs >= operation.startMs) continue;
    candidates.push({ get: operation, older, write: write.id });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { get, older, write } = chosen;
  return {
    invariant: "history/read-freshness",
    history: withOperations(run.history, [{ ...get, answer: { type: "ok", object: older } }]),
    operations: [get.id, write],
    description: `get #${get.id} answers the version write #${write} had replaced before it was sent`,
  };
};

/** Replaces one item of an unpaged list at a change's version by that object's previous version. */
export const listNotAnyState: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const candidates: { list: ListOperation; item: number; older: ObjectState }[] = [];
  for (const operation of run.history.operations) {
    if (operation.kind !== "list" || operation.pages.length !== 1 || nearTheEnd(run, operation)) continue;
    const answer = operation.pages[0]!.answer;
    if (answer.type !== "ok" || !changes.has(answer.resourceVersion)) continue;
    answer.items.forEach((item, i) => {
      const older = changes.get(item.resourceVersion)?.before;
      if (older !== undefined && older.uid === item.uid && workloadSelector(operation.labelSelector)(older)) candidates.push({ list: operation, item: i, older });
    });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { list, item, older } = chosen;
  const page = list.pages[0]!;
  if (page.answer.type !== "ok") return undefined;
  const items = page.answer.items.map((object, i) => (i === item ? older : object));
  return {
    invariant: "history/read-state",
    history: withOperations(run.history, [{ ...list, pages: [{ ...page, answer: { ...page.answer, items } }] }]),
    operations: [list.id],
    description: `item ${item} of list #${list.id} is its object's previous version`,
  };
};

/** Answers page 2 of a paged list at a change's version from the state when page 2 was sent. */
export const mixPages: Planter = (run, rng) => {
  const { namespace } = run.truth;
  const candidates: { list: ListOperation; later: ObjectState[] }[] = [];
  for (const operation of run.history.operations) {
    if (operation.kind !== "list" || operation.pages.length < 2 || nearTheEnd(run, operation)) continue;
    const [first, second] = [operation.pages[0]!, operation.pages[1]!];
    const last = operation.pages[operation.pages.length - 1]!;
    if (last.answer.type !== "ok" || (last.answer.continue ?? "") !== "") continue; // not followed to its end
    if (first.answer.type !== "ok" || second.answer.type !== "ok" || second.answer.items.length === 0) continue;
    if (namespace.revisionOf(first.answer.resourceVersion) === undefined) continue;
    const matches = workloadSelector(operation.labelSelector);
    const served = second.answer.items;
    const names = new Set(served.map((item) => item.name));
    const later = namespace.stateAt(namespace.cutAtTime(second.startMs), matches).filter((object) => names.has(object.name));
    const same = later.length === served.length && later.every((object, i) => object.resourceVersion === served[i]!.resourceVersion && object.uid === served[i]!.uid);
    if (!same && later.length > 0) candidates.push({ list: operation, later });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { list, later } = chosen;
  const pages = list.pages.map((page, i) => (i === 1 && page.answer.type === "ok" ? { ...page, answer: { ...page.answer, items: later } } : page));
  return {
    invariant: "store/paging-consistent",
    history: withOperations(run.history, [{ ...list, pages }]),
    operations: [list.id],
    description: `page 2 of list #${list.id} comes from a later snapshot`,
  };
};

// ---------------------------------------------------------------------------------------------
// Write planters

/** Gives an acknowledged conditioned write a precondition that was stale when it took effect. */
export const applyStaleWrite: Planter = (run, rng) => {
  const changes = changeOfVersion(run);
  const writes = writesById(run.history);
  const candidates: { write: WriteOperation; stale: string }[] = [];
  for (const [id, change] of run.truth.changeOfWrite) {
    const write = writes.get(id);
    if (write === undefined || write.answer.type !== "ok" || write.verb === "create" || change.before === undefined) continue;
    const previous = changes.get(change.before.resourceVersion)?.before;
    if (previous === undefined || previous.uid !== change.before.uid) continue;
    candidates.push({ write, stale: previous.resourceVersion });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { write, stale } = chosen;
  return {
    invariant: "store/stale-write-rejected",
    history: withOperations(run.history, [{ ...write, precondition: stale }]),
    operations: [write.id],
    description: `write #${write.id} took effect conditioned on the stale rv ${stale}`,
  };
};

/** Makes a write whose outcome the client never learned take effect a second time. */
export const duplicateUncertainWrite: Planter = (run, rng) => {
  const { namespace } = run.truth;
  const writes = writesById(run.history);
  const writerOf = writeOfChange(run);
  const candidates: { write: WriteOperation; later: WriteOperation }[] = [];
  for (const [id, change] of run.truth.changeOfWrite) {
    const write = writes.get(id)!;
    const uncertain = write.answer.type === "uncertain" || (write.answer.type === "failed" && write.answer.code >= 500);
    if (!uncertain || change.after === undefined) continue;
    // A later write of the same object by another write, acknowledged: its change becomes a second application.
    for (let c = change.index + 1; c < namespace.changes.length; c++) {
      const next = namespace.changes[c]!;
      if (next.name !== change.name) continue;
      const later = writes.get(writerOf.get(c) ?? -1);
      if (next.after !== undefined && next.after.uid === change.after.uid && later !== undefined && later.value !== undefined) candidates.push({ write, later });
      break;
    }
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { write, later } = chosen;
  const rewrite = (object: ObjectState | undefined): ObjectState | undefined =>
    object !== undefined && object.value === later.value ? { ...object, value: write.value } : object;
  const replaced = run.history.operations.map((operation): Operation => {
    if (operation.id === later.id) return { ...later, answer: { type: "uncertain", error: "planted: never answered" }, endMs: undefined };
    switch (operation.kind) {
      case "watch":
        return { ...operation, events: operation.events.map((event) => ({ ...event, object: rewrite(event.object) })) };
      case "get":
        return operation.answer.type === "ok" ? { ...operation, answer: { ...operation.answer, object: rewrite(operation.answer.object)! } } : operation;
      case "list":
        return {
          ...operation,
          pages: operation.pages.map((page) => (page.answer.type === "ok" ? { ...page, answer: { ...page.answer, items: page.answer.items.map((item) => rewrite(item)!) } } : page)),
        };
      case "write":
        return operation.answer.type === "ok" ? { ...operation, answer: { ...operation.answer, object: rewrite(operation.answer.object)! } } : operation;
    }
  });
  return {
    invariant: "history/write-atomic",
    history: { ...run.history, operations: replaced },
    operations: [write.id],
    description: `uncertain write #${write.id} (${write.value}) took effect again in place of write #${later.id}`,
  };
};

/** Answers acknowledged write B with the version of acknowledged write A. */
export const shareVersion: Planter = (run, rng) => {
  const acknowledged = run.history.operations.filter(
    (operation): operation is WriteOperation => operation.kind === "write" && operation.verb !== "delete" && operation.answer.type === "ok",
  );
  if (acknowledged.length < 2) return undefined;
  const a = rng.pick(acknowledged);
  const b = rng.pick(acknowledged.filter((write) => write.id !== a.id));
  if (a.answer.type !== "ok" || b.answer.type !== "ok") return undefined;
  const answer = { ...b.answer, object: { ...b.answer.object, resourceVersion: a.answer.object.resourceVersion } };
  return {
    invariant: "history/write-versions",
    history: withOperations(run.history, [{ ...b, answer }]),
    operations: [a.id, b.id],
    description: `write #${b.id} answered with write #${a.id}'s version`,
  };
};

/** Makes write A, committed right after write B, look acknowledged before B was sent. */
export const contradictRealTime: Planter = (run, rng) => {
  const { namespace } = run.truth;
  const writes = writesById(run.history);
  const writerOf = writeOfChange(run);
  const candidates: { a: WriteOperation; b: WriteOperation }[] = [];
  for (let c = 1; c < namespace.changes.length; c++) {
    const b = writes.get(writerOf.get(c - 1) ?? -1);
    const a = writes.get(writerOf.get(c) ?? -1);
    if (a === undefined || b === undefined || a.answer.type !== "ok" || b.answer.type !== "ok") continue;
    if (a.startMs < b.startMs - 0.05) candidates.push({ a, b });
  }
  const chosen = pick(rng, candidates);
  if (chosen === undefined) return undefined;
  const { a, b } = chosen;
  return {
    invariant: "history/write-order",
    history: withOperations(run.history, [{ ...a, endMs: (a.startMs + b.startMs) / 2 }]),
    // What was planted is A's answer time; B is one write it now contradicts (there may be others).
    operations: [a.id],
    description: `write #${a.id}, committed after write #${b.id}, answered before #${b.id} was sent`,
  };
};

/** Answers a write that was answered with its object with 422 Invalid instead. */
export const failedWriteApplied: Planter = (run, rng) => {
  const candidates = run.history.operations.filter(
    (operation): operation is WriteOperation =>
      operation.kind === "write" && operation.verb !== "delete" && operation.answer.type === "ok" && run.truth.changeOfWrite.has(operation.id),
  );
  const write = pick(rng, candidates);
  if (write === undefined) return undefined;
  return {
    invariant: "history/failed-write-no-effect",
    history: withOperations(run.history, [{ ...write, answer: { type: "failed", code: 422, reason: "Invalid" } }]),
    operations: [write.id],
    description: `write #${write.id} answered 422 although it took effect`,
  };
};

/** Adds an acknowledged create that no stream or read ever shows, in the middle of the run. */
export const loseAcknowledgedWrite: Planter = (run, rng) => {
  const { history } = run;
  const atMs = history.startMs + (history.endMs - history.startMs) * (0.3 + rng.float() * 0.3);
  const lost: Omit<WriteOperation, "id"> = {
    kind: "write",
    client: "writer-0",
    startMs: atMs,
    endMs: atMs + 0.5,
    verb: "create",
    name: "cm-lost",
    precondition: undefined,
    value: "planted-lost-1",
    labels: { team: "a" },
    answer: { type: "ok", code: 201, object: { name: "cm-lost", uid: "uid-lost", resourceVersion: "planted-lost-version", value: "planted-lost-1", labels: { team: "a" } } },
  };
  const { history: inserted, id } = insertOperation(history, lost);
  return {
    invariant: "history/acknowledged-write-durable",
    history: inserted,
    operations: [id],
    description: `write #${id} was acknowledged and never seen`,
  };
};

/** Inserts an operation in start order and renumbers every id (and every resumes) to keep ids in start order. */
export function insertOperation(history: ApiHistory, operation: Omit<Operation, "id">): { history: ApiHistory; id: number } {
  const all = [...history.operations, { ...operation, id: -1 } as Operation];
  const sorted = all.map((op, seq) => ({ op, seq })).sort((x, y) => x.op.startMs - y.op.startMs || (x.op.id === -1 ? 1 : x.op.id) - (y.op.id === -1 ? 1 : y.op.id) || x.seq - y.seq);
  const newId = new Map<number, number>();
  sorted.forEach(({ op }, i) => {
    if (op.id !== -1) newId.set(op.id, i);
  });
  let id = -1;
  const operations = sorted.map(({ op }, i): Operation => {
    if (op.id === -1) id = i;
    const renumbered = { ...op, id: i } as Operation;
    if (renumbered.kind === "watch" && renumbered.resumes !== undefined) {
      return { ...renumbered, resumes: { ...renumbered.resumes, operation: newId.get(renumbered.resumes.operation)! } };
    }
    return renumbered;
  });
  return { history: { ...history, operations }, id };
}

/** Every planter, by the name the tests print. */
export const planters: Readonly<Record<string, Planter>> = {
  dropWatchEvent,
  swapWatchEvents,
  duplicateWatchEvent,
  wrongDeletedContent,
  wrongSyntheticState,
  bookmarkAhead,
  lagList,
  staleGet,
  listNotAnyState,
  mixPages,
  applyStaleWrite,
  duplicateUncertainWrite,
  shareVersion,
  contradictRealTime,
  failedWriteApplied,
  loseAcknowledgedWrite,
};
