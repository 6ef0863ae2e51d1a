/**
 * Dry-run writes (doc 1 §4.4, §2.7, §4.2 dryRun): a create, update, patch or delete with
 * dryRun=All comes back with the would-be object and the normal status code, with freshly
 * generated values, and nothing is persisted or announced.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual, checkOneOf } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMaps } from "./support/config-maps.ts";
import { CREATED } from "./support/creates.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { MERGE_PATCH } from "./support/media-types.ts";
import { metadataOf } from "./support/object-body.ts";
import { checkAbsent } from "./support/object-reads.ts";
import { q } from "./support/query.ts";
import { createObject, listOurs, scope } from "./support/scoped-objects.ts";
import { message } from "./support/status-answers.ts";
import { checkChanges, collectEvents, drainEvents, openWatch, quietMs } from "./support/watch-events.ts";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Timestamps have whole seconds (RFC 3339): a second request more than a second later must get another. */
const NEXT_SECOND_MS = 1_100;

export const dryRunPersistsNothingCases = defineCases("dry-run", [
  {
    name: "create-returns-object-persists-nothing",
    clauses: [
      "doc1/4.4/applies-to",
      "doc1/4.2/dry-run/values",
      "doc1/4.4/all/returns-object",
      "doc1/4.4/no-side-effects",
      "doc1/2.7/generated/uid",
      "doc1/2.7/generated/resource-version",
    ],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "dry");
      const name = objects.name("a");
      const listed = await listOurs(context, objects);
      const sent = { apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels: { side: "dry" } }, data: { key: "dry" } };
      const dry = await context.client.post(`${configMaps(context)}?dryRun=All`, sent);
      checkOneOf(dry.status, CREATED, `POST ?dryRun=All: status (a create's normal status, ${recordOf(dry.json).message ?? ""})`);
      checkEqual([recordOf(dry.json).kind, metadataOf(dry.json).name, metadataOf(dry.json).namespace], ["ConfigMap", name, context.namespace], "kind, name and namespace of the dry-run answer");
      checkEqual([recordOf(dry.json).data, metadataOf(dry.json).labels], [sent.data, sent.metadata.labels], "data and labels of the dry-run answer (the object that would be persisted)");
      check(typeof metadataOf(dry.json).uid === "string" && metadataOf(dry.json).uid !== "", `the dry-run answer should carry a generated uid, got ${JSON.stringify(metadataOf(dry.json).uid)}`);
      check(typeof metadataOf(dry.json).creationTimestamp === "string", `the dry-run answer should carry a creationTimestamp, got ${JSON.stringify(metadataOf(dry.json).creationTimestamp)}`);
      checkAbsent(await context.client.get(`${configMaps(context)}/${name}`), `GET ${name} after the dry-run create`);
      const list = await listOurs(context, objects);
      checkEqual(list.items.map((item) => metadataOf(item).name), [], "the case's objects in a list after the dry-run create");
      // No side effect: a watch from before the dry run sees only the real write that follows it.
      const marker = await createObject(context, objects.name("marker"), { key: "real" });
      const stream = await openWatch(context, `resourceVersion=${q(listed.resourceVersion)}`);
      try {
        const events = await collectEvents(stream, objects, 1);
        const extra = await drainEvents(stream, objects, quietMs(context));
        checkChanges([...events.events, ...extra.events], [marker], "events of a watch from before the dry-run create (the dry run must announce nothing)");
      } finally {
        await stream.close();
      }
      // The real create generates its own values.
      const real = await context.client.post(configMaps(context), sent);
      checkOneOf(real.status, CREATED, `the real create after the dry run: status (${message(real)})`);
      check(metadataOf(real.json).uid !== metadataOf(dry.json).uid, `uid: the dry run and the real create must differ, both are ${JSON.stringify(metadataOf(real.json).uid)}`);
      const dryVersion = metadataOf(dry.json).resourceVersion;
      // Deviation dry-run-create-resource-version, tolerant for every dialect: doc 1 §2.7 reads two
      // ways (a generated version that differs, or none since nothing is persisted); Kubernetes sends none.
      check(
        dryVersion === undefined || dryVersion === "" || dryVersion !== metadataOf(real.json).resourceVersion,
        `resourceVersion: the dry run's (${JSON.stringify(dryVersion)}) must be absent or differ from the real create's (${JSON.stringify(metadataOf(real.json).resourceVersion)})`,
      );
    },
  },
  {
    name: "generated-name-uid-and-timestamp-differ",
    clauses: ["doc1/2.2/name/generate-name", "doc1/2.7/generated/name", "doc1/2.7/generated/creation-timestamp", "doc1/2.7/generated/uid", "doc1/4.4/no-side-effects"],
    tags: ["mutating"],
    async run(context) {
      const prefix = `${scope(context, "gen").prefix}-`;
      const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: prefix }, data: { key: "v" } };
      const dry = await context.client.post(`${configMaps(context)}?dryRun=All`, body);
      checkOneOf(dry.status, CREATED, `POST ?dryRun=All with generateName: status (${message(dry)})`);
      const dryName = String(metadataOf(dry.json).name ?? "");
      check(dryName.startsWith(prefix) && dryName.length > prefix.length, `a dry-run create with generateName ${prefix} should get a generated name starting with it, got ${JSON.stringify(dryName)}`);
      checkAbsent(await context.client.get(`${configMaps(context)}/${dryName}`), `GET ${dryName} (the dry run's generated name)`);
      await sleep(NEXT_SECOND_MS);
      const real = await context.client.post(configMaps(context), body);
      checkOneOf(real.status, CREATED, `the real create with generateName: status (${message(real)})`);
      const differing = ["name", "uid", "creationTimestamp"].filter((field) => metadataOf(real.json)[field] === metadataOf(dry.json)[field]);
      check(
        differing.length === 0,
        `generated values must differ between the dry run and the real create; the same: ${differing.map((field) => `${field}=${JSON.stringify(metadataOf(real.json)[field])}`).join(", ")}`,
      );
    },
  },
  {
    name: "update-and-patch-persist-nothing",
    clauses: ["doc1/4.4/applies-to", "doc1/4.4/all/returns-object", "doc1/4.4/all/patch-default-validate", "doc1/4.4/no-side-effects", "doc1/2.7/generated/resource-version"],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "upd");
      const name = objects.name("a");
      const path = `${configMaps(context)}/${name}`;
      const created = await createObject(context, name, { k1: "1" });
      const put = await context.client.put(`${path}?dryRun=All`, { ...recordOf(created.object), data: { k1: "put" } });
      checkEqual(put.status, 200, `PUT ?dryRun=All: status (${message(put)})`);
      checkEqual(recordOf(put.json).data, { k1: "put" }, "data of the dry-run PUT's answer (the object that would be persisted)");
      const afterPut = await context.client.get(path);
      checkEqual([recordOf(afterPut.json).data, metadataOf(afterPut.json).resourceVersion], [{ k1: "1" }, created.resourceVersion], "data and resourceVersion after the dry-run PUT");
      const patch = await context.client.request("PATCH", `${path}?dryRun=All`, { body: { data: { k2: "patched" } }, contentType: MERGE_PATCH });
      checkEqual(patch.status, 200, `PATCH ?dryRun=All: status (${message(patch)})`);
      checkEqual(recordOf(patch.json).data, { k1: "1", k2: "patched" }, "data of the dry-run merge patch's answer (merged with the stored object)");
      const afterPatch = await context.client.get(path);
      checkEqual([recordOf(afterPatch.json).data, metadataOf(afterPatch.json).resourceVersion], [{ k1: "1" }, created.resourceVersion], "data and resourceVersion after the dry-run PATCH");
      const real = await context.client.patch(path, { data: { k2: "real" } });
      checkEqual(real.status, 200, `the real PATCH: status (${message(real)})`);
      const realVersion = metadataOf(real.json).resourceVersion;
      for (const [what, dry] of [["PUT", put], ["PATCH", patch]] as const) {
        check(
          metadataOf(dry.json).resourceVersion !== realVersion,
          `resourceVersion of the dry-run ${what} (${JSON.stringify(metadataOf(dry.json).resourceVersion)}) must differ from the real write's (${JSON.stringify(realVersion)})`,
        );
      }
    },
  },
  {
    name: "delete-keeps-the-object",
    clauses: ["doc1/4.4/applies-to", "doc1/4.4/all/returns-object", "doc1/4.4/no-side-effects", "doc1/2.7/generated/deletion-timestamp"],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "del");
      const plain = objects.name("plain");
      const created = await createObject(context, plain, { k: "v" });
      const dry = await context.client.request("DELETE", `${configMaps(context)}/${plain}?dryRun=All`);
      checkEqual(dry.status, 200, `DELETE ?dryRun=All: status (${message(dry)})`);
      // Deviation delete-response: the object, or (Kubernetes, for an object removed at once) a Success Status.
      check(
        (recordOf(dry.json).kind === "ConfigMap" && metadataOf(dry.json).name === plain) || (recordOf(dry.json).kind === "Status" && recordOf(dry.json).status === "Success"),
        `the dry-run DELETE should answer with the object or a Success Status, got ${dry.text.slice(0, 200)}`,
      );
      const still = await context.client.get(`${configMaps(context)}/${plain}`);
      checkEqual([still.status, metadataOf(still.json).resourceVersion], [200, created.resourceVersion], `GET ${plain} after the dry-run DELETE: status and resourceVersion`);
      // With a finalizer the delete only marks the object: the dry run shows the mark, and stores none.
      const held = objects.name("held");
      const path = `${configMaps(context)}/${held}`;
      await createObject(context, held, { k: "v" }, { finalizers: ["example.com/hold"] });
      try {
        const dryMark = await context.client.request("DELETE", `${path}?dryRun=All`);
        checkEqual(dryMark.status, 200, `DELETE ?dryRun=All of an object with a finalizer: status (${message(dryMark)})`);
        const dryTimestamp = metadataOf(dryMark.json).deletionTimestamp;
        check(typeof dryTimestamp === "string" && dryTimestamp !== "", `the dry-run DELETE of an object with a finalizer should show deletionTimestamp, got ${dryMark.text.slice(0, 300)}`);
        const unmarked = await context.client.get(path);
        checkEqual(metadataOf(unmarked.json).deletionTimestamp, undefined, `deletionTimestamp of ${held} after the dry-run DELETE (nothing persisted)`);
        await sleep(NEXT_SECOND_MS);
        const realMark = await context.client.delete(path);
        checkEqual(realMark.status, 200, `the real DELETE of ${held}: status (${message(realMark)})`);
        const realTimestamp = metadataOf(realMark.json).deletionTimestamp;
        check(typeof realTimestamp === "string", `the real DELETE of an object with a finalizer should set deletionTimestamp, got ${realMark.text.slice(0, 300)}`);
        check(realTimestamp !== dryTimestamp, `deletionTimestamp must differ between the dry run and the real delete a second later, both ${realTimestamp}`);
      } finally {
        // Let the object go, or the namespace could never be removed on a real cluster.
        await context.client.patch(path, { metadata: { finalizers: null } }).catch(() => undefined);
      }
    },
  },
  {
    name: "delete-query-dry-run-beside-a-body",
    clauses: ["doc1/4.4/applies-to", "doc1/4.4/no-side-effects"],
    tags: ["mutating"],
    async run(context) {
      const name = scope(context, "delbody").name("a");
      const path = `${configMaps(context)}/${name}`;
      const created = await createObject(context, name, { k: "v" });
      // kubectl's body shape, without dryRun: only the query asks for a dry run.
      const response = await context.client.delete(`${path}?dryRun=All`, { kind: "DeleteOptions", apiVersion: "v1" });
      checkEqual(response.status, 200, `DELETE ?dryRun=All with a DeleteOptions body: status (${message(response)})`);
      const after = await context.client.get(path);
      check(after.status === 200 || after.status === 404, `GET ${name} after the DELETE: expected 200 or 404, got ${after.status}: ${message(after)}`);
      // Deviation delete-query-dry-run-with-body, strict (dialect-answers.ts): doc 1 §4.2 and §4.4.1
      // make any DELETE with dryRun a dry run, so an orb target keeps the object; Kubernetes reads a
      // DELETE's options from its body alone and deletes it (transcript
      // delete-options-c-query-dryrun-body-without), so a kubernetes target must.
      checkAnswerForm(
        context.dialect,
        "delete-query-dry-run-with-body",
        after.status === 200 ? "dry-run" : "ignored",
        `DELETE ?dryRun=All with a DeleteOptions body without dryRun answered ${response.status} and the ConfigMap was ${after.status === 200 ? "kept" : "deleted"}`,
      );
      if (after.status === 200) checkEqual(metadataOf(after.json).resourceVersion, created.resourceVersion, `resourceVersion of ${name} after the dry-run DELETE (nothing persisted)`);
    },
  },
]);
