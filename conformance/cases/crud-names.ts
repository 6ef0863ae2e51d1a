/**
 * Object names (doc 1 §2.1): unique per kind within a namespace, or cluster-wide for
 * cluster-scoped types; reusable after deletion; and names a server refuses (422).
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { checkCreated, create } from "./support/creates.ts";
import { checkRemovedAnswer } from "./support/delete-answers.ts";
import { itemNames } from "./support/list-body.ts";
import { deleteNodes, nodeBody } from "./support/nodes.ts";
import { checkGone, getObject } from "./support/object-reads.ts";
import { checkFailure } from "./support/status-answers.ts";
import { causesOf, detailsOf } from "./support/status-body.ts";

export const crudNameCases = defineCases("crud", [
  {
    name: "name-unique-within-a-namespace",
    clauses: ["doc1/2.1/name/unique", "doc1/2.1/name/one-per-namespace"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("dup");
      const first = await createConfigMap(context, name, { which: "first" });
      const second = await context.client.post(configMaps(context), configMap(name, { which: "second" }));
      // Transcript create-duplicate.
      const status = checkFailure(second, 409, "AlreadyExists", "second create of the same name in the namespace");
      checkEqual(detailsOf(status).name, name, "details.name of the AlreadyExists Status");
      const stored = await getObject(context, configMapPath(context, name), "the name after the refused create");
      checkEqual(stored.metadata?.uid, first.metadata.uid, "uid behind the name (still the first object)");
      checkEqual(stored.data, { which: "first" }, "data behind the name (still the first object)");
    },
  },
  {
    name: "same-name-for-another-kind",
    clauses: ["doc1/2.1/name/one-per-namespace"],
    tags: ["mutating"],
    async run(context) {
      // "only one object of a given kind may have a given name": other kinds may share it.
      const name = context.name("shared");
      await createConfigMap(context, name, { key: "k" });
      const secret = await context.client.post(`/api/v1/namespaces/${context.namespace}/secrets`, { apiVersion: "v1", kind: "Secret", metadata: { name }, data: { key: "aw==" } });
      const created = checkCreated(secret, "creating a Secret with the name of an existing ConfigMap");
      checkEqual(created.kind, "Secret", "kind of the created Secret");
      checkEqual(created.metadata?.name, name, "name of the created Secret");
      await getObject(context, configMapPath(context, name), "the ConfigMap of the same name");
    },
  },
  {
    name: "name-reusable-after-deletion",
    clauses: ["doc1/2.1/name/reuse-after-delete"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("reuse");
      const first = await createConfigMap(context, name, { life: "1" });
      const deleted = await context.client.delete(configMapPath(context, name));
      checkRemovedAnswer(context.dialect, deleted, "ConfigMap", name, first.metadata.uid, "DELETE of the first object");
      await checkGone(context, configMapPath(context, name), "after the DELETE");
      const second = await createConfigMap(context, name, { life: "2" });
      checkEqual(second.metadata?.name, name, "name of the second object");
      check(second.metadata?.uid !== first.metadata.uid, `the object created with a reused name has the deleted object's uid ${first.metadata.uid}`);
      const stored = await getObject(context, configMapPath(context, name), "the reused name");
      checkEqual(stored.data, { life: "2" }, "data behind the reused name");
    },
  },
  {
    name: "cluster-scoped-names-unique-cluster-wide",
    clauses: ["doc1/2.1/name/cluster-scoped-unique", "doc1/2.1/name/unique"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("node");
      try {
        const first = await create(context, "/api/v1/nodes", nodeBody(name, { copy: "first" }), "creating a Node");
        check(first.metadata?.namespace === undefined, `a Node carries metadata.namespace ${JSON.stringify(first.metadata?.namespace)}`);
        const second = await context.client.post("/api/v1/nodes", nodeBody(name, { copy: "second" }));
        // Transcript node-create.
        checkFailure(second, 409, "AlreadyExists", "second create of a Node with the same name");
        // A cluster-scoped name has no namespaced form to dodge the rule.
        const namespaced = await context.client.get(`/api/v1/namespaces/${context.namespace}/nodes/${name}`);
        checkEqual(namespaced.status, 404, "status of GET of a Node under a namespace path");
        const stored = await getObject(context, `/api/v1/nodes/${name}`, "the Node");
        checkEqual(stored.metadata?.uid, first.metadata.uid, "uid behind the Node's name (still the first)");
        checkEqual(recordOf(stored.metadata.labels).copy, "first", "label of the Node behind the name");
      } finally {
        await deleteNodes(context, [name]);
      }
    },
  },
  {
    name: "invalid-name-is-422",
    clauses: ["doc1/2.1/name/unique", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      // Names are identifiers in paths: Kubernetes refuses ones its rule does not allow (transcript create-invalid-name).
      const response = await context.client.post(configMaps(context), configMap("Bad_Name!", { key: "k" }));
      const status = checkFailure(response, 422, "Invalid", "POST of a ConfigMap named Bad_Name!");
      const causes = causesOf(status, "POST of a ConfigMap named Bad_Name!");
      check(causes.some((cause) => cause.field === "metadata.name"), `the Invalid Status names no cause on metadata.name: ${JSON.stringify(status.details)}`);
      // More names outside a DNS subdomain (lowercase alphanumerics, '-' and '.', at most 253 characters).
      for (const bad of ["UPPER", "-leading-dash", "trailing-dash-", `${"a".repeat(254)}`]) {
        const refused = await context.client.post(configMaps(context), configMap(bad));
        checkFailure(refused, 422, "Invalid", `POST of a ConfigMap named ${bad.length > 40 ? `${bad.slice(0, 10)}… (${bad.length} characters)` : bad}`);
      }
      // Services follow the stricter DNS label rule: no dots, a letter first (Kubernetes).
      const service = await context.client.post(`/api/v1/namespaces/${context.namespace}/services`, {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "1st.service" },
        spec: { ports: [{ port: 80 }] },
      });
      checkFailure(service, 422, "Invalid", "POST of a Service named 1st.service");
      const list = await context.client.get(configMaps(context));
      check(!itemNames(list.json).some((name) => name === "Bad_Name!" || name === "UPPER"), "an object with an invalid name was stored");
      // A name using the whole rule is fine.
      const edge = `${context.name("ok")}.with-dots.0`;
      checkEqual((await createConfigMap(context, edge)).metadata?.name, edge, "name of a ConfigMap named with dots and dashes");
    },
  },
]);
