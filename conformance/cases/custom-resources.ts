/**
 * CustomResourceDefinitions over the API and the custom resources they define: Kubernetes
 * behaviour beyond doc 1 (clauses `k8s/crd/*`, spec/kubernetes/crd-clauses.ts), as kube-apiserver
 * 1.26.4 answers (sim/apiserver/apiextensions/recorded/). Each case makes a definition of its own,
 * with a group unique to the run, and deletes it.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { fieldAt } from "../client/json-fields.ts";
import { create } from "./support/creates.ts";
import { createDefinition, deleteDefinition, widget, type CaseDefinition } from "./support/custom-resource-definitions.ts";
import { itemNames } from "./support/list-body.ts";
import { brief, checkFailure } from "./support/status-answers.ts";
import { causesOf } from "./support/status-body.ts";
import type { CaseContext } from "../case-context.ts";

/** Runs `body` with a definition of the case's own, deleted afterwards whatever happens. */
async function withDefinition(context: CaseContext, body: (definition: CaseDefinition) => Promise<void>): Promise<void> {
  const definition = await createDefinition(context);
  try {
    await body(definition);
  } finally {
    await deleteDefinition(context, definition);
  }
}

export const customResourceCases = defineCases("custom-resources", [
  {
    name: "definition-established-and-discovered",
    clauses: ["k8s/crd/established"],
    tags: ["mutating"],
    async run(context) {
      await withDefinition(context, async (definition) => {
        const read = await context.client.get(definition.path);
        checkEqual(read.status, 200, `GET ${definition.path} (${brief(read)})`);
        const conditions = fieldAt(read.json, "status", "conditions");
        check(Array.isArray(conditions), `status.conditions of the definition: ${JSON.stringify(conditions)}`);
        for (const type of ["NamesAccepted", "Established"]) {
          const condition = conditions.find((entry) => fieldAt(entry, "type") === type);
          checkEqual(fieldAt(condition, "status"), "True", `status of condition ${type}`);
        }
        checkEqual(fieldAt(read.json, "status", "acceptedNames", "plural"), "widgets", "status.acceptedNames.plural");
        const resources = await context.client.get(`/apis/${definition.group}/v1`);
        checkEqual(resources.status, 200, `GET /apis/${definition.group}/v1 (${brief(resources)})`);
        const list = fieldAt(resources.json, "resources");
        check(Array.isArray(list), `resources of /apis/${definition.group}/v1`);
        const entry = list.find((item) => fieldAt(item, "name") === "widgets");
        check(entry !== undefined, `/apis/${definition.group}/v1 does not list widgets: ${resources.text.slice(0, 300)}`);
        checkEqual(fieldAt(entry, "kind"), "Widget", "kind of the widgets entry");
        checkEqual(fieldAt(entry, "shortNames"), ["wdg"], "shortNames of the widgets entry");
        const verbs = fieldAt(entry, "verbs");
        check(Array.isArray(verbs) && ["create", "get", "list", "watch", "delete"].every((verb) => verbs.includes(verb)), `verbs of the widgets entry: ${JSON.stringify(verbs)}`);
        check(typeof fieldAt(entry, "storageVersionHash") === "string", "the widgets entry has a storageVersionHash");
        check(list.some((item) => fieldAt(item, "name") === "widgets/status"), "discovery lists widgets/status");
        const groups = await context.client.get("/apis");
        check(groups.text.includes(`"${definition.group}"`), `GET /apis does not list group ${definition.group}`);
      });
    },
  },
  {
    name: "schema-validated",
    clauses: ["k8s/crd/schema-validated"],
    tags: ["mutating"],
    async run(context) {
      await withDefinition(context, async (definition) => {
        const wrongType = await context.client.post(definition.collection, widget(definition, "w", { color: "red", size: "big" }));
        const status = checkFailure(wrongType, 422, "Invalid", "creating a Widget with spec.size \"big\" for an integer");
        checkEqual(status.message, `Widget.${definition.group} "w" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`, "message of the 422");
        const causes = causesOf(status, "the 422");
        checkEqual(causes.map((cause) => [cause["reason"], cause["field"]]), [["FieldValueTypeInvalid", "spec.size"]], "causes of the 422");
        const missing = checkFailure(await context.client.post(definition.collection, widget(definition, "w", { size: 2 })), 422, "Invalid", "creating a Widget without the required spec.color");
        checkEqual(missing.message, `Widget.${definition.group} "w" is invalid: spec.color: Required value`, "message of the 422 for a missing field");
        const unsupported = checkFailure(await context.client.post(definition.collection, widget(definition, "w", { color: "purple" })), 422, "Invalid", "creating a Widget with a color outside the enum");
        checkEqual(unsupported.message, `Widget.${definition.group} "w" is invalid: spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"`, "message of the 422 for an enum");
        const small = checkFailure(await context.client.post(definition.collection, widget(definition, "w", { color: "red", size: 0 })), 422, "Invalid", "creating a Widget under the minimum");
        checkEqual(small.message, `Widget.${definition.group} "w" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1`, "message of the 422 for a minimum");
        const absent = await context.client.get(`${definition.collection}/w`);
        checkEqual(absent.status, 404, `GET of the refused Widget (${brief(absent)})`);
      });
    },
  },
  {
    name: "defaults-and-pruning",
    clauses: ["k8s/crd/defaults", "k8s/crd/pruning"],
    tags: ["mutating"],
    async run(context) {
      await withDefinition(context, async (definition) => {
        const sent = widget(definition, "w1", { color: "red", unknown: "dropped", extra: { anything: { goes: 1 } } }, { unknownTop: 1 });
        const created = await create(context, definition.collection, sent, "creating a Widget with unknown fields and no mode");
        for (const [what, object] of [["create answer", created], ["GET", (await context.client.get(`${definition.collection}/w1`)).json]] as const) {
          checkEqual(fieldAt(object, "spec", "mode"), "fast", `spec.mode (defaulted) in the ${what}`);
          checkEqual(fieldAt(object, "spec", "unknown"), undefined, `spec.unknown (pruned) in the ${what}`);
          checkEqual(fieldAt(object, "unknownTop"), undefined, `unknownTop (pruned) in the ${what}`);
          checkEqual(fieldAt(object, "spec", "extra"), { anything: { goes: 1 } }, `spec.extra (x-kubernetes-preserve-unknown-fields) in the ${what}`);
        }
      });
    },
  },
  {
    name: "status-subresource",
    clauses: ["k8s/crd/status-subresource"],
    tags: ["mutating"],
    async run(context) {
      await withDefinition(context, async (definition) => {
        const created = await create(context, definition.collection, widget(definition, "w2", { color: "green" }, { status: { phase: "Ignored" } }), "creating a Widget with a status");
        checkEqual(fieldAt(created, "status"), undefined, "status of the create answer (the main resource ignores status)");
        const statusWrite = await context.client.put(`${definition.collection}/w2/status`, { ...created, spec: { color: "blue" }, status: { phase: "Ready" } });
        checkEqual(statusWrite.status, 200, `PUT /status (${brief(statusWrite)})`);
        checkEqual(fieldAt(statusWrite.json, "status", "phase"), "Ready", "status.phase after PUT /status");
        checkEqual(fieldAt(statusWrite.json, "spec", "color"), "green", "spec.color after PUT /status (status writes ignore spec)");
        const mainWrite = await context.client.put(`${definition.collection}/w2`, { ...(statusWrite.json as object), spec: { color: "blue" }, status: { phase: "Changed" } });
        checkEqual(mainWrite.status, 200, `PUT of the Widget (${brief(mainWrite)})`);
        checkEqual(fieldAt(mainWrite.json, "spec", "color"), "blue", "spec.color after PUT of the Widget");
        checkEqual(fieldAt(mainWrite.json, "status", "phase"), "Ready", "status.phase after PUT of the Widget (main writes ignore status)");
      });
    },
  },
  {
    name: "definition-delete-removes-objects",
    clauses: ["k8s/crd/delete-removes-objects"],
    tags: ["mutating"],
    async run(context) {
      const definition = await createDefinition(context);
      try {
        await create(context, definition.collection, widget(definition, "doomed", { color: "red" }), "creating a Widget");
        const deleted = await context.client.delete(definition.path);
        check(deleted.status === 200, `DELETE ${definition.path} answered ${deleted.status}: ${brief(deleted)}`);
        const outcome = await context.pollUntil({
          what: `CustomResourceDefinition ${definition.name} to be gone`,
          withinMs: 30_000,
          probe: async () => ((await context.client.get(definition.path)).status === 404 ? true : undefined),
        });
        check(outcome.value === true, `CustomResourceDefinition ${definition.name} still there 30 s after DELETE`);
        // Made again under the same name, it holds none of the old objects.
        const again = await createDefinition(context, definition.group);
        const list = await context.client.get(again.collection);
        checkEqual(list.status, 200, `GET ${again.collection} (${brief(list)})`);
        checkEqual(itemNames(list.json), [], "Widgets of the definition made again (the old ones were deleted with their definition)");
      } finally {
        await deleteDefinition(context, definition);
      }
    },
  },
]);
