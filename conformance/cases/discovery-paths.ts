/**
 * Path shapes (doc 1 §4.1) and versioning (§9): cluster-scoped and namespaced collections and
 * resources, the all-namespaces collection, namespaces as a cluster-scoped type, subresources, and
 * apiVersion and kind on objects.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { fieldAt, recordOf } from "../client/json-fields.ts";
import { configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { create } from "./support/creates.ts";
import { deploymentBody } from "./support/deployments.ts";
import { itemNames, listItems } from "./support/list-body.ts";
import { deleteNodes, nodeBody } from "./support/nodes.ts";
import { metadataOf } from "./support/object-body.ts";
import { getObject } from "./support/object-reads.ts";
import { createPod } from "./support/pods.ts";
import { q } from "./support/query.ts";
import { brief, checkFailure } from "./support/status-answers.ts";


export const discoveryPathCases = defineCases("discovery", [
  {
    name: "cluster-scoped-collection-and-resource",
    clauses: ["doc1/4.1/collection/cluster-scoped", "doc1/4.1/resource/cluster-scoped"],
    tags: ["mutating"],
    async run(context) {
      const names = [context.name("node"), context.name("node")];
      try {
        for (const name of names) await create(context, "/api/v1/nodes", nodeBody(name), `creating Node ${name}`);
        const list = await context.client.get("/api/v1/nodes");
        checkEqual(list.status, 200, `status of GET /api/v1/nodes (${brief(list)})`);
        checkEqual(recordOf(list.json).kind, "NodeList", "kind of GET /api/v1/nodes");
        const listed = itemNames(list.json);
        for (const name of names) check(listed.includes(name), `GET /api/v1/nodes (all instances) lacks Node ${name}; it lists ${listed.join(", ")}`);
        for (const name of names) {
          const node = await getObject(context, `/api/v1/nodes/${name}`, `Node ${name}`);
          checkEqual([node.kind, node.metadata?.name], ["Node", name], `kind and name of GET /api/v1/nodes/${name}`);
        }
      } finally {
        await deleteNodes(context, names);
      }
    },
  },
  {
    name: "all-namespaces-collection",
    clauses: ["doc1/4.1/collection/all-namespaces"],
    tags: ["mutating"],
    async run(context) {
      const set = context.name("everywhere");
      const names = [`${set}-a`, `${set}-b`];
      for (const name of names) await createConfigMap(context, name, {}, { set });
      // The namespaced type's collection path without a namespace spans every namespace.
      const list = await context.client.get(`/api/v1/configmaps?labelSelector=${q(`set=${set}`)}`);
      checkEqual(list.status, 200, `status of GET /api/v1/configmaps (${brief(list)})`);
      checkEqual(recordOf(list.json).kind, "ConfigMapList", "kind of GET /api/v1/configmaps");
      checkEqual(itemNames(list.json).sort(), names, "items of GET /api/v1/configmaps with the case's label");
      for (const item of listItems(list.json, "GET /api/v1/configmaps")) {
        checkEqual(metadataOf(item).namespace, context.namespace, `metadata.namespace of ${metadataOf(item).name} in the all-namespaces list`);
      }
      // The same objects are found through the namespace's own collection.
      const own = await context.client.get(`${configMaps(context)}?labelSelector=${q(`set=${set}`)}`);
      checkEqual(itemNames(own.json).sort(), names, "items of the namespace's own collection with the case's label");
    },
  },
  {
    name: "namespaced-collection-and-resource",
    clauses: ["doc1/4.1/collection/one-namespace", "doc1/4.1/resource/namespaced", "doc1/4.1/prefix/named"],
    tags: ["mutating"],
    async run(context) {
      const names = [context.name("mine"), context.name("mine")];
      for (const name of names) await createConfigMap(context, name, { key: name });
      const list = await context.client.get(configMaps(context));
      checkEqual(list.status, 200, `status of GET ${configMaps(context)}`);
      checkEqual(recordOf(list.json).kind, "ConfigMapList", "kind of the namespace's collection");
      const listed = itemNames(list.json);
      for (const name of names) check(listed.includes(name), `the namespace's collection lacks ${name}; it lists ${listed.join(", ")}`);
      for (const item of listItems(list.json, `GET ${configMaps(context)}`)) {
        checkEqual(metadataOf(item).namespace, context.namespace, `metadata.namespace of ${metadataOf(item).name} in the one-namespace list`);
      }
      const one = await getObject(context, configMapPath(context, names[0]!), "the namespaced ConfigMap");
      checkEqual([one.kind, one.metadata?.name, one.metadata?.namespace, one.data], ["ConfigMap", names[0], context.namespace, { key: names[0] }], "GET of the namespaced resource");
      // The same shapes under a named group.
      const leases = `/apis/${context.dialect.groups.coordination}/v1/namespaces/${context.namespace}/leases`;
      const lease = context.name("lease");
      await create(context, leases, { apiVersion: `${context.dialect.groups.coordination}/v1`, kind: "Lease", metadata: { name: lease }, spec: { holderIdentity: "conformance" } }, "creating a Lease");
      const leaseList = await context.client.get(leases);
      checkEqual(recordOf(leaseList.json).kind, "LeaseList", `kind of GET ${leases}`);
      check(itemNames(leaseList.json).includes(lease), `GET ${leases} lacks Lease ${lease}`);
      const got = await getObject(context, `${leases}/${lease}`, "the Lease");
      checkEqual([got.kind, got.metadata?.name, got.metadata?.namespace], ["Lease", lease, context.namespace], `GET ${leases}/${lease}`);
    },
  },
  {
    name: "namespaces-are-cluster-scoped",
    clauses: ["doc1/4.1/namespaces/collection", "doc1/4.1/namespaces/one"],
    tags: [],
    async run(context) {
      const list = await context.client.get("/api/v1/namespaces");
      checkEqual(list.status, 200, `status of GET /api/v1/namespaces (${brief(list)})`);
      checkEqual(recordOf(list.json).kind, "NamespaceList", "kind of GET /api/v1/namespaces");
      const names = itemNames(list.json);
      const expected = context.dialect.namespaces.default;
      check(names.includes(expected), `GET /api/v1/namespaces lacks ${expected}; it lists ${names.join(", ")}`);
      for (const item of listItems(list.json, "GET /api/v1/namespaces")) {
        check(metadataOf(item).namespace === undefined, `namespace ${metadataOf(item).name} carries metadata.namespace ${JSON.stringify(metadataOf(item).namespace)} (a namespace is cluster-scoped)`);
      }
      const one = await getObject(context, `/api/v1/namespaces/${expected}`, "one namespace");
      checkEqual([one.kind, one.apiVersion, one.metadata?.name], ["Namespace", "v1", expected], `GET /api/v1/namespaces/${expected}`);
      check(one.metadata?.namespace === undefined, `GET /api/v1/namespaces/${expected} carries metadata.namespace`);
    },
  },
  {
    name: "subresource-get",
    clauses: ["doc1/4.1/subresource/get"],
    tags: ["mutating"],
    async run(context) {
      // Cluster-scoped form: .../<resourcetype>/<name>/<subresource>.
      const nsStatus = await getObject(context, `/api/v1/namespaces/${context.namespace}/status`, "the namespace's status subresource");
      checkEqual([nsStatus.kind, nsStatus.metadata?.name], ["Namespace", context.namespace], "kind and name of GET /api/v1/namespaces/<ns>/status");
      check(typeof fieldAt(nsStatus, "status", "phase") === "string", `GET /api/v1/namespaces/<ns>/status carries no status.phase: ${JSON.stringify(nsStatus.status)}`);
      // Namespaced form: .../namespaces/<namespace>/<resourcetype>/<name>/<subresource>.
      const name = context.name("pod");
      const pod = await createPod(context, name);
      const podStatus = await getObject(context, `/api/v1/namespaces/${context.namespace}/pods/${name}/status`, "the Pod's status subresource");
      checkEqual([podStatus.kind, podStatus.metadata?.name, podStatus.metadata?.uid], ["Pod", name, pod.metadata?.uid], "kind, name and uid of GET .../pods/<name>/status");
      check(podStatus.status !== undefined, "GET .../pods/<name>/status carries no status");
      // A subresource of an object that does not exist is not found.
      const missing = await context.client.get(`/api/v1/namespaces/${context.namespace}/pods/${name}-missing/status`);
      checkFailure(missing, 404, "NotFound", "GET .../pods/<missing>/status");
    },
  },
  {
    name: "objects-carry-api-version-and-kind",
    clauses: ["doc1/9/objects/api-version-kind", "doc1/9/paths"],
    tags: ["mutating"],
    async run(context) {
      const coordination = `${context.dialect.groups.coordination}/v1`;
      const objects: Array<[string, Record<string, unknown>, string, string]> = [
        [configMaps(context), { metadata: { name: context.name("cm") }, data: {} }, "v1", "ConfigMap"],
        [`/apis/apps/v1/namespaces/${context.namespace}/deployments`, deploymentBody(context.name("deploy"), [{ name: "c", image: "registry.example/app:1" }]), "apps/v1", "Deployment"],
        [`/apis/${coordination}/namespaces/${context.namespace}/leases`, { metadata: { name: context.name("lease") }, spec: {} }, coordination, "Lease"],
      ];
      for (const [collection, body, apiVersion, kind] of objects) {
        // The body may leave apiVersion and kind out: the path names them.
        const { apiVersion: _a, kind: _k, ...rest } = body;
        const created = await create(context, collection, rest, `creating a ${kind} without apiVersion and kind in the body`);
        checkEqual([created.apiVersion, created.kind], [apiVersion, kind], `apiVersion and kind of the created ${kind}`);
        const got = await getObject(context, `${collection}/${created.metadata?.name}`, kind);
        checkEqual([got.apiVersion, got.kind], [apiVersion, kind], `apiVersion and kind of GET ${collection}/<name>`);
      }
      const namespace = await getObject(context, `/api/v1/namespaces/${context.namespace}`, "the namespace");
      checkEqual([namespace.apiVersion, namespace.kind], ["v1", "Namespace"], "apiVersion and kind of a Namespace");
    },
  },
]);
