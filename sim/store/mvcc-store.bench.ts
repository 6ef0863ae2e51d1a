/**
 * Store throughput (`npm run bench:micro`): writes, and reads of a 10,000-object collection at a past
 * revision, whole and in pages of 500. Objects are ~2 KiB of JSON, doc 1 §8's example load.
 */
import { bench, describe } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { MvccStore } from "./mvcc-store.ts";
import type { StoredObject } from "./stored-object.ts";

const OBJECTS = 10_000;
const PADDING = "x".repeat(1900);

function newStore(): MvccStore {
  const sim = new Simulation({ seed: "bench" });
  return new MvccStore({ clock: sim, tokenKey: sim.rng.fork("token").bytes(32) });
}

function pod(index: number): StoredObject {
  const name = `pod-${String(index).padStart(5, "0")}`;
  return { metadata: { name, namespace: `ns-${index % 10}`, labels: { app: "bench" } }, spec: { padding: PADDING } };
}

function filledStore(): { store: MvccStore; pastRevision: number } {
  const store = newStore();
  for (let i = 0; i < OBJECTS; i++) store.create({ resource: "pods", namespace: `ns-${i % 10}`, name: pod(i).metadata.name }, pod(i));
  const pastRevision = store.revision;
  // Move every object on once, so the read at pastRevision has to look into history.
  for (let i = 0; i < OBJECTS; i++) store.update({ resource: "pods", namespace: `ns-${i % 10}`, name: pod(i).metadata.name }, pod(i));
  return { store, pastRevision };
}

describe("writes", () => {
  bench(`create ${OBJECTS} objects of ~2 KiB`, () => {
    const store = newStore();
    for (let i = 0; i < OBJECTS; i++) store.create({ resource: "pods", namespace: `ns-${i % 10}`, name: pod(i).metadata.name }, pod(i));
  }, { iterations: 5 });
});

describe(`reads of ${OBJECTS} objects at a past revision`, () => {
  const { store, pastRevision } = filledStore();
  bench("list whole", () => {
    store.list({ prefix: "pods/", revision: pastRevision });
  }, { iterations: 20 });
  bench("list in pages of 500", () => {
    let page = store.list({ prefix: "pods/", revision: pastRevision, limit: 500 });
    while (page.continueToken !== undefined) page = store.list({ prefix: "pods/", limit: 500, continueToken: page.continueToken });
  }, { iterations: 20 });
});
