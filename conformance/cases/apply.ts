/**
 * Server-side apply (doc 1 §1 lists apply among the verbs and says no more; the clauses are gaps
 * that record Kubernetes 1.26's answers, recorded in sim/apiserver/apply/recorded/): PATCH with
 * `application/apply-patch+yaml` creates what does not exist, keeps per-manager ownership in
 * metadata.managedFields, refuses with a 409 listing each conflicting field and its manager,
 * takes ownership when forced, shares a field two managers apply with the same value, removes what
 * a manager stops applying, records other writers as Update entries, and persists nothing in a
 * dry run.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { applyConfigMap, describeEntries, entryOf, managedFieldsOf, ownedDataKeys } from "./support/apply.ts";
import { configMap, configMapPath } from "./support/config-maps.ts";
import { metadataOf } from "./support/object-body.ts";
import { getObject } from "./support/object-reads.ts";
import { causesOf } from "./support/status-body.ts";
import { brief, checkFailure } from "./support/status-answers.ts";

export const applyCases = defineCases("apply", [
  {
    name: "create-on-apply",
    clauses: ["doc1/1/verbs/apply/content-type", "doc1/1/verbs/apply/creates", "doc1/1/verbs/apply/managed-fields"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("ap");
      const applied = await applyConfigMap(context, name, { x: "1" }, { manager: "orb-a" });
      checkEqual(applied.status, 201, `status of an apply of a ConfigMap that does not exist (${brief(applied)})`);
      checkEqual(recordOf(applied.json).data, { x: "1" }, "data of the created ConfigMap");
      const entries = managedFieldsOf(applied.json, "the apply's answer");
      const entry = entryOf(entries, "orb-a", "Apply");
      check(entry !== undefined, `managedFields of the created ConfigMap name no Apply entry of orb-a: ${describeEntries(entries)}`);
      checkEqual(entry.apiVersion, "v1", "apiVersion of the Apply entry");
      checkEqual(entry.fieldsType, "FieldsV1", "fieldsType of the Apply entry");
      check(typeof entry.time === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(entry.time), `time of the Apply entry is not RFC 3339 at seconds: ${String(entry.time)}`);
      checkEqual(ownedDataKeys(entry), ["x"], "data keys the Apply entry owns");
      const stored = await getObject(context, configMapPath(context, name), "after the apply");
      checkEqual(stored.data, { x: "1" }, "stored data after the apply");
    },
  },
  {
    name: "field-manager-required",
    clauses: ["doc1/1/verbs/apply/field-manager-required"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("nofm");
      const applied = await applyConfigMap(context, name, { x: "1" }, { manager: undefined });
      const status = checkFailure(applied, 422, "Invalid", "an apply without fieldManager");
      checkEqual(causesOf(status, "the 422").map((cause) => cause.field), ["fieldManager"], "fields of the 422's causes");
      const read = await context.client.get(configMapPath(context, name));
      checkEqual(read.status, 404, "a GET after the refused apply (nothing created)");
    },
  },
  {
    name: "conflict-lists-fields-and-managers",
    clauses: ["doc1/1/verbs/apply/conflict"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("cf");
      const first = await applyConfigMap(context, name, { x: "1", q: "1" }, { manager: "orb-a" }, { tier: "a" });
      checkEqual(first.status, 201, `setup: apply by orb-a (${brief(first)})`);
      const second = await applyConfigMap(context, name, { x: "2" }, { manager: "orb-b" }, { tier: "b" });
      const status = checkFailure(second, 409, "Conflict", "an apply by orb-b changing two fields orb-a owns");
      const causes = causesOf(status, "the 409");
      checkEqual(
        causes.map((cause) => [cause.reason, cause.field, cause.message]),
        [
          ["FieldManagerConflict", ".data.x", 'conflict with "orb-a"'],
          ["FieldManagerConflict", ".metadata.labels.tier", 'conflict with "orb-a"'],
        ],
        "causes of the 409 (reason, field, message)",
      );
      checkEqual(status.message, 'Apply failed with 2 conflicts: conflicts with "orb-a":\n- .data.x\n- .metadata.labels.tier', "message of the 409");
      const stored = await getObject(context, configMapPath(context, name), "after the refused apply");
      checkEqual(stored.data, { x: "1", q: "1" }, "stored data after the refused apply (unchanged)");
    },
  },
  {
    name: "force-takes-ownership",
    clauses: ["doc1/1/verbs/apply/force"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("fo");
      await applyConfigMap(context, name, { x: "1", q: "1" }, { manager: "orb-a" });
      const forced = await applyConfigMap(context, name, { x: "2" }, { manager: "orb-b", force: true });
      checkEqual(forced.status, 200, `status of a forced apply (${brief(forced)})`);
      checkEqual(recordOf(forced.json).data, { x: "2", q: "1" }, "data after the forced apply");
      const entries = managedFieldsOf(forced.json, "the forced apply's answer");
      checkEqual(ownedDataKeys(entryOf(entries, "orb-b", "Apply")), ["x"], `data keys orb-b owns after forcing (${describeEntries(entries)})`);
      checkEqual(ownedDataKeys(entryOf(entries, "orb-a", "Apply")), ["q"], `data keys orb-a keeps after losing x (${describeEntries(entries)})`);
    },
  },
  {
    name: "same-value-is-shared",
    clauses: ["doc1/1/verbs/apply/shared"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("sh");
      await applyConfigMap(context, name, { x: "1" }, { manager: "orb-a" });
      const shared = await applyConfigMap(context, name, { x: "1" }, { manager: "orb-b" });
      checkEqual(shared.status, 200, `status of an apply of the value orb-a owns, unchanged (${brief(shared)})`);
      const entries = managedFieldsOf(shared.json, "the second apply's answer");
      checkEqual(ownedDataKeys(entryOf(entries, "orb-a", "Apply")), ["x"], `data keys orb-a owns (${describeEntries(entries)})`);
      checkEqual(ownedDataKeys(entryOf(entries, "orb-b", "Apply")), ["x"], `data keys orb-b owns (${describeEntries(entries)})`);
      // Shared is not taken: orb-a still owns x, so orb-b changing it conflicts.
      const change = await applyConfigMap(context, name, { x: "2" }, { manager: "orb-b" });
      checkFailure(change, 409, "Conflict", "orb-b changing the shared field orb-a also owns");
    },
  },
  {
    name: "removed-field-deleted",
    clauses: ["doc1/1/verbs/apply/removal"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("rm");
      await applyConfigMap(context, name, { x: "1", q: "1", z: "1" }, { manager: "orb-a" });
      // orb-b shares z, so it stays when orb-a stops applying it; q goes.
      await applyConfigMap(context, name, { z: "1" }, { manager: "orb-b" });
      const reapplied = await applyConfigMap(context, name, { x: "1" }, { manager: "orb-a" });
      checkEqual(reapplied.status, 200, `status of the re-apply without q and z (${brief(reapplied)})`);
      checkEqual(recordOf(reapplied.json).data, { x: "1", z: "1" }, "data after orb-a stopped applying q (nobody else owns it) and z (orb-b does)");
      const stored = await getObject(context, configMapPath(context, name), "after the re-apply");
      checkEqual(stored.data, { x: "1", z: "1" }, "stored data after the re-apply");
    },
  },
  {
    name: "update-recorded-as-update",
    clauses: ["doc1/1/verbs/apply/update-operation"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("up");
      await applyConfigMap(context, name, { x: "1" }, { manager: "orb-a" });
      const put = await context.client.request("PUT", `${configMapPath(context, name)}?fieldManager=orb-editor`, { body: configMap(name, { x: "2", w: "1" }) });
      checkEqual(put.status, 200, `status of a PUT by orb-editor (${brief(put)})`);
      const entries = managedFieldsOf(put.json, "the PUT's answer");
      const update = entryOf(entries, "orb-editor", "Update");
      check(update !== undefined, `managedFields after the PUT have no Update entry of orb-editor: ${describeEntries(entries)}`);
      checkEqual(update.apiVersion, "v1", "apiVersion of the Update entry");
      checkEqual(ownedDataKeys(update), ["w", "x"], "data keys the Update entry owns (what the PUT added or changed)");
      checkEqual(entryOf(entries, "orb-a", "Apply"), undefined, `orb-a's Apply entry after the PUT took its only field (${describeEntries(entries)})`);
      // The PUT took x: orb-a applying x again with another value conflicts with orb-editor's Update.
      const again = await applyConfigMap(context, name, { x: "3" }, { manager: "orb-a" });
      const status = checkFailure(again, 409, "Conflict", "orb-a applying x after orb-editor's PUT changed it");
      checkEqual(causesOf(status, "the 409").map((cause) => cause.message), ['conflict with "orb-editor" using v1'], "the 409's cause names the Update manager and its apiVersion");
    },
  },
  {
    name: "dry-run-persists-nothing",
    clauses: ["doc1/1/verbs/apply/dry-run"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("dr");
      const created = await applyConfigMap(context, name, { x: "1" }, { manager: "orb-a", dryRun: true });
      checkEqual(created.status, 201, `status of a dry-run apply of a new ConfigMap (${brief(created)})`);
      const absent = await context.client.get(configMapPath(context, name));
      checkEqual(absent.status, 404, "a GET after the dry-run create (nothing stored)");
      const real = await applyConfigMap(context, name, { x: "1" }, { manager: "orb-a" });
      checkEqual(real.status, 201, `setup: apply (${brief(real)})`);
      const dry = await applyConfigMap(context, name, { x: "2", d: "1" }, { manager: "orb-a", dryRun: true });
      checkEqual(dry.status, 200, `status of a dry-run apply (${brief(dry)})`);
      checkEqual(recordOf(dry.json).data, { x: "2", d: "1" }, "data the dry-run apply answers");
      const stored = await getObject(context, configMapPath(context, name), "after the dry-run apply");
      checkEqual(stored.data, { x: "1" }, "stored data after the dry-run apply (unchanged)");
      checkEqual(metadataOf(stored).resourceVersion, metadataOf(real.json).resourceVersion, "resourceVersion after the dry-run apply (unchanged)");
    },
  },
]);
