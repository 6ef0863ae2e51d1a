import { describe, expect, it } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { startCompactor } from "./compactor.ts";
import { AlreadyExistsError, ConflictError, ExpiredError, InvalidContinueTokenError, NotFoundError, TooLargeResourceVersionError } from "./errors.ts";
import { MvccStore } from "./mvcc-store.ts";
import { collectionPrefix, EncodedObjectKey, type ObjectKey } from "./object-key.ts";
import type { StoredObject } from "./stored-object.ts";
import type { WatchEvent } from "./watch.ts";

function newStore(options: { historyWindowMs?: number; watchCapacity?: number } = {}) {
  const sim = new Simulation({ seed: "mvcc-store-test" });
  const store = new MvccStore({ clock: sim, tokenKey: sim.rng.fork("token").bytes(32), ...options });
  return { sim, store };
}

const pod = (namespace: string, name: string): ObjectKey => ({ resource: "pods", namespace, name });
const body = (key: ObjectKey, data: Record<string, unknown> = {}): StoredObject => ({
  metadata: { name: key.name, namespace: key.namespace },
  ...data,
});

function drain(watch: { tryNext(): WatchEvent | undefined }): string[] {
  const seen: string[] = [];
  for (let event = watch.tryNext(); event !== undefined; event = watch.tryNext()) {
    seen.push(event.type === "BOOKMARK" ? `BOOKMARK@${event.revision}` : `${event.type} ${event.object.metadata.name}@${event.revision}`);
  }
  return seen;
}

describe("writes and revisions", () => {
  it("starts at revision 1 and gives each write the next revision as its resourceVersion", () => {
    const { store } = newStore();
    expect(store.revision).toBe(1);
    const created = store.create(pod("a", "p"), body(pod("a", "p")));
    const updated = store.update(pod("a", "p"), body(pod("a", "p"), { spec: 1 }));
    const deleted = store.delete(pod("a", "p"));
    expect([created, updated, deleted].map((o) => o.metadata.resourceVersion)).toEqual(["2", "3", "4"]);
    expect(deleted["spec"]).toBe(1); // the DELETED state is the last state, restamped
    expect(store.revision).toBe(4);
  });

  it("rejects a taken name, a missing object and a stale precondition without moving the revision", () => {
    const { store } = newStore();
    const key = pod("a", "p");
    store.create(key, body(key));
    expect(() => store.create(key, body(key))).toThrow(AlreadyExistsError);
    expect(() => store.update(pod("a", "q"), body(pod("a", "q")))).toThrow(NotFoundError);
    expect(() => store.update(key, body(key, { x: 1 }), { expectedRevision: 1 })).toThrow(ConflictError);
    expect(() => store.delete(key, { expectedRevision: 7 })).toThrow(ConflictError);
    expect(store.revision).toBe(2);
    expect(store.get(key)?.["x"]).toBeUndefined();
  });

  it("lets a name be reused after deletion (doc 1 §2.1.3)", () => {
    const { store } = newStore();
    const key = pod("a", "p");
    store.create(key, body(key));
    store.delete(key);
    expect(store.create(key, body(key)).metadata.resourceVersion).toBe("4");
  });

  it("stores frozen copies, so neither writer nor reader can change history", () => {
    const { store } = newStore();
    const key = pod("a", "p");
    const written = body(key, { spec: { replicas: 1 } });
    store.create(key, written);
    (written["spec"] as { replicas: number }).replicas = 9;
    const read = store.get(key)!;
    expect((read["spec"] as { replicas: number }).replicas).toBe(1);
    expect(() => {
      (read["spec"] as { replicas: number }).replicas = 5;
    }).toThrow(TypeError);
  });

  it("refuses an object whose name or namespace differ from its key", () => {
    const { store } = newStore();
    expect(() => store.create(pod("a", "p"), body(pod("b", "p")))).toThrow(/written at key/);
  });
});

describe("reads at a revision", () => {
  it("reads any retained revision, and fails outside the retained range with typed errors", () => {
    const { store } = newStore();
    const key = pod("a", "p");
    store.create(key, body(key, { v: 1 }));
    store.update(key, body(key, { v: 2 }));
    expect(store.get(key, 2)?.["v"]).toBe(1);
    expect(store.get(key, 3)?.["v"]).toBe(2);
    expect(store.get(key, 1)).toBeUndefined();
    expect(() => store.get(key, 4)).toThrow(TooLargeResourceVersionError);
    store.compact(3);
    expect(() => store.get(key, 2)).toThrow(ExpiredError);
    expect(store.get(key, 3)?.["v"]).toBe(2);
  });

  it("lists in key order across namespaces, and one namespace by prefix", () => {
    const { store } = newStore();
    for (const [ns, name] of [["b", "x"], ["a", "z"], ["a", "y"]] as const) store.create(pod(ns, name), body(pod(ns, name)));
    store.create({ resource: "nodes", namespace: "", name: "n1" }, { metadata: { name: "n1" } });
    const names = (prefix: string) => store.list({ prefix }).items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    expect(names(collectionPrefix("pods"))).toEqual(["a/y", "a/z", "b/x"]);
    expect(names(collectionPrefix("pods", "a"))).toEqual(["a/y", "a/z"]);
    expect(store.list({ prefix: collectionPrefix("nodes") }).items.map((o) => o.metadata.name)).toEqual(["n1"]);
  });
});

describe("paging and continue tokens", () => {
  function storeWithPods(count: number) {
    const setup = newStore();
    for (let i = 0; i < count; i++) setup.store.create(pod("a", `p${i}`), body(pod("a", `p${i}`)));
    return setup;
  }

  it("pages a snapshot: same revision, remainingItemCount, no token on the last page", () => {
    const { store } = storeWithPods(5);
    const first = store.list({ prefix: "pods/", limit: 2 });
    expect(first.items.map((o) => o.metadata.name)).toEqual(["p0", "p1"]);
    expect(first.remainingItemCount).toBe(3);
    store.create(pod("a", "p10"), body(pod("a", "p10"))); // after the snapshot: must not show up
    const second = store.list({ prefix: "pods/", limit: 2, continueToken: first.continueToken! });
    const third = store.list({ prefix: "pods/", limit: 2, continueToken: second.continueToken! });
    expect([second.revision, third.revision]).toEqual([first.revision, first.revision]);
    expect(third.items.map((o) => o.metadata.name)).toEqual(["p4"]);
    expect(third.continueToken).toBeUndefined();
    expect(third.remainingItemCount).toBeUndefined();
  });

  it("gives no token when the page holds exactly the remaining items", () => {
    const { store } = storeWithPods(2);
    const page = store.list({ prefix: "pods/", limit: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.continueToken).toBeUndefined();
  });

  it("omits remainingItemCount with a filter, and fills pages with matches only (doc 1 §2.3)", () => {
    const { store } = storeWithPods(6);
    const even = (o: StoredObject) => Number(o.metadata.name.slice(1)) % 2 === 0;
    const first = store.list({ prefix: "pods/", limit: 2, filter: even });
    expect(first.items.map((o) => o.metadata.name)).toEqual(["p0", "p2"]);
    expect(first.remainingItemCount).toBeUndefined();
    const rest = store.list({ prefix: "pods/", limit: 2, filter: even, continueToken: first.continueToken! });
    expect(rest.items.map((o) => o.metadata.name)).toEqual(["p4"]);
    expect(rest.continueToken).toBeUndefined();
  });

  it("rejects altered, forged and foreign tokens instead of honouring them", () => {
    const { store } = storeWithPods(4);
    const token = store.list({ prefix: "pods/", limit: 1 }).continueToken!;
    const [payload, mac] = token.split(".") as [string, string];
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString());
    const altered = `${Buffer.from(JSON.stringify({ ...fields, k: "pods/a/p3" })).toString("base64url")}.${mac}`;
    for (const bad of [altered, "not-a-token", `${payload}.`, `${payload}.${"A".repeat(22)}`]) {
      expect(() => store.list({ prefix: "pods/", limit: 1, continueToken: bad })).toThrow(InvalidContinueTokenError);
    }
    expect(() => store.list({ prefix: "pods/a/", limit: 1, continueToken: token })).toThrow(/another collection/);
    const otherStore = new MvccStore({ clock: new Simulation({ seed: "x" }), tokenKey: new Uint8Array(32).fill(7) });
    expect(() => otherStore.list({ prefix: "pods/", limit: 1, continueToken: token })).toThrow(InvalidContinueTokenError);
  });

  it("expires a token whose revision was compacted, offering an inconsistent token that continues at the latest", () => {
    const { store } = storeWithPods(4);
    const first = store.list({ prefix: "pods/", limit: 2 });
    store.delete(pod("a", "p3"));
    store.compact(store.revision);
    let expired: ExpiredError | undefined;
    try {
      store.list({ prefix: "pods/", limit: 2, continueToken: first.continueToken! });
    } catch (error) {
      expired = error as ExpiredError;
    }
    expect(expired).toBeInstanceOf(ExpiredError);
    const rest = store.list({ prefix: "pods/", limit: 2, continueToken: expired!.continueToken! });
    expect(rest.items.map((o) => o.metadata.name)).toEqual(["p2"]);
    expect(rest.revision).toBe(store.revision);
  });
});

describe("watch", () => {
  it("replays changes after a revision, then delivers live ones, DELETED carrying the last state", () => {
    const { store } = newStore();
    const key = pod("a", "p");
    store.create(key, body(key));
    const from = store.revision;
    store.update(key, body(key, { v: 2 }));
    const watch = store.watch({ prefix: "pods/", fromRevision: from });
    store.delete(key);
    expect(drain(watch)).toEqual(["MODIFIED p@3", "DELETED p@4"]);
  });

  it("starts with the state at the start revision as synthetic ADDED events when asked", () => {
    const { store } = newStore();
    store.create(pod("a", "q"), body(pod("a", "q")));
    store.create(pod("a", "p"), body(pod("a", "p")));
    const watch = store.watch({ prefix: "pods/", initialState: true });
    store.create(pod("a", "r"), body(pod("a", "r")));
    expect(drain(watch)).toEqual(["ADDED p@3", "ADDED q@3", "ADDED r@4"]);
  });

  it("turns filter transitions into ADDED and DELETED, as Kubernetes does for selectors", () => {
    const { store } = newStore();
    const key = pod("a", "p");
    const watch = store.watch({ prefix: "pods/", filter: (o) => o["tier"] === "web" });
    store.create(key, body(key, { tier: "db" }));
    store.update(key, body(key, { tier: "web" }));
    store.update(key, body(key, { tier: "web", v: 2 }));
    store.update(key, body(key, { tier: "db" }));
    store.delete(key);
    expect(drain(watch)).toEqual(["ADDED p@3", "MODIFIED p@4", "DELETED p@5"]);
  });

  it("fails with Expired from a compacted revision", () => {
    const { store } = newStore();
    store.create(pod("a", "p"), body(pod("a", "p")));
    store.compact(2);
    expect(() => store.watch({ prefix: "pods/", fromRevision: 1 })).toThrow(ExpiredError);
  });

  it("closes a watcher that leaves more than its capacity unread, keeping what it buffered", () => {
    const { store } = newStore({ watchCapacity: 3 });
    const watch = store.watch({ prefix: "pods/" });
    for (let i = 0; i < 5; i++) store.create(pod("a", `p${i}`), body(pod("a", `p${i}`)));
    expect(watch.endReason).toBe("overflow");
    expect(drain(watch)).toEqual(["ADDED p0@2", "ADDED p1@3", "ADDED p2@4"]);
  });

  it("sends bookmarks at the interval with the store's revision, and stops them on close", async () => {
    const { sim, store } = newStore();
    const watch = store.watch({ prefix: "pods/", bookmarkIntervalMs: 100 });
    store.create(pod("a", "p"), body(pod("a", "p")));
    await sim.runFor(250);
    expect(drain(watch)).toEqual(["ADDED p@2", "BOOKMARK@2", "BOOKMARK@2"]);
    watch.close();
    await sim.runFor(1000);
    expect(sim.pendingEvents).toBe(0);
  });

  it("delivers to a consumer awaiting next(), and ends its iteration on close", async () => {
    const { store } = newStore();
    const watch = store.watch({ prefix: "pods/" });
    const pending = watch.next();
    store.create(pod("a", "p"), body(pod("a", "p")));
    expect((await pending)?.type).toBe("ADDED");
    const ended = watch.next();
    watch.close();
    expect(await ended).toBeUndefined();
  });
});

describe("waiting for a revision", () => {
  it("resolves when a write reaches it, and fails with 504's error after the wait", async () => {
    const { sim, store } = newStore();
    const start = sim.nowMs();
    const outcomes: string[] = [];
    void store.waitForRevision(2, 3000).then(() => outcomes.push(`reached at ${sim.nowMs() - start}`));
    store.waitForRevision(50, 3000).catch((error: unknown) => {
      outcomes.push(`${error instanceof TooLargeResourceVersionError ? "too large" : String(error)} at ${sim.nowMs() - start}`);
    });
    sim.setTimer(500, () => store.create(pod("a", "p"), body(pod("a", "p"))));
    await sim.run();
    expect(outcomes).toEqual(["reached at 500", "too large at 3000"]);
  });
});

describe("compaction by time", () => {
  it("keeps history for one to two compaction intervals, as real servers do", async () => {
    const { sim, store } = newStore({ historyWindowMs: 1000 });
    const compactor = startCompactor(store, sim, 1000);
    await sim.runFor(100);
    store.create(pod("a", "p"), body(pod("a", "p"))); // revision 2 at t=100
    await sim.runFor(950); // t=1050: the tick at 1000 keeps it (written less than a window ago)
    store.update(pod("a", "p"), body(pod("a", "p"), { v: 2 })); // revision 3 at t=1050
    expect(store.compactedRevision).toBe(1);
    await sim.runFor(1000); // t=2050: the tick at 2000 drops what was written before t=1000
    expect(store.compactedRevision).toBe(2);
    expect(() => store.get(pod("a", "p"), 1)).toThrow(ExpiredError);
    expect(store.get(pod("a", "p"), 2)).toBeDefined();
    await sim.runFor(1000); // t=3050: the tick at 3000 drops what was written before t=2000
    expect(store.compactedRevision).toBe(3);
    compactor.cancel();
    expect(sim.pendingEvents).toBe(0);
  });

  it("forgets deleted keys once their deletion is compacted", () => {
    const { store } = newStore();
    store.create(pod("a", "p"), body(pod("a", "p")));
    store.delete(pod("a", "p"));
    store.compact(store.revision);
    expect(store.list({ prefix: "pods/" }).items).toEqual([]);
    expect(store.get(pod("a", "p"))).toBeUndefined();
    expect(store.keyCount).toBe(0);
  });

  it("forgets a key deleted after a compaction that left it alone, at the next one", () => {
    const { store } = newStore();
    store.create(pod("a", "p"), body(pod("a", "p")));
    store.create(pod("a", "q"), body(pod("a", "q")));
    store.compact(store.revision); // nothing to drop: one live version each
    store.update(pod("a", "q"), body(pod("a", "q"), { v: 2 }));
    store.delete(pod("a", "p"));
    const deletion = store.revision;
    store.compact(deletion - 1); // the deletion is newer: p is still readable before it
    expect(store.get(pod("a", "p"), deletion - 1)).toBeDefined();
    expect(store.keyCount).toBe(2);
    store.compact(deletion);
    expect(store.keyCount).toBe(1);
    expect(store.get(pod("a", "q"))?.["v"]).toBe(2);
  });
});

describe("writes through an encoded key, which keeps the key's history", () => {
  it("finds the key again after compaction forgot it and a create brought it back", () => {
    const { store } = newStore();
    const key = new EncodedObjectKey("pods", "a", "p");
    store.create(key, body(key, { v: 1 }));
    store.update(key, body(key, { v: 2 }));
    store.delete(key);
    store.compact(store.revision); // the history the key kept is forgotten
    expect(store.get(key)).toBeUndefined();
    expect(() => store.update(key, body(key))).toThrow(NotFoundError);
    store.create(key, body(key, { v: 3 }));
    store.update(key, body(key, { v: 4 }));
    expect(store.get(key)?.["v"]).toBe(4);
    expect(store.get(pod("a", "p"))?.["v"]).toBe(4);
    expect(store.list({ prefix: "pods/" }).items.map((object) => object["v"])).toEqual([4]);
  });

  it("reads and writes each store's own history when one key object serves two stores", () => {
    const first = newStore().store;
    const second = newStore().store;
    const key = new EncodedObjectKey("pods", "a", "p");
    first.create(key, body(key, { v: 1 }));
    expect(second.get(key)).toBeUndefined();
    second.create(key, body(key, { v: 2 }));
    first.update(key, body(key, { v: 3 }));
    expect([first.get(key)?.["v"], second.get(key)?.["v"]]).toEqual([3, 2]);
  });
});

describe("closing all watches", () => {
  it("ends every open watch, keeping what each buffered", () => {
    const { store } = newStore();
    const first = store.watch({ prefix: "pods/" });
    const second = store.watch({ prefix: "pods/a/" });
    store.create(pod("a", "p"), body(pod("a", "p")));
    store.closeAllWatches();
    expect([first.endReason, second.endReason]).toEqual(["closed", "closed"]);
    expect(drain(first)).toEqual(["ADDED p@2"]);
    store.create(pod("a", "q"), body(pod("a", "q")));
    expect(drain(second)).toEqual(["ADDED p@2"]);
  });
});
