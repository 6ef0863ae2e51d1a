import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { join } from "node:path";
import { loadReferenceTranscripts, readTranscriptFile, referenceDir, SCALE_AND_REVIEWS_FILE, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { apiGroup, apiGroupList, apiResourceList, apiVersions, PAGE_NOT_FOUND, type APIResourceList } from "./discovery.ts";
import { ResourceRegistry } from "../routing/resource-types.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");
const k8sRegistry = new ResourceRegistry(kubernetes);
const orbRegistry = new ResourceRegistry(orb);

const transcripts = loadReferenceTranscripts();
const scaleAndReviews = new Map(readTranscriptFile(join(referenceDir, SCALE_AND_REVIEWS_FILE)).map((transcript) => [transcript.id, transcript]));

// Parsed JSON keeps the server's key order, so comparing serializations checks order and presence.
const serialized = (value: unknown): string => JSON.stringify(value);

interface NamedEntries {
  readonly [key: string]: unknown;
}

// The transcript document with its `listKey` array cut down to the entries whose name we serve.
function keepServed(document: unknown, listKey: string, served: ReadonlySet<string>): NamedEntries {
  const record = document as NamedEntries;
  const entries = record[listKey] as ReadonlyArray<{ name: string }>;
  return { ...record, [listKey]: entries.filter((entry) => served.has(entry.name)) };
}

function served(list: APIResourceList | undefined): APIResourceList {
  if (list === undefined) throw new Error("expected a served group/version");
  return list;
}

describe("discovery matches kube-apiserver 1.26 (kubernetes dialect)", () => {
  const reference = (id: string): unknown => transcriptJson(transcriptById(transcripts, id));

  it("GET /api is the transcript, given the address the client reached", () => {
    const text = transcriptById(transcripts, "discovery-api").response.body.text!;
    expect(serialized(apiVersions("127.0.0.1:16443"))).toBe(text.trim());
  });

  it("GET /apis lists exactly the served named groups, as and in the order the transcript does", () => {
    const ours = apiGroupList(k8sRegistry, kubernetes);
    // authentication.k8s.io is served as v1alpha1 only (SelfSubjectReview, as 1.26 serves it with its
    // feature gate on; no TokenReview, so no v1): compared on its own below.
    // storage.k8s.io is served as v1 only (StorageClass; 1.26 also serves v1beta1 for CSIStorageCapacity): compared less v1beta1.
    // autoscaling is served as v2 only (HorizontalPodAutoscaler; 1.26 also serves it as v1): compared less v1.
    const separate = ["authentication.k8s.io", "storage.k8s.io", "autoscaling"];
    const names = new Set(ours.groups.map((group) => group.name).filter((name) => !separate.includes(name)));
    const withoutAuthentication = { ...ours, groups: ours.groups.filter((group) => !separate.includes(group.name)) };
    expect(serialized(withoutAuthentication)).toBe(serialized(keepServed(reference("discovery-apis"), "groups", names)));
    const storage = ((reference("discovery-apis") as Record<string, unknown>)["groups"] as Array<{ name: string; versions: Array<{ version: string }> }>).find((group) => group.name === "storage.k8s.io")!;
    expect(serialized(ours.groups.find((group) => group.name === "storage.k8s.io"))).toBe(
      serialized({ ...storage, versions: storage.versions.filter((version) => version.version === "v1") }),
    );
    const autoscaling = ((reference("discovery-apis") as Record<string, unknown>)["groups"] as Array<{ name: string; versions: Array<{ version: string }> }>).find((group) => group.name === "autoscaling")!;
    expect(serialized(ours.groups.find((group) => group.name === "autoscaling"))).toBe(
      serialized({ ...autoscaling, versions: autoscaling.versions.filter((version) => version.version === "v2") }),
    );
    expect(ours.groups.map((group) => group.name)).toEqual(["apps", "authentication.k8s.io", "authorization.k8s.io", "autoscaling", "batch", "networking.k8s.io", "policy", "rbac.authorization.k8s.io", "storage.k8s.io", "apiextensions.k8s.io", "scheduling.k8s.io", "coordination.k8s.io", "discovery.k8s.io"]);
  });

  it("lists authentication.k8s.io where 1.26 does, with only the version served (v1alpha1, transcript discovery-authentication-gate less v1)", () => {
    const gate = transcriptJson(transcriptById(scaleAndReviews, "discovery-authentication-gate")) as { versions: Array<{ version: string }> };
    const v1alpha1 = gate.versions.filter((version) => version.version === "v1alpha1");
    expect(serialized(apiGroup(k8sRegistry, "authentication.k8s.io"))).toBe(
      serialized({ ...gate, versions: v1alpha1, preferredVersion: v1alpha1[0] }),
    );
  });

  it.each([
    ["discovery-authorization-v1", "authorization.k8s.io", "v1"],
    ["discovery-authentication-v1alpha1", "authentication.k8s.io", "v1alpha1"],
  ])("%s: the review types as kube-apiserver 1.26.4 lists them (transcripts-scale-and-reviews.jsonl)", (id, group, version) => {
    const ours = served(apiResourceList(k8sRegistry, group, version));
    const names = new Set(ours.resources.map((resource) => resource.name));
    const theirs = keepServed(transcriptJson(transcriptById(scaleAndReviews, id)), "resources", names);
    expect((theirs["resources"] as unknown[]).length).toBe(ours.resources.length);
    expect(serialized(ours)).toBe(serialized(theirs));
    expect(ours.resources.map((resource) => resource.name)).toEqual(
      group === "authentication.k8s.io" ? ["selfsubjectreviews"] : ["selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews"],
    );
  });

  it("answers aggregated-discovery requests with the same legacy document (transcript discovery-aggregated-apis)", () => {
    const aggregated = transcriptById(transcripts, "discovery-aggregated-apis");
    expect(aggregated.request.headers["accept"]).toContain("as=APIGroupDiscoveryList");
    expect(aggregated.response.body.text).toBe(transcriptById(transcripts, "discovery-apis").response.body.text);
  });

  it.each([
    ["discovery-api-v1", "", "v1"],
    ["discovery-apps-v1", "apps", "v1"],
    ["discovery-coordination-v1", "coordination.k8s.io", "v1"],
  ])("%s: every served resource and subresource as the transcript lists it", (id, group, version) => {
    const ours = served(apiResourceList(k8sRegistry, group, version));
    const names = new Set(ours.resources.map((resource) => resource.name));
    const theirs = keepServed(reference(id), "resources", names);
    // Nothing of ours is missing from the real server's list.
    expect((theirs["resources"] as unknown[]).length).toBe(ours.resources.length);
    expect(serialized(ours)).toBe(serialized(theirs));
  });

  it("lists every registry type and subresource of core v1 (the transcript is not just filtered to nothing)", () => {
    expect(served(apiResourceList(k8sRegistry, "", "v1")).resources.map((resource) => resource.name)).toEqual([
      "configmaps",
      "endpoints",
      "events",
      "limitranges",
      "namespaces",
      "namespaces/finalize",
      "namespaces/status",
      "nodes",
      "nodes/status",
      "persistentvolumeclaims",
      "persistentvolumeclaims/status",
      "persistentvolumes",
      "persistentvolumes/status",
      "pods",
      "pods/eviction",
      "pods/status",
      "replicationcontrollers",
      "replicationcontrollers/scale",
      "replicationcontrollers/status",
      "resourcequotas",
      "resourcequotas/status",
      "secrets",
      "serviceaccounts",
      "services",
      "services/status",
    ]);
    expect(served(apiResourceList(k8sRegistry, "apps", "v1")).resources.map((resource) => resource.name)).toEqual([
      "controllerrevisions",
      "daemonsets",
      "daemonsets/status",
      "deployments",
      "deployments/scale",
      "deployments/status",
      "replicasets",
      "replicasets/scale",
      "replicasets/status",
      "statefulsets",
      "statefulsets/scale",
      "statefulsets/status",
    ]);
  });

  it("answers an unknown group with the plain-text 404 of transcript unknown-group", () => {
    const unknown = transcriptById(transcripts, "unknown-group");
    expect(unknown.response.status).toBe(PAGE_NOT_FOUND.status);
    expect(unknown.response.headers["content-type"]).toBe(PAGE_NOT_FOUND.contentType);
    expect(unknown.response.body.text).toBe(PAGE_NOT_FOUND.body);
  });
});

describe("discovery of groups", () => {
  it("GET /apis/<group> describes a served group, preferred version first", () => {
    expect(serialized(apiGroup(k8sRegistry, "apps"))).toBe(
      serialized({
        kind: "APIGroup",
        apiVersion: "v1",
        name: "apps",
        versions: [{ groupVersion: "apps/v1", version: "v1" }],
        preferredVersion: { groupVersion: "apps/v1", version: "v1" },
      }),
    );
    expect(apiGroup(k8sRegistry, "coordination.k8s.io")?.preferredVersion.groupVersion).toBe("coordination.k8s.io/v1");
  });

  it("has no group document for the core group, an unknown group, or the other dialect's group", () => {
    expect(apiGroup(k8sRegistry, "")).toBeUndefined();
    expect(apiGroup(k8sRegistry, "no.such.group")).toBeUndefined();
    expect(apiGroup(k8sRegistry, "coordination.orb.io")).toBeUndefined();
    expect(apiGroup(orbRegistry, "coordination.k8s.io")).toBeUndefined();
  });

  it("has no resource list for an unknown group or version", () => {
    expect(apiResourceList(k8sRegistry, "no.such.group", "v1")).toBeUndefined();
    expect(apiResourceList(k8sRegistry, "", "v2")).toBeUndefined();
    expect(apiResourceList(k8sRegistry, "apps", "v1beta1")).toBeUndefined();
    expect(apiResourceList(k8sRegistry, "v1", "")).toBeUndefined();
  });

  it("lists a group's versions preferred first, in Kubernetes' version priority", () => {
    const base = k8sRegistry.types[0]!;
    const versions = ["v1beta1", "v2alpha1", "v1", "v2", "v1alpha1", "v1beta2"];
    // A registry serving one group in several versions, as custom types.
    const registry = new ResourceRegistry(kubernetes, versions.map((version) => ({ ...base, group: "example.io", version })));
    const group = apiGroup(registry, "example.io");
    expect(group?.versions.map((v) => v.version)).toEqual(["v2", "v1", "v1beta2", "v1beta1", "v2alpha1", "v1alpha1"]);
    expect(group?.preferredVersion).toEqual({ groupVersion: "example.io/v2", version: "v2" });
  });

  it("lists exactly the registry's named groups in /apis", () => {
    for (const [registry, dialect] of [[k8sRegistry, kubernetes], [orbRegistry, orb]] as const) {
      const registryGroups = new Set(registry.groupVersions().map((gv) => gv.group).filter((group) => group !== ""));
      expect(new Set(apiGroupList(registry, dialect).groups.map((group) => group.name))).toEqual(registryGroups);
    }
  });
});

describe("the orb dialect", () => {
  it("swaps the coordination group name and nothing else", () => {
    // authentication.k8s.io (SelfSubjectReview) keeps its name in both dialects, as impersonation's resources do.
    expect(apiGroupList(orbRegistry, orb).groups.map((group) => group.name)).toEqual(["apps", "authentication.k8s.io", "authorization.orb.io", "autoscaling", "batch", "networking.k8s.io", "policy", "rbac.authorization.orb.io", "storage.k8s.io", "apiextensions.k8s.io", "scheduling.k8s.io", "coordination.orb.io", "discovery.k8s.io"]);
    const leases = served(apiResourceList(orbRegistry, "coordination.orb.io", "v1"));
    expect(leases.groupVersion).toBe("coordination.orb.io/v1");
    expect(apiResourceList(orbRegistry, "coordination.k8s.io", "v1")).toBeUndefined();
    const k8sLeases = served(apiResourceList(k8sRegistry, "coordination.k8s.io", "v1"));
    expect(leases.resources).toEqual(k8sLeases.resources);
    expect(apiResourceList(orbRegistry, "", "v1")).toEqual(apiResourceList(k8sRegistry, "", "v1"));
    expect(apiResourceList(orbRegistry, "apps", "v1")).toEqual(apiResourceList(k8sRegistry, "apps", "v1"));
  });
});

describe("resource entries", () => {
  const core = served(apiResourceList(k8sRegistry, "", "v1"));
  const entry = (name: string) => core.resources.find((resource) => resource.name === name);

  it("puts pods and services in the all category and leaves the others without categories", () => {
    expect(entry("pods")?.categories).toEqual(["all"]);
    expect(entry("services")?.categories).toEqual(["all"]);
    expect(served(apiResourceList(k8sRegistry, "apps", "v1")).resources.find((resource) => resource.name === "deployments")?.categories).toEqual(["all"]);
    expect(entry("configmaps")).not.toHaveProperty("categories");
  });

  it("omits shortNames when a type has none, and storageVersionHash on subresources", () => {
    expect(entry("secrets")).not.toHaveProperty("shortNames");
    expect(entry("pods/status")).not.toHaveProperty("storageVersionHash");
    expect(entry("pods/status")).toEqual({ name: "pods/status", singularName: "", namespaced: true, kind: "Pod", verbs: ["get", "patch", "update"] });
  });

  it("names the foreign kinds of eviction and scale", () => {
    expect(entry("pods/eviction")).toMatchObject({ group: "policy", version: "v1", kind: "Eviction", verbs: ["create"] });
    const scale = served(apiResourceList(k8sRegistry, "apps", "v1")).resources.find((r) => r.name === "deployments/scale");
    expect(scale).toMatchObject({ group: "autoscaling", version: "v1", kind: "Scale", namespaced: true });
  });
});
