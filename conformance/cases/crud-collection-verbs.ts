/**
 * Verbs on one resource and on several (doc 1 §1): a single-resource verb takes no list; list,
 * watch and deletecollection act on a collection; a GET with watch is a watch.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { itemNames } from "./support/list-body.ts";
import { metadataOf } from "./support/object-body.ts";
import { checkGone } from "./support/object-reads.ts";
import { q } from "./support/query.ts";
import { brief, checkFailure } from "./support/status-answers.ts";

export const crudCollectionVerbCases = defineCases("crud", [
  {
    name: "single-resource-verbs-take-no-list",
    clauses: ["doc1/1/verbs/single-resource"],
    tags: ["mutating"],
    async run(context) {
      const a = context.name("batch-a");
      const b = context.name("batch-b");
      // A create of several objects at once is not a create: refused, nothing created.
      const posted = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "List", items: [configMap(a), configMap(b)] });
      checkFailure(posted, 400, "BadRequest", "POST of a List of two ConfigMaps to the collection");
      await checkGone(context, configMapPath(context, a), "after the refused List create");
      await checkGone(context, configMapPath(context, b), "after the refused List create");
      // update and patch have no collection form (transcript patch-collection: 405).
      const patched = await context.client.patch(configMaps(context), {});
      checkFailure(patched, 405, "MethodNotAllowed", "PATCH on the collection path");
      const put = await context.client.put(configMaps(context), { apiVersion: "v1", kind: "ConfigMapList", items: [configMap(a)] });
      checkFailure(put, 405, "MethodNotAllowed", "PUT on the collection path");
      await checkGone(context, configMapPath(context, a), "after the refused PUT on the collection");
    },
  },
  {
    name: "list-watch-deletecollection-act-on-several",
    clauses: ["doc1/1/verbs/several-resources"],
    tags: ["mutating"],
    async run(context) {
      const set = context.name("several");
      const names = [0, 1, 2].map((index) => `${set}-${index}`);
      for (const name of names) await createConfigMap(context, name, {}, { set });
      const selector = `labelSelector=${q(`set=${set}`)}`;
      const list = await context.client.get(`${configMaps(context)}?${selector}`);
      checkEqual(list.status, 200, "status of the list");
      checkEqual(itemNames(list.json).sort(), names, "items of one list request");
      const watch = await context.client.watch(`${configMaps(context)}?watch=true&${selector}`);
      const seen: unknown[] = [];
      try {
        checkEqual(watch.status, 200, "status of the watch");
        while (seen.length < names.length) {
          const event = await watch.next(5_000);
          check(event !== undefined && event !== "timeout", `the watch ended or went quiet after ${seen.length} events (${seen.join(", ")}); expected ADDED for ${names.join(", ")}`);
          checkEqual(event.type, "ADDED", `type of watch event ${seen.length + 1} (resourceVersion unset: the existing objects)`);
          seen.push(metadataOf(event.object).name);
        }
      } finally {
        await watch.close();
      }
      checkEqual(seen.sort(), names, "objects one watch reported");
      const deleted = await context.client.delete(`${configMaps(context)}?${selector}`);
      checkEqual(deleted.status, 200, `status of a deletecollection (DELETE on the collection path) (${brief(deleted)})`);
      for (const name of names) await checkGone(context, configMapPath(context, name), "after one deletecollection request");
    },
  },
  {
    name: "get-with-watch-is-a-watch",
    clauses: ["doc1/1/verbs/watch-query"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("watched");
      await createConfigMap(context, name, { key: "k" });
      const path = `${configMaps(context)}?fieldSelector=${q(`metadata.name=${name}`)}`;
      const plain = await context.client.get(path);
      checkEqual(recordOf(plain.json).kind, "ConfigMapList", "kind of the GET without watch (a list)");
      const watch = await context.client.watch(`${path}&watch=1`);
      try {
        checkEqual(watch.status, 200, "status of the GET with watch=1");
        const event = await watch.next(5_000);
        check(event !== undefined && event !== "timeout", `the GET with watch=1 sent no event (${event})`);
        checkEqual(event.type, "ADDED", "type of the first event of the watch");
        checkEqual(recordOf(event.object).kind, "ConfigMap", "kind of the event's object");
        checkEqual(metadataOf(event.object).name, name, "name of the event's object");
        // The stream stays open for later changes, which a get or list would not report.
        await context.client.patch(configMapPath(context, name), { data: { key: "k2" } });
        const next = await watch.next(5_000);
        check(next !== undefined && next !== "timeout", `the watch reported nothing after an update (${next})`);
        checkEqual(next.type, "MODIFIED", "type of the event after an update");
        checkEqual(recordOf(next.object).data, { key: "k2" }, "data of the MODIFIED event's object");
      } finally {
        await watch.close();
      }
    },
  },
]);
