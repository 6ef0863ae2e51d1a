/**
 * Objects a conformance run must leave alone (issue #14): the kinds a cluster's users hold, in
 * `default` and in a namespace of their own, plus cluster-scoped ones, made before a run so the
 * safety tests can check every one is untouched afterwards. One ConfigMap carries a finalizer, as
 * objects a user's controller still owns do: deleting it would not remove it but mark it, which a
 * snapshot shows as a change.
 */
import type { SnapshotConnection } from "./cluster-snapshot.ts";

/** The user's own namespace. */
export const BYSTANDER_NAMESPACE = "keep-me";
const LABELS = { "orb-harness.io/bystander": "true" };

/** One object to make: where to POST it and what. */
interface Bystander {
  readonly collection: string;
  readonly body: Record<string, unknown>;
}

/**
 * The bystanders, in creation order. `withDefinition`: also make the Widget type's
 * CustomResourceDefinition (a real server; the embedded one serves it from the start, read-only).
 */
export function bystanders(withDefinition: boolean): Bystander[] {
  const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, labels: LABELS, annotations: { "orb-harness.io/note": "must survive a conformance run" }, ...extra });
  const inNamespace = (namespace: string): Bystander[] => [
    { collection: `/api/v1/namespaces/${namespace}/configmaps`, body: { apiVersion: "v1", kind: "ConfigMap", metadata: meta("bystander-config"), data: { setting: "on" } } },
    { collection: `/api/v1/namespaces/${namespace}/secrets`, body: { apiVersion: "v1", kind: "Secret", metadata: meta("bystander-secret"), type: "Opaque", data: { password: "aHVudGVyMg==" } } },
    {
      collection: `/api/v1/namespaces/${namespace}/pods`,
      body: { apiVersion: "v1", kind: "Pod", metadata: meta("bystander-pod"), spec: { automountServiceAccountToken: false, containers: [{ name: "app", image: "registry.example/app:1" }] } },
    },
    { collection: `/api/v1/namespaces/${namespace}/services`, body: { apiVersion: "v1", kind: "Service", metadata: meta("bystander-service"), spec: { selector: { app: "bystander" }, ports: [{ port: 80 }] } } },
  ];
  return [
    { collection: "/api/v1/namespaces", body: { apiVersion: "v1", kind: "Namespace", metadata: meta(BYSTANDER_NAMESPACE) } },
    { collection: "/api/v1/nodes", body: { apiVersion: "v1", kind: "Node", metadata: meta("bystander-node") } },
    ...(withDefinition ? [{ collection: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body: WIDGET_DEFINITION }] : []),
    ...inNamespace("default"),
    ...inNamespace(BYSTANDER_NAMESPACE),
    {
      collection: `/api/v1/namespaces/${BYSTANDER_NAMESPACE}/configmaps`,
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: meta("bystander-finalized", { finalizers: ["orb-harness.io/keep"] }), data: { owner: "a controller" } },
    },
    {
      collection: `/apis/apps/v1/namespaces/${BYSTANDER_NAMESPACE}/deployments`,
      body: {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: meta("bystander-deployment"),
        spec: { replicas: 0, selector: { matchLabels: { app: "bystander" } }, template: { metadata: { labels: { app: "bystander" } }, spec: { containers: [{ name: "app", image: "registry.example/app:1" }] } } },
      },
    },
    { collection: `/apis/coordination.k8s.io/v1/namespaces/${BYSTANDER_NAMESPACE}/leases`, body: { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: meta("bystander-lease"), spec: { holderIdentity: "someone" } } },
    { collection: `/apis/example.io/v1/namespaces/${BYSTANDER_NAMESPACE}/widgets`, body: { apiVersion: "example.io/v1", kind: "Widget", metadata: meta("bystander-widget"), spec: { size: 3 } } },
  ];
}

/** The Widget type (the embedded servers' sample, sim/apiserver/routing/sample-custom-resource.ts). */
const WIDGET_DEFINITION = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.io", labels: LABELS },
  spec: {
    group: "example.io",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
  },
};

// A real server needs a moment for what an object depends on: a new type to be served, a new
// namespace's default ServiceAccount (a Pod is refused before it exists).
const SETTLE_MS = 30_000;

/** Makes every bystander; returns the snapshot keys (cluster-snapshot.ts) of what it made. */
export async function createBystanders(connection: SnapshotConnection, withDefinition: boolean): Promise<string[]> {
  const keys: string[] = [];
  for (const { collection, body } of bystanders(withDefinition)) {
    const deadline = performance.now() + SETTLE_MS;
    for (;;) {
      const response = await connection.transport(
        new Request(`${connection.baseUrl}${collection}`, { method: "POST", headers: { ...connection.headers, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) }),
      );
      const text = await response.text();
      if (response.status === 201) {
        keys.push(keyOf(collection, JSON.parse(text).metadata));
        break;
      }
      if (performance.now() > deadline) throw new Error(`bystanders: POST ${collection} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return keys;
}

// The key snapshotCluster gives the object: `<group>/<resource> <namespace>/<name>`.
function keyOf(collection: string, metadata: { name: string; namespace?: string }): string {
  const segments = collection.split("/").filter(Boolean);
  const group = segments[0] === "api" ? "" : segments[1]!;
  return `${group}/${segments.at(-1)} ${metadata.namespace ?? ""}/${metadata.name}`;
}
