/**
 * The built-in types served from the recording of kube-apiserver 1.26.4 (recorded-types.ts,
 * builtin-types-data/): per type, its discovery entries against the recorded ones, a
 * create/get/list/update/patch/delete round trip whose create answer equals the recorded one
 * (defaults included; managedFields left out, which this server does not write), and its Table
 * against the recorded columns and cells.
 */
import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { apiResourceList } from "../discovery/discovery.ts";
import { testServer } from "../test-server.ts";
import { watchLineReader } from "../watch/watch-line-reader.ts";
import { recordedType, recordedTypesData, SERVED_RECORDED_TYPES, UNSERVED_SUBRESOURCES } from "./recorded-types.ts";
import { apiVersionOf, ResourceRegistry, resourceTypes } from "./resource-types.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");
const registry = new ResourceRegistry(kubernetes);
const TABLE = "application/json;as=Table;g=meta.k8s.io;v=v1";
const NAMESPACE = "default";

/** `value` with the volatile values replaced as the recorder replaces them (uid, times, the namespace, resourceVersion). */
function stabilized(value: unknown, uid: string): unknown {
  if (typeof value === "string") {
    if (value === NAMESPACE) return "<namespace>";
    if (value.includes(uid)) return value.replaceAll(uid, "<uid>");
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value)) return "<time>";
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => stabilized(item, uid));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === "resourceVersion" ? "<resourceVersion>" : stabilized(item, uid)]));
  }
  return value;
}

/**
 * The recorded create answer less what this server leaves out on purpose: managedFields (it writes
 * none) and the storage-protection finalizers, which only a real cluster's controllers remove
 * (registry/recorded-type-defaults.ts).
 */
function withoutLeftOut(object: Record<string, any>): Record<string, any> {
  const { managedFields: _dropped, ...metadata } = object["metadata"];
  const finalizers = ((metadata["finalizers"] ?? []) as string[]).filter((finalizer) => !["kubernetes.io/pvc-protection", "kubernetes.io/pv-protection"].includes(finalizer));
  if (finalizers.length === 0) delete metadata["finalizers"];
  else metadata["finalizers"] = finalizers;
  return { ...object, metadata };
}

const served = Object.keys(SERVED_RECORDED_TYPES);

describe("the recorded built-in types", () => {
  it("are the recorded types with a sample, in the issue's order, served in both dialects", () => {
    // Every recorded type, in the recording's (the issue's) order.
    expect(served).toEqual(Object.keys(recordedTypesData().types));
    expect(served).toHaveLength(25);
    expect(recordedTypesData().gitVersion).toBe("v1.26.4");
    for (const dialect of [kubernetes, orb]) {
      const resources = resourceTypes(dialect).filter((type) => type.recorded === true);
      expect(resources.map((type) => type.resource)).toEqual(served);
    }
    // The orb dialect names the RBAC group as its own (spec/dialects.ts), as it does the Lease's.
    const orbRoles = resourceTypes(orb).find((type) => type.resource === "roles")!;
    expect(apiVersionOf(orbRoles)).toBe("rbac.authorization.orb.io/v1");
  });

  describe.each(served)("%s", (resource) => {
    const recorded = recordedType(resource);
    const type = registry.types.find((candidate) => candidate.resource === resource && candidate.recorded === true)!;
    const base = recorded.group === "" ? `/api/${recorded.version}` : `/apis/${recorded.group}/${recorded.version}`;
    const collection = type.namespaced ? `${base}/namespaces/${NAMESPACE}/${resource}` : `${base}/${resource}`;
    const sample = recorded.sample!;
    const name = (sample.sent["metadata"] as { name: string }).name;

    it("is discovered as kube-apiserver 1.26.4 lists it (its subresources less those without a handler)", () => {
      const list = apiResourceList(registry, recorded.group, recorded.version)!;
      const entry = list.resources.find((candidate) => candidate.name === resource);
      expect(JSON.stringify(entry)).toBe(JSON.stringify(recorded.discovery));
      for (const [subresource, recordedEntry] of Object.entries(recorded.subresources)) {
        const ours = list.resources.find((candidate) => candidate.name === `${resource}/${subresource}`);
        if (UNSERVED_SUBRESOURCES.has(`${resource}/${subresource}`)) expect(ours).toBeUndefined();
        else expect(JSON.stringify(ours)).toBe(JSON.stringify(recordedEntry));
      }
    });

    it("goes through create (with the recorded defaults), get, list, watch, update, patch and delete", async () => {
      const server = testServer();
      const { call } = server;
      const before = (await call("GET", collection)).json.metadata.resourceVersion as string;
      const watchResponse = await server.server.handle(new Request(`http://test.local${collection}?watch=1&resourceVersion=${before}`));
      const watch = watchLineReader(watchResponse);
      const created = await call("POST", collection, sample.sent);
      expect(created.status).toBe(201);
      const uid = created.json.metadata.uid as string;
      expect(stabilized(created.json, uid)).toEqual(withoutLeftOut(sample.created));

      const got = await call("GET", `${collection}/${name}`);
      expect([got.status, got.json]).toEqual([200, created.json]);
      const list = await call("GET", collection);
      expect(list.json.kind).toBe(`${type.kind}List`);
      expect(list.json.items.map((item: any) => item.metadata.name)).toContain(name);

      const updated = await call("PUT", `${collection}/${name}`, { ...created.json, metadata: { ...created.json.metadata, labels: { ...created.json.metadata.labels, tier: "one" } } });
      expect([updated.status, updated.json.metadata.labels.tier]).toEqual([200, "one"]);
      const patched = await call("PATCH", `${collection}/${name}`, { metadata: { labels: { tier: "two" } } }, { "content-type": "application/strategic-merge-patch+json" });
      expect([patched.status, patched.json.metadata.labels.tier]).toEqual([200, "two"]);
      // A label is no spec change: the generation, where the type counts it, stays 1.
      expect(patched.json.metadata.generation).toBe(created.json.metadata.generation);

      expect((await call("DELETE", `${collection}/${name}`)).status).toBe(200);
      expect((await call("GET", `${collection}/${name}`)).status).toBe(404);

      const events = [await watch.next(), await watch.next(), await watch.next(), await watch.next()];
      expect(events.map((event: any) => `${event.type} ${event.object.kind} ${event.object.metadata.name}`)).toEqual(
        ["ADDED", "MODIFIED", "MODIFIED", "DELETED"].map((eventType) => `${eventType} ${type.kind} ${name}`),
      );
      expect(events[0].object).toEqual(created.json);
      await watch.cancel();
    });

    it("prints the recorded Table columns and cells", async () => {
      const { call } = testServer();
      const created = await call("POST", collection, sample.sent);
      const table = await call("GET", `${collection}/${name}`, undefined, { accept: TABLE });
      expect(table.status).toBe(200);
      expect(table.json.columnDefinitions).toEqual(recorded.columns);
      // Both created the object a moment before printing it: an age of 0s, or 1s where the recording crossed a second.
      const age = recorded.columns.findIndex((column) => column.name === "Age");
      const withoutAge = (cells: readonly unknown[]) => cells.map((cell, index) => (index === age && /^[01]s$/.test(String(cell)) ? "<age>" : cell));
      expect(withoutAge(stabilized(table.json.rows[0].cells, created.json.metadata.uid) as unknown[])).toEqual(withoutAge(sample.cells));
    });
  });
});

describe("the recorded types' checks", () => {
  it("refuse values of the wrong type from the recorded schemas, as Go's decoder does", async () => {
    const { call } = testServer();
    const job = { apiVersion: "batch/v1", kind: "Job", metadata: { name: "bad" }, spec: { parallelism: "x", template: {} } };
    const refused = await call("POST", "/apis/batch/v1/namespaces/default/jobs", job);
    expect([refused.status, refused.json.message]).toEqual([400, 'Job in version "v1" cannot be handled as a Job: spec.parallelism: expected an integer, got "x"']);
    const role = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "r" }, rules: [{ verbs: "get" }] };
    const refusedRole = await call("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", role);
    expect([refusedRole.status, refusedRole.json.message]).toEqual([400, 'Role in version "v1" cannot be handled as a Role: rules[0].verbs: expected a list, got "get"']);
  });

  it("name RBAC objects as path segments (ValidateRBACName) and the others as subdomains", async () => {
    const { call } = testServer();
    const role = (name: string) => ({ apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name } });
    expect((await call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", role("system:Controller:X"))).status).toBe(201);
    const dotted = await call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", role(".."));
    expect([dotted.status, dotted.json.details.causes[0].message]).toEqual([422, "Invalid value: \"..\": may not be '..'"]);
    const account = await call("POST", "/api/v1/namespaces/default/serviceaccounts", { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "Upper" } });
    expect(account.status).toBe(422);
  });

  it("merge pod template containers by name in a strategic merge patch (merge keys from the recorded schemas)", async () => {
    const { call } = testServer();
    const path = "/apis/apps/v1/namespaces/default/statefulsets";
    await call("POST", path, recordedType("statefulsets").sample!.sent);
    const patched = await call(
      "PATCH",
      `${path}/db`,
      { spec: { template: { spec: { containers: [{ name: "main", image: "busybox:1.37" }] } } } },
      { "content-type": "application/strategic-merge-patch+json" },
    );
    expect(patched.status).toBe(200);
    const recordedSpec = recordedType("statefulsets").sample!.created["spec"] as any;
    expect(patched.json.spec.template.spec.containers).toEqual([{ ...recordedSpec.template.spec.containers[0], image: "busybox:1.37" }]);
    // A spec change counts: generation 2.
    expect(patched.json.metadata.generation).toBe(2);
    // Defaulting runs on every write: a new container gets its defaults, a dropped default comes back (no spec change, same generation).
    const added = await call("PATCH", `${path}/db`, { spec: { template: { spec: { containers: [{ name: "side", image: "nginx" }] } } } }, { "content-type": "application/strategic-merge-patch+json" });
    expect(added.json.spec.template.spec.containers[0]).toEqual({
      name: "side", image: "nginx", resources: {}, terminationMessagePath: "/dev/termination-log", terminationMessagePolicy: "File", imagePullPolicy: "Always",
    });
    const { revisionHistoryLimit: _dropped, ...withoutLimit } = added.json.spec;
    const put = await call("PUT", `${path}/db`, { ...added.json, spec: withoutLimit });
    expect([put.status, put.json.spec.revisionHistoryLimit, put.json.metadata.generation]).toEqual([200, 10, added.json.metadata.generation]);
  });

  it("default a Job on update too, without touching its generated selector", async () => {
    const { call } = testServer();
    const path = "/apis/batch/v1/namespaces/default/jobs";
    const created = await call("POST", path, recordedType("jobs").sample!.sent);
    const { backoffLimit: _dropped, ...spec } = created.json.spec;
    const put = await call("PUT", `${path}/once`, { ...created.json, spec });
    expect([put.status, put.json.spec, put.json.metadata.annotations]).toEqual([200, created.json.spec, created.json.metadata.annotations]);
  });

  it("serve a StatefulSet's scale subresource as the Deployment's (autoscaling/v1 Scale)", async () => {
    const { call } = testServer();
    const path = "/apis/apps/v1/namespaces/default/statefulsets";
    await call("POST", path, recordedType("statefulsets").sample!.sent);
    const scale = await call("GET", `${path}/db/scale`);
    expect([scale.status, scale.json.kind, scale.json.spec, scale.json.status]).toEqual([200, "Scale", { replicas: 2 }, { replicas: 0, selector: "app=db" }]);
    const scaled = await call("PATCH", `${path}/db/scale`, { spec: { replicas: 3 } }, { "content-type": "application/merge-patch+json" });
    expect(scaled.status).toBe(200);
    expect((await call("GET", `${path}/db`)).json.spec.replicas).toBe(3);
  });

  it("serve a ReplicationController's scale with its map selector as a selector string (scaleFromRC)", async () => {
    const { call } = testServer();
    const path = "/api/v1/namespaces/default/replicationcontrollers";
    const rc = { metadata: { name: "rc1" }, spec: { replicas: 2, selector: { tier: "web", app: "b" }, template: { metadata: { labels: { app: "b", tier: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } } };
    expect((await call("POST", path, rc)).status).toBe(201);
    const scale = await call("GET", `${path}/rc1/scale`);
    expect([scale.status, scale.json.spec, scale.json.status]).toEqual([200, { replicas: 2 }, { replicas: 0, selector: "app=b,tier=web" }]);
  });

  it("answer in Protobuf too, as kube-apiserver does for every built-in type", async () => {
    const { call } = testServer();
    await call("POST", "/api/v1/namespaces/default/serviceaccounts", recordedType("serviceaccounts").sample!.sent);
    const answer = await call("GET", "/api/v1/namespaces/default/serviceaccounts/builder", undefined, { accept: "application/vnd.kubernetes.protobuf" });
    expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "application/vnd.kubernetes.protobuf"]);
  });

  it("serve RBAC in the orb dialect under its own group", async () => {
    const { call } = testServer("orb");
    const role = { apiVersion: "rbac.authorization.orb.io/v1", kind: "Role", metadata: { name: "reader" }, rules: [] };
    expect((await call("POST", "/apis/rbac.authorization.orb.io/v1/namespaces/default/roles", role)).status).toBe(201);
    expect((await call("GET", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles")).status).toBe(404);
  });
});
