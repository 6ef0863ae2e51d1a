/**
 * The verbs on single resources and collections (doc 1 §1), object names (§2.1), create, update
 * and patch answers (§4.1). Also the helpers the discovery, metadata, deletion and errors areas
 * share: create checks, Status checks, timestamps, Pods and Nodes.
 */
import { defineCases } from "../case-definition.ts";
import type { CaseContext } from "../case-context.ts";
import { check, checkEqual } from "../check.ts";
import type { ApiResponse } from "../client/conformance-client.ts";
import type { Dialect } from "../../spec/dialects.ts";
import { checkAnswerForm } from "./dialect-answers.ts";
import { configMap, configMaps, itemNames, q } from "./fixtures.ts";
import { awaitDefaultServiceAccount } from "./service-account-wait.ts";

// ---------------------------------------------------------------------------------------------
// Shared helpers

/** The server's message of a response, for failure texts. */
export function brief(response: ApiResponse): string {
  const message = response.json?.message;
  return typeof message === "string" ? message : response.text.slice(0, 200);
}

/**
 * Checks a successful create: 201 Created, or 200 (deviation create-status: doc 1 §4.1 shows 200
 * for one create, Kubernetes answers 201), with the created object. Returns the object. Tolerant
 * for every dialect: the entry is an interpretation (doc 1 shows 200 once, in an example, and
 * states no rule), so 201 cannot fail an orb server, nor 200 a server that follows the example.
 */
export function checkCreated(response: ApiResponse, what: string): any {
  check(response.status === 201 || response.status === 200, `${what}: expected 201 Created (or 200, deviation create-status), got ${response.status}: ${brief(response)}`);
  check(typeof response.json === "object" && response.json !== null, `${what}: the create answered no JSON object: ${response.text.slice(0, 200)}`);
  return response.json;
}

/** POSTs `body` to `path` and checks the create succeeded; returns the created object. */
export async function create(context: CaseContext, path: string, body: Record<string, unknown>, what: string): Promise<any> {
  return checkCreated(await context.client.post(path, body), what);
}

/** Creates ConfigMap `name` in the case's namespace; returns the created object. */
export async function createConfigMap(context: CaseContext, name: string, data: Record<string, string> = {}, labels?: Record<string, string>, finalizers?: string[]): Promise<any> {
  const body = configMap(name, data, labels);
  if (finalizers !== undefined) (body["metadata"] as Record<string, unknown>)["finalizers"] = finalizers;
  return create(context, configMaps(context), body, `creating ConfigMap ${name}`);
}

/** The path of ConfigMap `name` in the case's namespace. */
export function configMapPath(context: CaseContext, name: string): string {
  return `${configMaps(context)}/${name}`;
}

/**
 * Checks an error answer: the HTTP status, and a Status body as Kubernetes sends it (doc 1 §7:
 * "the body shape of error responses ... not shown"; gap doc1/7/not-shown/body-shape): kind
 * Status, apiVersion v1, status Failure, the reason, a message, and `code` equal to the HTTP status.
 */
export function checkFailure(response: ApiResponse, code: number, reason: string, what: string): any {
  check(response.status === code, `${what}: expected HTTP ${code} ${reason}, got ${response.status}: ${brief(response)}`);
  const body = response.json;
  check(typeof body === "object" && body !== null && !Array.isArray(body), `${what}: the ${code} answer has no JSON object body (content-type ${response.headers.get("content-type")}): ${response.text.slice(0, 200)}`);
  checkEqual(body.kind, "Status", `${what}: kind of the error body`);
  checkEqual(body.apiVersion, "v1", `${what}: apiVersion of the error body`);
  checkEqual(body.status, "Failure", `${what}: status of the error body`);
  checkEqual(body.reason, reason, `${what}: reason of the error body`);
  checkEqual(body.code, code, `${what}: code of the error body (must equal the HTTP status)`);
  check(typeof body.message === "string" && body.message !== "", `${what}: the error body has no message: ${response.text.slice(0, 200)}`);
  return body;
}

/** Checks a GET answered 404 NotFound (the object does not exist). */
export async function checkGone(context: CaseContext, path: string, what: string): Promise<void> {
  const response = await context.client.get(path);
  check(response.status === 404, `${what}: GET ${path} expected 404 NotFound, got ${response.status}${response.status === 200 ? ` (deletionTimestamp ${response.json?.metadata?.deletionTimestamp}, finalizers ${JSON.stringify(response.json?.metadata?.finalizers)})` : `: ${brief(response)}`}`);
}

/** GETs `path`, checks 200, returns the object. */
export async function getObject(context: CaseContext, path: string, what: string): Promise<any> {
  const response = await context.client.get(path);
  check(response.status === 200, `${what}: GET ${path} expected 200, got ${response.status}: ${brief(response)}`);
  return response.json;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp of the API (failing the case on anything else); milliseconds since the epoch. */
export function timestampMs(value: unknown, what: string): number {
  check(typeof value === "string" && RFC3339.test(value), `${what}: expected an RFC 3339 timestamp, got ${JSON.stringify(value)}`);
  const ms = Date.parse(value);
  check(!Number.isNaN(ms), `${what}: unparseable timestamp ${value}`);
  return ms;
}

/**
 * Checks that `timestamp` is the server's current time when `response` was sent: within a few
 * seconds of the response's Date header (the server's clock; API timestamps have whole seconds).
 * Without a Date header there is no server clock to compare with, and only the format is checked.
 */
export function checkServerNow(timestamp: unknown, response: ApiResponse, what: string): number {
  const ms = timestampMs(timestamp, what);
  const date = response.headers.get("date");
  if (date !== null && !Number.isNaN(Date.parse(date))) {
    const skew = Math.abs(ms - Date.parse(date));
    check(skew <= 5_000, `${what}: ${String(timestamp)} is ${Math.round(skew / 1000)} s away from the server's Date header (${date}); expected the current time`);
  }
  return ms;
}

/** Waits a little over one second, so whole-second timestamps of two writes must differ. */
export async function nextSecond(context: CaseContext): Promise<void> {
  await context.advance(1_100);
}

/** Removes every finalizer of the object at `path` (cleanup, so the namespace can go; a 404 is fine). */
export async function dropFinalizers(context: CaseContext, path: string): Promise<void> {
  await context.client.patch(path, { metadata: { finalizers: null } }).catch(() => undefined);
}

/** A Pod body with one container, as in the reference transcript pod-create. */
export function podBody(name: string): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels: { app: name } },
    spec: { automountServiceAccountToken: false, containers: [{ name: "c", image: "registry.example/app:1" }] },
  };
}

/** Creates Pod `name` in the case's namespace, once the namespace has its default ServiceAccount. */
export async function createPod(context: CaseContext, name: string): Promise<any> {
  await awaitDefaultServiceAccount(context);
  return checkCreated(await context.client.post(`/api/v1/namespaces/${context.namespace}/pods`, podBody(name)), `creating Pod ${name}`);
}

/** A Node body (cluster-scoped). */
export function nodeBody(name: string, labels: Record<string, string> = {}): Record<string, unknown> {
  return { apiVersion: "v1", kind: "Node", metadata: { name, labels } };
}

/** Deletes Nodes the case created (cleanup: cluster-scoped objects outlive the case's namespace). */
export async function deleteNodes(context: CaseContext, names: readonly string[]): Promise<void> {
  for (const name of names) await context.client.delete(`/api/v1/nodes/${name}`).catch(() => undefined);
}

/** A Deployment body with the given containers and no replicas (nothing for a real cluster to run). */
export function deploymentBody(name: string, containers: ReadonlyArray<{ name: string; image: string }>): Record<string, unknown> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers } },
    },
  };
}

/**
 * Checks the answer to a DELETE that removed an object at once: the object (doc 1 §4.1 "returns
 * the resulting object"), or a Status with status Success naming it (deviation delete-response:
 * Kubernetes, transcript delete-plain). Strict (dialect-answers.ts): each dialect records one
 * answer and real servers agree, so an orb target must send the object and a kubernetes target
 * the Status. Either must name the deleted object.
 */
export function checkRemovedAnswer(dialect: Dialect, response: ApiResponse, kind: string, name: string, uid: string, what: string): void {
  check(response.status === 200, `${what}: expected 200, got ${response.status}: ${brief(response)}`);
  const body = response.json;
  checkAnswerForm(dialect, "delete-response", body?.kind === "Status" ? "status-when-removed" : "object", `${what} (kind ${JSON.stringify(body?.kind)})`);
  if (body?.kind === "Status") {
    checkEqual(body.status, "Success", `${what}: status of the Status answer (deviation delete-response)`);
    checkEqual(body.details?.name, name, `${what}: details.name of the Status answer`);
    if (body.details?.uid !== undefined) checkEqual(body.details.uid, uid, `${what}: details.uid of the Status answer`);
    return;
  }
  checkEqual(body?.kind, kind, `${what}: kind of the answer (the deleted object)`);
  checkEqual(body.metadata?.name, name, `${what}: metadata.name of the answer`);
  checkEqual(body.metadata?.uid, uid, `${what}: metadata.uid of the answer`);
}

// ---------------------------------------------------------------------------------------------
// Cases

export const crudCases = defineCases("crud", [
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
      checkEqual(list.json?.kind, "ConfigMapList", "kind of a list answer (a collection)");
      check(Array.isArray(list.json?.items), `a list answer has no items array: ${list.text.slice(0, 200)}`);
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
      checkEqual(response.json?.kind, "ConfigMap", "kind of the PUT answer (the resulting object)");
      checkEqual(response.json?.metadata?.name, name, "metadata.name of the PUT answer");
      checkEqual(response.json?.metadata?.uid, created.metadata.uid, "uid of the PUT answer (the same object, updated)");
      checkEqual(response.json?.data, { key: "v2" }, "data of the PUT answer");
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
        checkEqual(response.json?.metadata?.name, name, "metadata.name of the object the PUT created");
        checkEqual(after.status, 200, "GET after a PUT that answered 201 Created");
        checkEqual(after.json?.data, { key: "made-by-put" }, "data of the object the PUT created");
      } else {
        checkFailure(response, 404, "NotFound", "PUT of a missing ConfigMap");
        checkEqual(after.status, 404, "GET after a PUT that answered 404 (nothing may have been created)");
      }
    },
  },
  {
    name: "update-replaces-patch-merges",
    clauses: ["doc1/1/verbs/update-not-patch", "doc1/1/http-methods"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("upd");
      await createConfigMap(context, name, { a: "1", b: "2" });
      const patched = await context.client.patch(configMapPath(context, name), { data: { c: "3" } });
      checkEqual(patched.status, 200, `status of a merge PATCH (${brief(patched)})`);
      checkEqual(patched.json?.data, { a: "1", b: "2", c: "3" }, "data after a PATCH naming only c (patch keeps what it does not name)");
      const put = await context.client.put(configMapPath(context, name), configMap(name, { c: "4" }));
      checkEqual(put.status, 200, `status of a PUT (${brief(put)})`);
      checkEqual(put.json?.data, { c: "4" }, "data after a PUT naming only c (update replaces the object)");
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
      checkEqual(response.json?.kind, "ConfigMap", "kind of the PATCH answer (the resulting object)");
      checkEqual(response.json?.metadata?.uid, created.metadata.uid, "uid of the PATCH answer");
      checkEqual(response.json?.data, { key: "k", merged: "yes" }, "data after the merge patch");
      checkEqual(response.json?.metadata?.labels, { tier: "odd", extra: "1" }, "labels after the merge patch");
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
      checkEqual(response.json?.kind, "ConfigMap", "kind of the PATCH answer");
      checkEqual(response.json?.data, { key: "k2", jp: "1" }, "data after the JSON patch");
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
      checkEqual(response.json?.data, { key: "k", smp: "1" }, "data after the strategic merge patch");
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
      const containers = ((response.json?.spec?.template?.spec?.containers ?? []) as Array<{ name: string; image: string }>).map((c) => ({ name: c.name, image: c.image }));
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
      const seen: string[] = [];
      try {
        checkEqual(watch.status, 200, "status of the watch");
        while (seen.length < names.length) {
          const event = await watch.next(5_000);
          check(event !== undefined && event !== "timeout", `the watch ended or went quiet after ${seen.length} events (${seen.join(", ")}); expected ADDED for ${names.join(", ")}`);
          checkEqual(event.type, "ADDED", `type of watch event ${seen.length + 1} (resourceVersion unset: the existing objects)`);
          seen.push(event.object?.metadata?.name);
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
      checkEqual(plain.json?.kind, "ConfigMapList", "kind of the GET without watch (a list)");
      const watch = await context.client.watch(`${path}&watch=1`);
      try {
        checkEqual(watch.status, 200, "status of the GET with watch=1");
        const event = await watch.next(5_000);
        check(event !== undefined && event !== "timeout", `the GET with watch=1 sent no event (${event})`);
        checkEqual(event.type, "ADDED", "type of the first event of the watch");
        checkEqual(event.object?.kind, "ConfigMap", "kind of the event's object");
        checkEqual(event.object?.metadata?.name, name, "name of the event's object");
        // The stream stays open for later changes, which a get or list would not report.
        await context.client.patch(configMapPath(context, name), { data: { key: "k2" } });
        const next = await watch.next(5_000);
        check(next !== undefined && next !== "timeout", `the watch reported nothing after an update (${next})`);
        checkEqual(next.type, "MODIFIED", "type of the event after an update");
        checkEqual(next.object?.data, { key: "k2" }, "data of the MODIFIED event's object");
      } finally {
        await watch.close();
      }
    },
  },
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
      checkEqual(status.details?.name, name, "details.name of the AlreadyExists Status");
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
        checkEqual(stored.metadata?.labels?.copy, "first", "label of the Node behind the name");
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
      const causes = (status.details?.causes ?? []) as Array<{ field?: string }>;
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
      checkEqual(status.details?.name, name, "details.name of the Conflict Status");
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
      checkEqual(response.json?.kind, "Status", "kind of the eviction answer (an operation's outcome)");
      checkEqual(response.json?.status, "Success", "status of the eviction answer");
      const after = await context.client.get(`/api/v1/namespaces/${context.namespace}/pods/${name}`);
      // The operation acted on the Pod: removed, or (scheduled on a real node) terminating.
      check(
        after.status === 404 || (after.status === 200 && after.json?.metadata?.uid === pod.metadata.uid && after.json?.metadata?.deletionTimestamp !== undefined),
        `after the eviction the Pod is neither gone nor terminating: GET answered ${after.status} ${JSON.stringify(after.json?.metadata ?? brief(after))}`,
      );
    },
  },
]);
