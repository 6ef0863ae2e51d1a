/**
 * Fuzz commands that change the store or move time: writes (some with stale preconditions),
 * clock advances (which fire bookmark timers) and compactions.
 */
import fc from "fast-check";
import { AlreadyExistsError, ConflictError, NotFoundError, StoreError } from "../../store/errors.ts";
import { encodeKey, type ObjectKey } from "../../store/object-key.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { WORLD_SHAPE, describe, type StoreWorld } from "./store-world.ts";

/** A fuzz command over a StoreWorld (the world is both model and system, see store-properties.ts). */
export type WorldCommand = fc.AsyncCommand<StoreWorld, StoreWorld>;

type WriteOp = "create" | "update" | "delete";

/** The key of an object of the fuzzed collection. */
export function objectKey(namespace: string, name: string): ObjectKey {
  return { resource: WORLD_SHAPE.resource, namespace, name };
}

/** The object the fuzzer writes: a ConfigMap-like body with one payload field. */
function objectFor(key: ObjectKey, value: string): StoredObject {
  return { metadata: { name: key.name, namespace: key.namespace }, data: { value } };
}

class WriteCommand implements WorldCommand {
  constructor(
    readonly op: WriteOp,
    readonly namespace: string,
    readonly name: string,
    readonly value: string,
    readonly stale: boolean,
  ) {}

  check(): boolean {
    return true;
  }

  async run(world: StoreWorld): Promise<void> {
    const key = objectKey(this.namespace, this.name);
    const encoded = encodeKey(key);
    const { reference, store } = world;
    const before = reference.stateAt(reference.revision).get(encoded);
    const revisionBefore = store.revision;
    // A stale precondition names a revision the object had before, or one it never had.
    const preconditions =
      before === undefined ? {} : { expectedRevision: this.stale ? before.revision - 1 : before.revision };
    let written: StoredObject | undefined;
    let failure: unknown;
    try {
      if (this.op === "create") written = store.create(key, objectFor(key, this.value));
      else if (this.op === "update") written = store.update(key, objectFor(key, this.value), preconditions);
      else written = store.delete(key, preconditions);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      failure = error;
    }
    world.note("write", { op: this.op, key: encoded, stale: this.stale, ok: written !== undefined });
    this.checkOutcome(world, encoded, before, revisionBefore, written, failure);
    if (written !== undefined) {
      reference.record({
        revision: store.revision,
        timeMs: world.sim.nowMs(),
        type: this.op === "create" ? "ADDED" : this.op === "update" ? "MODIFIED" : "DELETED",
        key: encoded,
        value: this.op === "delete" ? (before?.value ?? "") : this.value,
      });
    }
  }

  private checkOutcome(
    world: StoreWorld,
    key: string,
    before: { value: string; revision: number } | undefined,
    revisionBefore: number,
    written: StoredObject | undefined,
    failure: unknown,
  ): void {
    const rejectsAsStale = this.op !== "create" && before !== undefined && this.stale;
    if (written !== undefined) {
      const revision = world.store.revision;
      const resourceVersion = written.metadata.resourceVersion;
      world.expect(
        "store/revision-monotonic",
        revision > revisionBefore && resourceVersion === String(revision),
        () => `${this.op} ${key} returned resourceVersion ${resourceVersion}; store went ${revisionBefore} → ${revision}`,
      );
      world.expect("store/stale-write-rejected", !rejectsAsStale, () => `${this.op} ${key} with stale precondition applied`);
      return;
    }
    world.expect(
      "store/revision-monotonic",
      world.store.revision === revisionBefore,
      () => `failed ${this.op} of ${key} moved the revision ${revisionBefore} → ${world.store.revision}`,
    );
    if (rejectsAsStale) {
      const now = world.store.get(objectKey(...splitKey(key)));
      world.expect(
        "store/stale-write-rejected",
        failure instanceof ConflictError && now?.metadata.resourceVersion === String(before.revision),
        () => `stale ${this.op} of ${describe(key, before)} gave ${String(failure)}, object now at ${now?.metadata.resourceVersion}`,
      );
      return;
    }
    const expected = this.op === "create" ? AlreadyExistsError : NotFoundError;
    world.expect(
      this.op === "create" ? "store/revision-monotonic" : "store/stale-write-rejected",
      failure instanceof expected && (this.op === "create" ? before !== undefined : before === undefined),
      () => `${this.op} of ${describe(key, before)} failed with ${String(failure)}`,
    );
  }

  toString(): string {
    const stale = this.stale && this.op !== "create" ? ", stale" : "";
    return this.op === "delete" ? `delete(${this.namespace}/${this.name}${stale})` : `${this.op}(${this.namespace}/${this.name}=${this.value}${stale})`;
  }
}

function splitKey(key: string): [string, string] {
  const [, namespace, name] = key.split("/") as [string, string, string];
  return [namespace, name];
}

class AdvanceCommand implements WorldCommand {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(world: StoreWorld): Promise<void> {
    await world.sim.runFor(this.ms);
    world.note("advance", { ms: this.ms });
  }
  toString(): string {
    return `advance(${this.ms}ms)`;
  }
}

class CompactExpiredCommand implements WorldCommand {
  check(): boolean {
    return true;
  }
  async run(world: StoreWorld): Promise<void> {
    const { reference, store } = world;
    const cutoffMs = world.sim.nowMs() - store.historyWindowMs;
    const expected = Math.max(reference.compactedRevision, reference.revisionAt(cutoffMs));
    const compacted = store.compactExpiredHistory();
    world.expect(
      "store/expired-never-partial",
      compacted === expected,
      () => `compaction of history before ${cutoffMs}ms went to ${compacted}, expected ${expected}`,
    );
    reference.compactedRevision = store.compactedRevision;
    world.note("compact-expired", { compacted });
  }
  toString(): string {
    return "compactExpired()";
  }
}

class CompactToCommand implements WorldCommand {
  constructor(readonly behindLatest: number) {}
  check(): boolean {
    return true;
  }
  async run(world: StoreWorld): Promise<void> {
    const { reference, store } = world;
    const target = Math.max(store.compactedRevision, store.revision - this.behindLatest);
    store.compact(target);
    reference.compactedRevision = Math.max(reference.compactedRevision, target);
    world.note("compact", { target });
  }
  toString(): string {
    return `compactTo(latest - ${this.behindLatest})`;
  }
}

const namespaceArb = fc.constantFrom(...WORLD_SHAPE.namespaces);
const nameArb = fc.constantFrom(...WORLD_SHAPE.names);
const valueArb = fc.nat(99).map((n) => `v${n}`);

/** Writes of every kind, creates weighed up so collections grow; a quarter with stale preconditions. */
export const writeCommand: fc.Arbitrary<WorldCommand> = fc
  .tuple(fc.constantFrom<WriteOp>("create", "create", "create", "update", "update", "delete"), namespaceArb, nameArb, valueArb, fc.nat(3))
  .map(([op, namespace, name, value, staleDraw]) => new WriteCommand(op, namespace, name, value, staleDraw === 0));

/** Clock advances up to 600 ms, against a 1 s history window. */
export const advanceCommand: fc.Arbitrary<WorldCommand> = fc.integer({ min: 0, max: 600 }).map((ms) => new AdvanceCommand(ms));

/** Time-based compaction, as the periodic compactor does it. */
export const compactExpiredCommand: fc.Arbitrary<WorldCommand> = fc.constant(new CompactExpiredCommand());

/** Compaction to the latest revision or up to three behind it. */
export const compactToCommand: fc.Arbitrary<WorldCommand> = fc.nat(3).map((behind) => new CompactToCommand(behind));
