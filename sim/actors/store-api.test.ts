import { describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { ControlPlaneWorld } from "../scenarios/control-plane-world.ts";
import { ApiCallError } from "./api-client.ts";
import type { Lease } from "./api-objects.ts";
import { StoreApi } from "./store-api.ts";

function setup() {
  const dialect = dialectByName("orb");
  const world = new ControlPlaneWorld({ seed: "store-api", dialect });
  const api = new StoreApi({ server: world.server, rng: world.sim.rng.fork("api") });
  const created = api.createLease({ metadata: { name: "n1", namespace: "orb-node-lease" }, spec: { holderIdentity: "n1", renewTime: "t0" } });
  const renew = (lease: Lease, renewTime: string, resourceVersion = lease.metadata.resourceVersion): Lease =>
    api.updateLease({ metadata: { ...lease.metadata, resourceVersion }, spec: { ...lease.spec, renewTime } });
  const failure = (write: () => unknown): { reason: string; code: number } | undefined => {
    try {
      write();
      return undefined;
    } catch (error) {
      if (!(error instanceof ApiCallError)) throw error;
      return { reason: error.reason, code: error.code };
    }
  };
  return { api, created, renew, failure };
}

describe("StoreApi updates and their resourceVersion precondition", () => {
  it("accepts each write made with the version the last one returned", () => {
    const { api, created, renew } = setup();
    const first = renew(created, "t1");
    const second = renew(first, "t2");
    expect(second.spec.renewTime).toBe("t2");
    expect(api.getLease("orb-node-lease", "n1")).toBe(second);
  });

  it("answers 409 Conflict to a write made with an older version, 400 to one that is no version", () => {
    const { created, renew, failure } = setup();
    renew(created, "t1");
    expect(failure(() => renew(created, "t2"))).toEqual({ reason: "Conflict", code: 409 });
    expect(failure(() => renew(created, "t2", "not-a-version"))).toEqual({ reason: "BadRequest", code: 400 });
  });

  it("writes without a precondition when the version is empty", () => {
    const { created, renew } = setup();
    renew(created, "t1");
    expect(renew(created, "t2", "").spec.renewTime).toBe("t2");
  });
});
