/** The audit of a run's writes (issue #14): what it lets through, and that it catches each way out. */
import { describe, expect, it } from "vitest";
import type { ClusterSnapshot, SnapshotEntry } from "./cluster-snapshot.ts";
import { auditWrites, type AuditedRequest } from "./write-audit.ts";

/** A first snapshot holding `keys` (`<group>/<resource> <namespace>/<name>`). */
function snapshotOf(...keys: string[]): ClusterSnapshot {
  return { objects: new Map(keys.map((key) => [key, { key } as SnapshotEntry])), types: 1 };
}

const BEFORE = snapshotOf("/namespaces /keep-me", "/namespaces /orb-conformance-0a0a0a-0", "/nodes /bystander-node", "apiextensions.k8s.io/customresourcedefinitions /theirs.example.io");
const request = (method: string, path: string, bodyName?: string): AuditedRequest => ({ method, path, bodyName });
const OWN = "orb-conformance-abc123-0";

describe("the write audit", () => {
  it("lets through the run's namespaces and their content, reviews, and the Nodes it made, reads anywhere", () => {
    const audit = auditWrites(
      [
        request("GET", "/api/v1/namespaces/keep-me/configmaps"),
        request("POST", "/api/v1/namespaces", OWN),
        request("POST", `/api/v1/namespaces/${OWN}/configmaps?dryRun=All`, "c"),
        request("PATCH", `/apis/apps/v1/namespaces/${OWN}/deployments/d`),
        request("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
        request("POST", "/api/v1/nodes", "node-abc123-0"),
        request("PUT", "/api/v1/nodes/node-abc123-0"),
        request("DELETE", "/api/v1/nodes/node-abc123-0"),
        request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "widgets.own.example.io"),
        request("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.own.example.io"),
        request("PUT", `/api/v1/namespaces/${OWN}/finalize`),
        request("DELETE", `/api/v1/namespaces/${OWN}`),
      ],
      BEFORE,
    );
    expect(audit).toEqual({ runNamespaces: [OWN], clusterObjects: ["/nodes/node-abc123-0", "apiextensions.k8s.io/customresourcedefinitions/widgets.own.example.io"], outside: [] });
  });

  it.each([
    ["into a namespace it did not create", [request("PATCH", "/api/v1/namespaces/keep-me/configmaps/c")]],
    ["to a namespace it did not create", [request("DELETE", "/api/v1/namespaces/keep-me")]],
    ["into its namespace before creating it", [request("POST", `/api/v1/namespaces/${OWN}/configmaps`, "c"), request("POST", "/api/v1/namespaces", OWN)]],
    ["to a namespace named like the run's that existed before", [request("POST", "/api/v1/namespaces", "orb-conformance-0a0a0a-0")]],
    ["to a namespace not named like the run's", [request("POST", "/api/v1/namespaces", "mine")]],
    ["to the namespace collection", [request("DELETE", "/api/v1/namespaces")]],
    ["to a Node that existed before", [request("DELETE", "/api/v1/nodes/bystander-node")]],
    ["creating a Node under the name of one that existed before", [request("POST", "/api/v1/nodes", "bystander-node")]],
    ["creating a Node of no known name", [request("POST", "/api/v1/nodes")]],
    ["creating a cluster-scoped object of another type", [request("POST", "/apis/storage.k8s.io/v1/storageclasses", "fast")]],
    ["to a CustomResourceDefinition that existed before", [request("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/theirs.example.io")]],
    ["to a review by name", [request("PUT", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x")]],
    ["to a path that names no resource", [request("POST", "/version")]],
  ])("flags a write %s (the first request)", (_name, requests) => {
    expect(auditWrites(requests, BEFORE).outside).toContain(`${requests[0]!.method} ${requests[0]!.path}`);
  });
});
