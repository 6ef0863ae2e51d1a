import { describe, expect, it } from "vitest";
import { Simulation } from "../kernel/simulation.ts";
import { MvccStore } from "./mvcc-store.ts";
import { EncodedObjectKey, encodeKey } from "./object-key.ts";

describe("EncodedObjectKey", () => {
  it("encodes as the plain key does, and the store treats both as one key", () => {
    const encoded = new EncodedObjectKey("leases.coordination.k8s.io", "kube-node-lease", "node-1");
    const plain = { resource: "leases.coordination.k8s.io", namespace: "kube-node-lease", name: "node-1" };
    expect(encodeKey(encoded)).toBe(encodeKey(plain));
    const sim = new Simulation({ seed: "object-key" });
    const store = new MvccStore({ clock: sim, tokenKey: sim.rng.fork("token").bytes(32) });
    store.create(encoded, { metadata: { name: "node-1", namespace: "kube-node-lease" }, spec: { n: 1 } });
    store.update(plain, { metadata: { name: "node-1", namespace: "kube-node-lease" }, spec: { n: 2 } });
    expect(store.get(encoded)?.["spec"]).toEqual({ n: 2 });
  });

  it("checks its components once, when made", () => {
    expect(() => new EncodedObjectKey("nodes", "", "a/b")).toThrow(/invalid name/);
    expect(() => new EncodedObjectKey("", "ns", "a")).toThrow(/invalid resource/);
  });
});
