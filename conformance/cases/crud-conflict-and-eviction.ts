/**
 * A PUT carrying a resourceVersion another write replaced (doc 1 §2.2: 409 Conflict), and
 * eviction, an operation on a Pod rather than an object of its own (doc 1 §1).
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMapPath, createConfigMap } from "./support/config-maps.ts";
import { metadataOf } from "./support/object-body.ts";
import { getObject } from "./support/object-reads.ts";
import { createPod } from "./support/pods.ts";
import { brief, checkFailure } from "./support/status-answers.ts";
import { detailsOf } from "./support/status-body.ts";

export const crudConflictAndEvictionCases = defineCases("crud", [
  {
    name: "put-with-stale-resource-version-is-409",
    clauses: ["doc1/2.2/resource-version/last-modified", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("stale");
      const created = await createConfigMap(context, name, { key: "v1" });
      const stale = created.metadata.resourceVersion;
      const body = (value: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, resourceVersion: stale }, data: { key: value } });
      const first = await context.client.put(configMapPath(context, name), body("v2"));
      checkEqual(first.status, 200, `status of a PUT with the current resourceVersion (${brief(first)})`);
      // Transcripts update-configmap, update-stale.
      const second = await context.client.put(configMapPath(context, name), body("v3"));
      const status = checkFailure(second, 409, "Conflict", "PUT with the resourceVersion the first PUT replaced");
      checkEqual(detailsOf(status).name, name, "details.name of the Conflict Status");
      const stored = await getObject(context, configMapPath(context, name), "after the refused PUT");
      checkEqual(stored.data, { key: "v2" }, "data after the refused PUT (the first PUT's)");
    },
  },
  {
    name: "eviction-is-an-operation",
    clauses: ["doc1/1/virtual-type/eviction"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("evicted");
      const pod = await createPod(context, name);
      const response = await context.client.post(`/api/v1/namespaces/${context.namespace}/pods/${name}/eviction`, {
        apiVersion: "policy/v1",
        kind: "Eviction",
        metadata: { name, namespace: context.namespace },
      });
      // Transcript eviction: 201 and a Success Status, not an Eviction object to retrieve later.
      checkEqual(response.status, 201, `status of POST .../pods/${name}/eviction (${brief(response)})`);
      checkEqual(recordOf(response.json).kind, "Status", "kind of the eviction answer (an operation's outcome)");
      checkEqual(recordOf(response.json).status, "Success", "status of the eviction answer");
      const after = await context.client.get(`/api/v1/namespaces/${context.namespace}/pods/${name}`);
      // The operation acted on the Pod: removed, or (scheduled on a real node) terminating.
      check(
        after.status === 404 || (after.status === 200 && metadataOf(after.json).uid === pod.metadata.uid && metadataOf(after.json).deletionTimestamp !== undefined),
        `after the eviction the Pod is neither gone nor terminating: GET answered ${after.status} ${JSON.stringify(recordOf(after.json).metadata ?? brief(after))}`,
      );
    },
  },
]);
