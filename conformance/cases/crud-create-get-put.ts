/**
 * Create, get and put (doc 1 §1, §4.1): the answer to a create, one resource against a
 * collection, and a PUT of an existing and of a missing object.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { checkCreated } from "./support/creates.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { itemNames } from "./support/list-body.ts";
import { metadataOf } from "./support/object-body.ts";
import { getObject } from "./support/object-reads.ts";
import { q } from "./support/query.ts";
import { brief, checkFailure } from "./support/status-answers.ts";

export const crudCreateGetPutCases = defineCases("crud", [
  {
    name: "create-returns-the-created-object",
    clauses: ["doc1/4.1/post/create", "doc1/4.1/post/binary-create-status", "doc1/1/http-methods"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("created");
      const response = await context.client.post(configMaps(context), configMap(name, { key: "value" }, { tier: "one" }));
      const created = checkCreated(response, "POST of a ConfigMap");
      checkEqual(created.kind, "ConfigMap", "kind of the answer");
      checkEqual(created.apiVersion, "v1", "apiVersion of the answer");
      checkEqual(created.metadata?.name, name, "metadata.name of the answer");
      checkEqual(created.metadata?.namespace, context.namespace, "metadata.namespace of the answer");
      checkEqual(created.metadata?.labels, { tier: "one" }, "metadata.labels of the answer");
      checkEqual(created.data, { key: "value" }, "data of the answer");
      check(typeof created.metadata?.uid === "string" && created.metadata.uid !== "", `the created object has no uid: ${JSON.stringify(created.metadata)}`);
      check(typeof created.metadata?.resourceVersion === "string" && created.metadata.resourceVersion !== "", `the created object has no resourceVersion: ${JSON.stringify(created.metadata)}`);
      const stored = await getObject(context, configMapPath(context, name), "the created object");
      checkEqual(stored.metadata?.uid, created.metadata.uid, "uid of the stored object vs the create answer");
      checkEqual(stored.data, { key: "value" }, "data of the stored object");
    },
  },
  {
    name: "get-returns-one-resource-list-returns-a-collection",
    clauses: ["doc1/1/verbs/list-vs-get", "doc1/1/http-methods"],
    tags: ["mutating"],
    async run(context) {
      const label = { set: context.name("lg") };
      const a = context.name("get-a");
      const b = context.name("get-b");
      await createConfigMap(context, a, { which: "a" }, label);
      await createConfigMap(context, b, { which: "b" }, label);
      const one = await getObject(context, configMapPath(context, a), "get");
      checkEqual(one.kind, "ConfigMap", "kind of a get answer (one resource)");
      checkEqual(one.metadata?.name, a, "metadata.name of the get answer");
      checkEqual(one.data, { which: "a" }, "data of the get answer");
      check(one.items === undefined, "a get answer carries items, as if it were a collection");
      const list = await context.client.get(`${configMaps(context)}?labelSelector=${q(`set=${label.set}`)}`);
      checkEqual(list.status, 200, "status of the list");
      checkEqual(recordOf(list.json).kind, "ConfigMapList", "kind of a list answer (a collection)");
      check(Array.isArray(recordOf(list.json).items), `a list answer has no items array: ${list.text.slice(0, 200)}`);
      checkEqual(itemNames(list.json).sort(), [a, b].sort(), "items of the list");
    },
  },
  {
    name: "put-replaces-an-existing-object",
    clauses: ["doc1/1/http-methods", "doc1/4.1/modify/returns-object", "doc1/1/verbs/put-create-or-update"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("put");
      const created = await createConfigMap(context, name, { key: "v1" });
      const response = await context.client.put(configMapPath(context, name), {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, resourceVersion: created.metadata.resourceVersion },
        data: { key: "v2" },
      });
      // Transcript update-configmap: 200 with the updated object.
      checkEqual(response.status, 200, `status of a PUT to an existing object (${brief(response)})`);
      checkEqual(recordOf(response.json).kind, "ConfigMap", "kind of the PUT answer (the resulting object)");
      checkEqual(metadataOf(response.json).name, name, "metadata.name of the PUT answer");
      checkEqual(metadataOf(response.json).uid, created.metadata.uid, "uid of the PUT answer (the same object, updated)");
      checkEqual(recordOf(response.json).data, { key: "v2" }, "data of the PUT answer");
      const stored = await getObject(context, configMapPath(context, name), "the updated object");
      checkEqual(stored.data, { key: "v2" }, "data of the stored object after the PUT");
    },
  },
  {
    name: "put-to-a-missing-object",
    clauses: ["doc1/1/verbs/put-create-or-update"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("put-missing");
      const response = await context.client.put(configMapPath(context, name), configMap(name, { key: "made-by-put" }));
      // Doc 1 §1: a PUT of a missing object is a create; Kubernetes answers 404 for types that do
      // not allow create on update, ConfigMaps among them (transcript update-missing). Strict
      // (deviation put-missing, dialect-answers.ts): one answer per dialect, and real servers agree.
      check(response.status === 201 || response.status === 404, `PUT of a missing ConfigMap: expected 201 Created (doc 1 §1) or 404 NotFound (deviation put-missing), got ${response.status}: ${brief(response)}`);
      checkAnswerForm(context.dialect, "put-missing", response.status === 201 ? "create" : "not-found", `PUT of a missing ConfigMap answered ${response.status}`);
      const after = await context.client.get(configMapPath(context, name));
      if (response.status === 201) {
        checkEqual(metadataOf(response.json).name, name, "metadata.name of the object the PUT created");
        checkEqual(after.status, 200, "GET after a PUT that answered 201 Created");
        checkEqual(recordOf(after.json).data, { key: "made-by-put" }, "data of the object the PUT created");
      } else {
        checkFailure(response, 404, "NotFound", "PUT of a missing ConfigMap");
        checkEqual(after.status, 404, "GET after a PUT that answered 404 (nothing may have been created)");
      }
    },
  },
]);
