/**
 * Update, patch and delete of one object (doc 1 §1, §4.1): a PUT replaces and a patch merges
 * (merge, JSON and strategic merge patches), and each answers with the resulting object; a DELETE
 * answers with the object or a Success Status.
 */
import { defineCases } from "../case-definition.ts";
import { checkEqual } from "../check.ts";
import { fieldAt, recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, createConfigMap } from "./support/config-maps.ts";
import { create } from "./support/creates.ts";
import { checkRemovedAnswer } from "./support/delete-answers.ts";
import { deploymentBody } from "./support/deployments.ts";
import { arrayOrEmpty } from "./support/json-guards.ts";
import { metadataOf } from "./support/object-body.ts";
import { checkGone, getObject } from "./support/object-reads.ts";
import { brief } from "./support/status-answers.ts";

export const crudUpdatePatchDeleteCases = defineCases("crud", [
  {
    name: "update-replaces-patch-merges",
    clauses: ["doc1/1/verbs/update-not-patch", "doc1/1/http-methods"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("upd");
      await createConfigMap(context, name, { a: "1", b: "2" });
      const patched = await context.client.patch(configMapPath(context, name), { data: { c: "3" } });
      checkEqual(patched.status, 200, `status of a merge PATCH (${brief(patched)})`);
      checkEqual(recordOf(patched.json).data, { a: "1", b: "2", c: "3" }, "data after a PATCH naming only c (patch keeps what it does not name)");
      const put = await context.client.put(configMapPath(context, name), configMap(name, { c: "4" }));
      checkEqual(put.status, 200, `status of a PUT (${brief(put)})`);
      checkEqual(recordOf(put.json).data, { c: "4" }, "data after a PUT naming only c (update replaces the object)");
      const stored = await getObject(context, configMapPath(context, name), "after the PUT");
      checkEqual(stored.data, { c: "4" }, "stored data after the PUT");
    },
  },
  {
    name: "merge-patch",
    clauses: ["doc1/1/http-methods", "doc1/4.1/modify/returns-object"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("mp");
      const created = await createConfigMap(context, name, { key: "k", gone: "x" }, { tier: "odd" });
      // Transcript patch-merge; null removes a key (RFC 7386).
      const response = await context.client.patch(configMapPath(context, name), { data: { merged: "yes", gone: null }, metadata: { labels: { extra: "1" } } }, "application/merge-patch+json");
      checkEqual(response.status, 200, `status of a merge patch (${brief(response)})`);
      checkEqual(recordOf(response.json).kind, "ConfigMap", "kind of the PATCH answer (the resulting object)");
      checkEqual(metadataOf(response.json).uid, created.metadata.uid, "uid of the PATCH answer");
      checkEqual(recordOf(response.json).data, { key: "k", merged: "yes" }, "data after the merge patch");
      checkEqual(metadataOf(response.json).labels, { tier: "odd", extra: "1" }, "labels after the merge patch");
      const stored = await getObject(context, configMapPath(context, name), "after the merge patch");
      checkEqual(stored.data, { key: "k", merged: "yes" }, "stored data after the merge patch");
    },
  },
  {
    name: "json-patch",
    clauses: ["doc1/1/http-methods", "doc1/4.1/modify/returns-object"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("jp");
      await createConfigMap(context, name, { key: "k", old: "o" });
      // Transcript patch-json.
      const ops = [
        { op: "add", path: "/data/jp", value: "1" },
        { op: "remove", path: "/data/old" },
        { op: "replace", path: "/data/key", value: "k2" },
        { op: "test", path: "/data/jp", value: "1" },
      ];
      const response = await context.client.patch(configMapPath(context, name), ops, "application/json-patch+json");
      checkEqual(response.status, 200, `status of a JSON patch (${brief(response)})`);
      checkEqual(recordOf(response.json).kind, "ConfigMap", "kind of the PATCH answer");
      checkEqual(recordOf(response.json).data, { key: "k2", jp: "1" }, "data after the JSON patch");
      const stored = await getObject(context, configMapPath(context, name), "after the JSON patch");
      checkEqual(stored.data, { key: "k2", jp: "1" }, "stored data after the JSON patch");
    },
  },
  {
    name: "strategic-merge-patch",
    clauses: ["doc1/1/http-methods", "doc1/4.1/modify/returns-object"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("smp");
      await createConfigMap(context, name, { key: "k" });
      // Transcript patch-strategic: maps merge as in a merge patch.
      const response = await context.client.patch(configMapPath(context, name), { data: { smp: "1" } }, "application/strategic-merge-patch+json");
      checkEqual(response.status, 200, `status of a strategic merge patch (${brief(response)})`);
      checkEqual(recordOf(response.json).data, { key: "k", smp: "1" }, "data after the strategic merge patch");
    },
  },
  {
    name: "strategic-merge-patch-merges-lists-by-key",
    clauses: ["doc1/1/http-methods", "doc1/4.1/modify/returns-object"],
    tags: ["mutating"],
    async run(context) {
      // Strategic merge patch of a built-in kind merges lists whose schema names a merge key
      // (a Pod template's containers, by name) instead of replacing them as a merge patch would.
      const name = context.name("smp-deploy");
      const path = `/apis/apps/v1/namespaces/${context.namespace}/deployments`;
      await create(context, path, deploymentBody(name, [{ name: "a", image: "registry.example/a:1" }, { name: "b", image: "registry.example/b:1" }]), "creating a Deployment");
      const patch = { spec: { template: { spec: { containers: [{ name: "b", image: "registry.example/b:2" }] } } } };
      const response = await context.client.patch(`${path}/${name}`, patch, "application/strategic-merge-patch+json");
      checkEqual(response.status, 200, `status of a strategic merge patch of a Deployment (${brief(response)})`);
      const containers = arrayOrEmpty(fieldAt(response.json, "spec", "template", "spec", "containers"), "containers of the patched Deployment").map((c) => ({ name: recordOf(c).name, image: recordOf(c).image }));
      checkEqual(
        containers,
        [
          { name: "a", image: "registry.example/a:1" },
          { name: "b", image: "registry.example/b:2" },
        ],
        "containers after a strategic merge patch naming only container b (merged by name; a merge patch would have replaced the list)",
      );
    },
  },
  {
    name: "delete-returns-the-object-or-success",
    clauses: ["doc1/1/http-methods", "doc1/4.1/modify/returns-object"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("del");
      const created = await createConfigMap(context, name, { key: "k" });
      const response = await context.client.delete(configMapPath(context, name));
      checkRemovedAnswer(context.dialect, response, "ConfigMap", name, created.metadata.uid, "DELETE of a ConfigMap without finalizers");
      await checkGone(context, configMapPath(context, name), "after the DELETE");
    },
  },
]);
