/**
 * Fuzz commands that read: get and list at a chosen revision, and paged lists whose pages are
 * fetched with writes and compactions in between. Revisions are chosen from just below the
 * compacted revision to the latest, so both retained and compacted reads are exercised.
 */
import fc from "fast-check";
import { ExpiredError, StoreError } from "../../store/errors.ts";
import { encodeKey } from "../../store/object-key.ts";
import type { ListResult } from "../../store/mvcc-store.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import type { ReferenceEntry } from "./reference-model.ts";
import { WORLD_SHAPE, describe, valueOf, type Pager, type StoreWorld } from "./store-world.ts";
import { objectKey, type WorldCommand } from "./write-commands.ts";

const PREFIXES = [`${WORLD_SHAPE.resource}/`, ...WORLD_SHAPE.namespaces.map((ns) => `${WORLD_SHAPE.resource}/${ns}/`)];

/**
 * A revision to read at: once anything is compacted, a quarter of the picks fall one or two
 * below the compacted revision (so 410s are common); the rest spread over the retained range.
 */
export function pickRevision(world: StoreWorld, fraction: number): number {
  const { compactedRevision: compacted, revision } = world.store;
  if (compacted > 1 && fraction < 0.25) return Math.max(1, compacted - 1 - Math.floor(fraction * 8));
  const spread = compacted > 1 ? (fraction - 0.25) / 0.75 : fraction;
  return Math.min(revision, compacted + Math.floor(spread * (revision - compacted + 1)));
}

/** "key=value@rv" for each stored object, for comparison with the reference. */
export function summarize(objects: readonly StoredObject[]): string[] {
  return objects.map((object) => {
    const key = encodeKey(objectKey(object.metadata.namespace ?? "", object.metadata.name));
    return describe(key, { value: valueOf(object), revision: Number(object.metadata.resourceVersion) });
  });
}

/** "key=value@rv" for each reference entry. */
export function summarizeReference(entries: ReadonlyMap<string, ReferenceEntry>): string[] {
  return [...entries].map(([key, entry]) => describe(key, entry));
}

/**
 * Runs a read at `revision`: returns its result when the revision is retained, checks that it
 * fails with Expired (and returns undefined) when it is compacted.
 */
function readAt<T>(world: StoreWorld, revision: number, what: string, read: () => T): T | undefined {
  const retained = world.reference.isRetained(revision);
  try {
    const result = read();
    world.expect("store/expired-never-partial", retained, () => `${what} at compacted revision ${revision} answered`);
    return retained ? result : undefined;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    world.expect(
      "store/expired-never-partial",
      !retained && error instanceof ExpiredError,
      () => `${what} at revision ${revision} (retained: ${retained}) failed: ${error.message}`,
    );
    return undefined;
  }
}

class ListAtCommand implements WorldCommand {
  constructor(
    readonly prefixIndex: number,
    readonly fraction: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(world: StoreWorld): Promise<void> {
    const prefix = PREFIXES[this.prefixIndex % PREFIXES.length]!;
    const revision = pickRevision(world, this.fraction);
    const result = readAt(world, revision, `list ${prefix}`, () => world.store.list({ prefix, revision }));
    world.note("list", { prefix, revision, items: result?.items.length });
    if (result === undefined) return;
    const got = summarize(result.items);
    const expected = summarizeReference(world.reference.stateAt(revision, prefix));
    world.expect(
      "store/list-at-revision",
      result.revision === revision && got.join() === expected.join(),
      () => `list ${prefix} at ${revision} gave [${got}] at ${result.revision}, expected [${expected}]`,
    );
  }
  toString(): string {
    return `listAt(${PREFIXES[this.prefixIndex % PREFIXES.length]}, ${this.fraction.toFixed(2)})`;
  }
}

class GetCommand implements WorldCommand {
  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly fraction: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(world: StoreWorld): Promise<void> {
    const key = objectKey(this.namespace, this.name);
    const revision = pickRevision(world, this.fraction);
    const result = readAt(world, revision, `get ${encodeKey(key)}`, () => ({ object: world.store.get(key, revision) }));
    world.note("get", { key: encodeKey(key), revision, found: result?.object !== undefined });
    if (result === undefined) return;
    const got = result.object === undefined ? [] : summarize([result.object]);
    const entry = world.reference.stateAt(revision).get(encodeKey(key));
    const expected = entry === undefined ? [] : [describe(encodeKey(key), entry)];
    world.expect(
      "store/list-at-revision",
      got.join() === expected.join(),
      () => `get ${encodeKey(key)} at ${revision} gave [${got}], expected [${expected}]`,
    );
  }
  toString(): string {
    return `get(${this.namespace}/${this.name}, ${this.fraction.toFixed(2)})`;
  }
}

/** Checks one page against the snapshot at the pager's first revision, and keeps its items. */
function acceptPage(world: StoreWorld, pager: Pager, page: ListResult): void {
  const snapshot = summarizeReference(world.reference.stateAt(pager.firstRevision, pager.prefix));
  pager.collected.push(...page.items);
  const got = summarize(pager.collected);
  const expectedSoFar = snapshot.slice(0, got.length);
  world.expect(
    "store/paging-consistent",
    page.revision === pager.firstRevision && page.items.length <= pager.limit && got.join() === expectedSoFar.join(),
    () => `page of ${pager.prefix} (limit ${pager.limit}) at ${page.revision}: collected [${got}], snapshot at ${pager.firstRevision} [${snapshot}]`,
  );
  if (page.continueToken === undefined) {
    world.expect("store/paging-consistent", got.length === snapshot.length, () => `pages ended after [${got}] of [${snapshot}]`);
    return;
  }
  world.expect(
    "store/paging-consistent",
    page.items.length === pager.limit && page.remainingItemCount === snapshot.length - got.length,
    () => `page of ${page.items.length} (limit ${pager.limit}) said ${page.remainingItemCount} remain; snapshot has ${snapshot.length - got.length} more`,
  );
  pager.token = page.continueToken;
  if (!world.pagers.includes(pager)) world.pagers.push(pager);
}

class PageStartCommand implements WorldCommand {
  constructor(
    readonly prefixIndex: number,
    readonly limit: number,
    readonly fraction: number | undefined,
  ) {}
  check(world: StoreWorld): boolean {
    return world.pagers.length < WORLD_SHAPE.maxPagers;
  }
  async run(world: StoreWorld): Promise<void> {
    const prefix = PREFIXES[this.prefixIndex % PREFIXES.length]!;
    // A first page at the latest revision (Most Recent) or at a chosen one (Exact), doc 1 §4.7.
    const revision = this.fraction === undefined ? world.store.revision : pickRevision(world, this.fraction);
    const page = readAt(world, revision, `first page of ${prefix}`, () =>
      world.store.list({ prefix, limit: this.limit, ...(this.fraction !== undefined && { revision }) }),
    );
    world.note("page-start", { prefix, limit: this.limit, revision, items: page?.items.length });
    if (page === undefined) return;
    acceptPage(world, { prefix, limit: this.limit, firstRevision: revision, collected: [], token: "" }, page);
  }
  toString(): string {
    const at = this.fraction === undefined ? "latest" : this.fraction.toFixed(2);
    return `pageStart(${PREFIXES[this.prefixIndex % PREFIXES.length]}, limit ${this.limit}, ${at})`;
  }
}

class PageNextCommand implements WorldCommand {
  constructor(readonly index: number) {}
  check(world: StoreWorld): boolean {
    return world.pagers.length > 0;
  }
  async run(world: StoreWorld): Promise<void> {
    const pager = world.pagers[this.index % world.pagers.length]!;
    world.pagers.splice(world.pagers.indexOf(pager), 1);
    const page = readAt(world, pager.firstRevision, `next page of ${pager.prefix}`, () =>
      world.store.list({ prefix: pager.prefix, limit: pager.limit, continueToken: pager.token }),
    );
    world.note("page-next", { prefix: pager.prefix, revision: pager.firstRevision, items: page?.items.length });
    if (page !== undefined) acceptPage(world, pager, page);
  }
  toString(): string {
    return `pageNext(#${this.index})`;
  }
}

const fractionArb = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const prefixArb = fc.nat(PREFIXES.length - 1);

/** Lists at a chosen revision. */
export const listAtCommand: fc.Arbitrary<WorldCommand> = fc
  .tuple(prefixArb, fractionArb)
  .map(([prefix, fraction]) => new ListAtCommand(prefix, fraction));

/** Gets at a chosen revision. */
export const getCommand: fc.Arbitrary<WorldCommand> = fc
  .tuple(fc.constantFrom(...WORLD_SHAPE.namespaces), fc.constantFrom(...WORLD_SHAPE.names), fractionArb)
  .map(([namespace, name, fraction]) => new GetCommand(namespace, name, fraction));

/** First pages, half at the latest revision and half at a chosen one, limit 1 to 3. */
export const pageStartCommand: fc.Arbitrary<WorldCommand> = fc
  .tuple(prefixArb, fc.integer({ min: 1, max: 3 }), fc.option(fractionArb, { nil: undefined, freq: 1 }))
  .map(([prefix, limit, fraction]) => new PageStartCommand(prefix, limit, fraction));

/** Next pages of an open paged list. */
export const pageNextCommand: fc.Arbitrary<WorldCommand> = fc.nat(WORLD_SHAPE.maxPagers - 1).map((index) => new PageNextCommand(index));
