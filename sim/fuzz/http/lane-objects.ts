/**
 * The objects of one lane, as the server holds them: listed before a write and again after an
 * error answer, to prove the error changed nothing (issue #14: "no write applied when the answer
 * is an error"). Before each write the lane's object is brought to the state the write expects
 * (its baseline, or absent), so every write starts from a known object and a shrunk failure
 * replays from the same state. Helper requests are ordinary JSON; a helper the server cannot
 * answer is a finding too (a stored object that breaks every later list is exactly such a bug).
 */
import { isDeepStrictEqual } from "node:util";
import { bodyText, type Outcome } from "./answer-oracle.ts";
import { baselineObject, collectionPath, isLaneObject, laneNames, type FuzzKind } from "./fuzz-kinds.ts";
import { fillPlaceholders, type PlaceholderValues, type Precondition } from "./fuzz-request.ts";
import type { FuzzTransport } from "./fuzz-transport.ts";

/** A helper request the server did not answer as it must: the server's fault, reported as a finding. */
export class HelperFailure extends Error {
  constructor(
    readonly what: string,
    readonly outcome: Outcome,
  ) {
    super(`${what}: ${outcome.kind === "answer" ? `${outcome.status} ${bodyText(outcome.body, 300)}` : outcome.detail}`);
  }
}

type JsonObject = Record<string, any>;

/** A lane's objects of one kind, by name, and the collection's resourceVersion. */
export interface LaneSnapshot {
  readonly objects: ReadonlyMap<string, JsonObject>;
  readonly resourceVersion: string;
}

/** Tracks one lane's objects of every kind. */
export class LaneObjects {
  private readonly snapshots = new Map<string, LaneSnapshot>();
  /** The resourceVersion each object had when the lane last made it its baseline. */
  private readonly baselines = new Map<string, string>();
  /** Helper requests sent. */
  helperRequests = 0;

  constructor(
    private readonly lane: number,
    private readonly transport: FuzzTransport,
    private readonly values: PlaceholderValues,
  ) {}

  /** The lane's objects of `kind` now (from the last list, unless a write may have changed them). */
  async snapshot(kind: FuzzKind): Promise<LaneSnapshot> {
    const cached = this.snapshots.get(kind.resource);
    if (cached !== undefined) return cached;
    return this.relist(kind);
  }

  /** Lists again, forgetting what was known. */
  async relist(kind: FuzzKind): Promise<LaneSnapshot> {
    const list = await this.json("GET", collectionPath(kind), undefined, "list the lane's objects");
    const objects = new Map<string, JsonObject>();
    for (const item of (list["items"] ?? []) as JsonObject[]) {
      if (isLaneObject(this.lane, item["metadata"]?.["name"])) objects.set(item["metadata"]["name"], item);
    }
    const snapshot = { objects, resourceVersion: String(list["metadata"]?.["resourceVersion"] ?? "") };
    this.snapshots.set(kind.resource, snapshot);
    return snapshot;
  }

  /** Forgets the snapshot of `kind` (after a write that succeeded). */
  forget(kind: FuzzKind): void {
    this.snapshots.delete(kind.resource);
  }

  /**
   * Brings `name` to `precondition` and removes the lane's stray objects (generated names), then
   * returns the snapshot the write starts from.
   */
  async prepare(kind: FuzzKind, name: string | undefined, precondition: Precondition): Promise<LaneSnapshot> {
    let snapshot = await this.snapshot(kind);
    const strays = [...snapshot.objects.keys()].filter((other) => !laneNames(this.lane).includes(other));
    for (const stray of strays) await this.remove(kind, stray, snapshot.objects.get(stray)!);
    if (strays.length > 0) snapshot = await this.relist(kind);
    if (name === undefined || precondition === "any") return snapshot;
    const current = snapshot.objects.get(name);
    if (precondition === "absent") {
      if (current === undefined) return snapshot;
      await this.remove(kind, name, current);
      return this.relist(kind);
    }
    if (current !== undefined && this.baselines.get(`${kind.resource}/${name}`) === current["metadata"]?.["resourceVersion"]) return snapshot;
    if (current !== undefined) await this.remove(kind, name, current);
    const created = await this.json("POST", collectionPath(kind), baselineObject(kind, this.lane, name), `create the baseline ${kind.kind} ${name}`);
    this.baselines.set(`${kind.resource}/${name}`, String(created["metadata"]?.["resourceVersion"]));
    return this.relist(kind);
  }

  /** Deletes an object at once, finalizers first. */
  private async remove(kind: FuzzKind, name: string, object: JsonObject): Promise<void> {
    const path = `${collectionPath(kind)}/${encodeURIComponent(name)}`;
    if ((object["metadata"]?.["finalizers"] ?? []).length > 0) {
      await this.json("PATCH", path, { metadata: { finalizers: null } }, `remove the finalizers of ${kind.kind} ${name}`, "application/merge-patch+json", [404]);
    }
    await this.json("DELETE", `${path}?gracePeriodSeconds=0`, undefined, `delete ${kind.kind} ${name}`, "application/json", [404]);
    this.baselines.delete(`${kind.resource}/${name}`);
  }

  private async json(method: string, path: string, body: unknown, what: string, contentType = "application/json", tolerated: readonly number[] = []): Promise<JsonObject> {
    this.helperRequests++;
    const headers: Array<[string, string]> = [["Accept", "application/json"]];
    if (body !== undefined) headers.push(["Content-Type", contentType]);
    const outcome = await this.transport.send(
      {
        method,
        target: fillPlaceholders(path, this.values),
        headers,
        ...(body !== undefined && { body: new TextEncoder().encode(fillPlaceholders(JSON.stringify(body), this.values)) }),
      },
      { streaming: false, expectsNoAnswer: false },
    );
    if (outcome.kind === "answer" && tolerated.includes(outcome.status)) return {};
    if (outcome.kind !== "answer" || outcome.status < 200 || outcome.status > 299) throw new HelperFailure(what, outcome);
    try {
      return JSON.parse(bodyText(outcome.body, Infinity)) as JsonObject;
    } catch {
      throw new HelperFailure(`${what} (the answer is not JSON)`, outcome);
    }
  }
}

/** Names whose objects differ between two snapshots (added, removed or changed). */
export function changedObjects(before: LaneSnapshot, after: LaneSnapshot): string[] {
  const names = new Set([...before.objects.keys(), ...after.objects.keys()]);
  return [...names].filter((name) => !isDeepStrictEqual(before.objects.get(name), after.objects.get(name))).sort();
}
