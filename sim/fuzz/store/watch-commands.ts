/**
 * Fuzz commands for watches: open one from a chosen revision (with or without the initial
 * state, with or without bookmarks), drain what it delivered, and reconnect it from the last
 * revision it saw, relisting when that revision was compacted, as a reflector does.
 */
import fc from "fast-check";
import { ExpiredError, StoreError } from "../../store/errors.ts";
import { encodeKey } from "../../store/object-key.ts";
import type { WatchEvent } from "../../store/watch.ts";
import { describe, valueOf, WORLD_SHAPE, type StoreWorld, type Watcher } from "./store-world.ts";
import { pickRevision, summarizeReference } from "./read-commands.ts";
import { objectKey, type WorldCommand } from "./write-commands.ts";

const PREFIXES = [`${WORLD_SHAPE.resource}/`, `${WORLD_SHAPE.resource}/${WORLD_SHAPE.namespaces[0]}/`];
const BOOKMARK_INTERVAL_MS = 250;

class WatchOpenCommand implements WorldCommand {
  constructor(
    readonly prefixIndex: number,
    readonly fraction: number,
    readonly initialState: boolean,
    readonly bookmarks: boolean,
  ) {}
  check(world: StoreWorld): boolean {
    return world.watchers.length < WORLD_SHAPE.maxWatchers;
  }
  async run(world: StoreWorld): Promise<void> {
    const prefix = PREFIXES[this.prefixIndex % PREFIXES.length]!;
    const fromRevision = pickRevision(world, this.fraction);
    const retained = world.reference.isRetained(fromRevision);
    const bookmarkIntervalMs = this.bookmarks ? BOOKMARK_INTERVAL_MS : undefined;
    try {
      const reader = world.store.watch({ prefix, fromRevision, initialState: this.initialState, bookmarkIntervalMs });
      world.expect("store/expired-never-partial", retained, () => `watch from compacted revision ${fromRevision} opened`);
      const state = world.reference.stateAt(fromRevision, prefix);
      // Start at Exact assumes the client holds the state at fromRevision (doc 1 §4.7).
      world.watchers.push({
        prefix,
        bookmarkIntervalMs,
        reader,
        seenRevision: fromRevision,
        pendingInitial: this.initialState ? state : new Map(),
        cache: this.initialState ? new Map() : state,
        lastBookmark: 0,
      });
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      world.expect(
        "store/expired-never-partial",
        !retained && error instanceof ExpiredError,
        () => `watch from ${fromRevision} (retained: ${retained}) failed: ${error.message}`,
      );
    }
    world.note("watch-open", { prefix, fromRevision, initialState: this.initialState, bookmarks: this.bookmarks });
  }
  toString(): string {
    const flags = `${this.initialState ? ", initial state" : ""}${this.bookmarks ? ", bookmarks" : ""}`;
    return `watchOpen(${PREFIXES[this.prefixIndex % PREFIXES.length]}, ${this.fraction.toFixed(2)}${flags})`;
  }
}

/** Applies one delivered event to the watcher, checking it is the one the reference expects next. */
function acceptEvent(world: StoreWorld, watcher: Watcher, event: WatchEvent): void {
  if (event.type === "BOOKMARK") {
    world.expect(
      "watch/bookmark-order",
      event.revision >= watcher.seenRevision && event.revision >= watcher.lastBookmark && event.revision <= world.store.revision,
      () => `BOOKMARK at ${event.revision} after events up to ${watcher.seenRevision} and bookmark ${watcher.lastBookmark}`,
    );
    watcher.lastBookmark = event.revision;
    watcher.seenRevision = Math.max(watcher.seenRevision, event.revision);
    return;
  }
  const key = encodeKey(objectKey(event.object.metadata.namespace ?? "", event.object.metadata.name));
  const got = `${event.type} ${describe(key, { value: valueOf(event.object), revision: event.revision })}`;
  world.expect(
    "watch/bookmark-order",
    event.revision > watcher.lastBookmark || watcher.pendingInitial.size > 0,
    () => `${got} delivered after a BOOKMARK at ${watcher.lastBookmark}`,
  );
  const [initialKey, initialEntry] = watcher.pendingInitial.entries().next().value ?? [];
  if (initialKey !== undefined && initialEntry !== undefined) {
    // Synthetic ADDED events of the initial state come first, in key order, at the start revision.
    const expected = `ADDED ${describe(initialKey, { value: initialEntry.value, revision: watcher.seenRevision })}`;
    world.expect("watch/no-gap", got === expected, () => `initial state: got ${got}, expected ${expected}`);
    watcher.pendingInitial.delete(initialKey);
    watcher.cache.set(key, { value: valueOf(event.object), revision: Number(event.object.metadata.resourceVersion) });
    return;
  }
  const next = world.reference.changesAfter(watcher.seenRevision, watcher.prefix)[0];
  const expected =
    next === undefined ? "nothing" : `${next.type} ${describe(next.key, { value: next.value, revision: next.revision })}`;
  world.expect("watch/no-gap", got === expected, () => `watch on ${watcher.prefix} after ${watcher.seenRevision}: got ${got}, expected ${expected}`);
  if (event.type === "DELETED") watcher.cache.delete(key);
  else watcher.cache.set(key, { value: valueOf(event.object), revision: event.revision });
  watcher.seenRevision = event.revision;
}

class WatchDrainCommand implements WorldCommand {
  constructor(readonly index: number) {}
  check(world: StoreWorld): boolean {
    return world.watchers.length > 0;
  }
  async run(world: StoreWorld): Promise<void> {
    const watcher = world.watchers[this.index % world.watchers.length]!;
    let delivered = 0;
    for (let event = watcher.reader.tryNext(); event !== undefined; event = watcher.reader.tryNext()) {
      acceptEvent(world, watcher, event);
      delivered++;
    }
    world.note("watch-drain", { prefix: watcher.prefix, delivered, seen: watcher.seenRevision });
    if (watcher.reader.endReason !== undefined) return;
    // Events are pushed as writes commit, so a drained watcher has seen everything (the reflector property).
    const cache = [...watcher.cache].sort(([a], [b]) => (a < b ? -1 : 1));
    const got = summarizeReference(new Map(cache));
    const expected = summarizeReference(world.reference.stateAt(world.reference.revision, watcher.prefix));
    world.expect(
      "watch/no-gap",
      watcher.pendingInitial.size === 0 && got.join() === expected.join(),
      () => `drained watcher on ${watcher.prefix} holds [${got}], store holds [${expected}]`,
    );
  }
  toString(): string {
    return `watchDrain(#${this.index})`;
  }
}

class WatchReconnectCommand implements WorldCommand {
  constructor(readonly index: number) {}
  check(world: StoreWorld): boolean {
    return world.watchers.length > 0;
  }
  async run(world: StoreWorld): Promise<void> {
    const watcher = world.watchers[this.index % world.watchers.length]!;
    // Events still buffered are lost with the connection, as on a real disconnect.
    watcher.reader.close();
    const { prefix, bookmarkIntervalMs } = watcher;
    const resumable = watcher.pendingInitial.size === 0;
    const retained = world.reference.isRetained(watcher.seenRevision);
    try {
      if (!resumable) throw new ExpiredError(watcher.seenRevision, world.store.compactedRevision);
      watcher.reader = world.store.watch({ prefix, fromRevision: watcher.seenRevision, bookmarkIntervalMs });
      world.expect("store/expired-never-partial", retained, () => `watch resumed at compacted revision ${watcher.seenRevision}`);
      world.note("watch-resume", { prefix, from: watcher.seenRevision });
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      world.expect(
        "store/expired-never-partial",
        !resumable || (!retained && error instanceof ExpiredError),
        () => `watch resume from ${watcher.seenRevision} (retained: ${retained}) failed: ${error.message}`,
      );
      // Doc 1 §7, 410: clear the cache, list again, watch from the list's revision.
      const list = world.store.list({ prefix });
      watcher.cache = new Map(
        list.items.map((object) => [
          encodeKey(objectKey(object.metadata.namespace ?? "", object.metadata.name)),
          { value: valueOf(object), revision: Number(object.metadata.resourceVersion) },
        ]),
      );
      watcher.pendingInitial = new Map();
      watcher.seenRevision = list.revision;
      watcher.lastBookmark = 0;
      watcher.reader = world.store.watch({ prefix, fromRevision: list.revision, bookmarkIntervalMs });
      world.note("watch-relist", { prefix, at: list.revision });
    }
  }
  toString(): string {
    return `watchReconnect(#${this.index})`;
  }
}

const watcherIndexArb = fc.nat(WORLD_SHAPE.maxWatchers - 1);

/** Opens a watcher. */
export const watchOpenCommand: fc.Arbitrary<WorldCommand> = fc
  .tuple(fc.nat(PREFIXES.length - 1), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.boolean(), fc.boolean())
  .map(([prefix, fraction, initialState, bookmarks]) => new WatchOpenCommand(prefix, fraction, initialState, bookmarks));

/** Opens a watcher that asks for bookmarks. */
export const bookmarkWatchOpenCommand: fc.Arbitrary<WorldCommand> = fc
  .tuple(fc.nat(PREFIXES.length - 1), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.boolean())
  .map(([prefix, fraction, initialState]) => new WatchOpenCommand(prefix, fraction, initialState, true));

/** Reads what a watcher was sent. */
export const watchDrainCommand: fc.Arbitrary<WorldCommand> = watcherIndexArb.map((index) => new WatchDrainCommand(index));

/** Drops a watcher's connection and resumes it. */
export const watchReconnectCommand: fc.Arbitrary<WorldCommand> = watcherIndexArb.map((index) => new WatchReconnectCommand(index));
