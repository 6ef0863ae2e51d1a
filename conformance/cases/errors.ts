/**
 * Errors (doc 1 §7) that need no waiting: the 400 of limit + continue + resourceVersion; the 422
 * of Invalid combinations; Status bodies for 400, 404, 409 and 422 (doc 1: "the body shape of
 * error responses ... not shown", so Kubernetes' Status shape, gap doc1/7/not-shown/body-shape);
 * and malformed input answered as a client error (400, 415), never a 5xx.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { itemNames } from "./support/list-body.ts";
import { metadataOf } from "./support/object-body.ts";
import { getObject } from "./support/object-reads.ts";
import { q } from "./support/query.ts";
import { brief, checkFailure } from "./support/status-answers.ts";
import { causesOf, detailsOf } from "./support/status-body.ts";

export const errorCases = defineCases("errors", [
  {
    name: "limit-continue-and-resource-version-is-400",
    clauses: ["doc1/7/400/limit-continue-rv", "doc1/4.7/list/match-unset/limit-continue/rv-other", "doc1/4.7/list/match-unset/limit-continue/rv-0"],
    tags: ["mutating"],
    async run(context) {
      const set = context.name("rv400");
      for (const index of [0, 1, 2]) await createConfigMap(context, `${set}-${index}`, {}, { set });
      const base = `${configMaps(context)}?labelSelector=${q(`set=${set}`)}&limit=1`;
      const first = await context.client.get(base);
      checkEqual(first.status, 200, `status of the first page (${brief(first)})`);
      const token = metadataOf(first.json).continue;
      const version = metadataOf(first.json).resourceVersion;
      check(typeof token === "string" && token !== "", `the first page of three items with limit=1 has no continue token: ${JSON.stringify(recordOf(first.json).metadata)}`);
      // Transcript list-continue-with-rv: 400 BadRequest.
      const refused = await context.client.get(`${base}&continue=${q(token)}&resourceVersion=${q(String(version))}`);
      checkFailure(refused, 400, "BadRequest", "list with limit, continue and the list's own resourceVersion");
      // Transcript list-continue-with-rv0: resourceVersion 0 is the one value that is not refused.
      const zero = await context.client.get(`${base}&continue=${q(token)}&resourceVersion=0`);
      checkEqual(zero.status, 200, `status of a list with limit, continue and resourceVersion=0 (${brief(zero)})`);
      checkEqual(itemNames(zero.json), [`${set}-1`], "items of the page continued with resourceVersion=0");
    },
  },
  {
    name: "invalid-combination-is-422",
    clauses: ["doc1/7/not-shown/invalid-status", "doc1/7/not-shown/body-shape"],
    tags: [],
    async run(context) {
      // Transcript list-rvmatch-no-rv: 422 Invalid with a cause on resourceVersionMatch.
      const response = await context.client.get(`/api/v1/namespaces/${context.namespace}/configmaps?resourceVersionMatch=Exact`);
      const status = checkFailure(response, 422, "Invalid", "list with resourceVersionMatch=Exact and no resourceVersion");
      const causes = causesOf(status, "list with resourceVersionMatch=Exact and no resourceVersion");
      check(causes.some((cause) => cause.field === "resourceVersionMatch"), `the Invalid Status names no cause on resourceVersionMatch: ${JSON.stringify(status.details)}`);
    },
  },
  {
    name: "not-found-is-a-status",
    clauses: ["doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("missing");
      const path = configMapPath(context, name);
      // Transcript get-missing: details name the object and its resource.
      for (const [what, response] of [
        ["GET", await context.client.get(path)],
        ["PATCH", await context.client.patch(path, { data: { k: "v" } })],
        ["DELETE", await context.client.delete(path)],
      ] as const) {
        const status = checkFailure(response, 404, "NotFound", `${what} of a missing ConfigMap`);
        checkEqual(detailsOf(status).name, name, `details.name of the NotFound Status (${what})`);
        checkEqual(detailsOf(status).kind, "configmaps", `details.kind of the NotFound Status (${what})`);
      }
    },
  },
  {
    name: "already-exists-is-a-status",
    clauses: ["doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("exists");
      await createConfigMap(context, name);
      // Transcript create-duplicate.
      const response = await context.client.post(configMaps(context), configMap(name));
      const status = checkFailure(response, 409, "AlreadyExists", "create of an existing name");
      checkEqual([detailsOf(status).name, detailsOf(status).kind], [name, "configmaps"], "details name and kind of the AlreadyExists Status");
    },
  },
  {
    name: "conflict-is-a-status",
    clauses: ["doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("conflict");
      const created = await createConfigMap(context, name, { v: "1" });
      const stale = created.metadata.resourceVersion;
      const updated = await context.client.patch(configMapPath(context, name), { data: { v: "2" } });
      checkEqual(updated.status, 200, `status of the update that makes ${stale} stale (${brief(updated)})`);
      // Transcript update-stale.
      const put = await context.client.put(configMapPath(context, name), { apiVersion: "v1", kind: "ConfigMap", metadata: { name, resourceVersion: stale }, data: { v: "3" } });
      const status = checkFailure(put, 409, "Conflict", "PUT with a stale resourceVersion");
      checkEqual(detailsOf(status).name, name, "details.name of the Conflict Status (PUT)");
      // A resourceVersion in a patch is a precondition too.
      const patched = await context.client.patch(configMapPath(context, name), { metadata: { resourceVersion: stale }, data: { v: "3" } });
      checkFailure(patched, 409, "Conflict", "merge PATCH carrying a stale resourceVersion");
      // Transcript delete-precondition-stale.
      const deleted = await context.client.delete(configMapPath(context, name), { apiVersion: "v1", kind: "DeleteOptions", preconditions: { resourceVersion: stale } });
      checkFailure(deleted, 409, "Conflict", "DELETE with a stale resourceVersion precondition");
      const stored = await getObject(context, configMapPath(context, name), "the object after the refused writes");
      checkEqual(stored.data, { v: "2" }, "data after the refused writes");
    },
  },
  {
    name: "invalid-is-a-status",
    clauses: ["doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      // Transcript create-invalid-name: causes name the field.
      const bad = await context.client.post(configMaps(context), configMap("Bad_Name!"));
      const status = checkFailure(bad, 422, "Invalid", "create with an invalid name");
      checkEqual(detailsOf(status).kind, "ConfigMap", "details.kind of the Invalid Status");
      checkEqual(detailsOf(status).name, "Bad_Name!", "details.name of the Invalid Status");
      const causes = causesOf(status, "create with an invalid name");
      check(causes.length > 0 && causes.every((cause) => typeof cause.reason === "string" && typeof cause.message === "string"), `the Invalid Status has no well-formed causes: ${JSON.stringify(status.details)}`);
      check(causes.some((cause) => cause.field === "metadata.name"), `no cause names metadata.name: ${JSON.stringify(causes)}`);
      // Neither name nor generateName.
      const nameless = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "ConfigMap", metadata: {}, data: {} });
      const namelessStatus = checkFailure(nameless, 422, "Invalid", "create with neither name nor generateName");
      check(
        causesOf(namelessStatus, "create with neither name nor generateName").some((cause) => cause.field === "metadata.name"),
        `no cause names metadata.name: ${JSON.stringify(namelessStatus.details)}`,
      );
    },
  },
  {
    name: "bad-request-is-a-status",
    clauses: ["doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      // Transcript create-namespace-mismatch.
      const mismatch = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "ConfigMap", metadata: { name: context.name("mm"), namespace: `${context.namespace}-other` } });
      checkFailure(mismatch, 400, "BadRequest", "create whose body names another namespace than the path");
      // Transcript create-wrong-kind.
      const wrongKind = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "Secret", metadata: { name: context.name("wk") } });
      checkFailure(wrongKind, 400, "BadRequest", "create of a Secret body on the configmaps collection");
      // An update whose body names another object than its path.
      const name = context.name("named");
      await createConfigMap(context, name);
      const renamed = await context.client.put(configMapPath(context, name), configMap(`${name}-other`, { k: "v" }));
      checkFailure(renamed, 400, "BadRequest", "PUT whose body names another object than the path");
    },
  },
  {
    name: "malformed-json-is-400",
    clauses: ["doc1/4.3/content-type/request", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      // Transcript body-malformed.
      const response = await context.client.request("POST", configMaps(context), { body: '{"kind": "ConfigMap", oops', contentType: "application/json" });
      checkFailure(response, 400, "BadRequest", "POST of malformed JSON");
      const name = context.name("put-malformed");
      await createConfigMap(context, name);
      const put = await context.client.request("PUT", configMapPath(context, name), { body: '{"metadata": {"name": ', contentType: "application/json" });
      checkFailure(put, 400, "BadRequest", "PUT of malformed JSON");
    },
  },
  {
    name: "json-array-body-is-400",
    clauses: ["doc1/1/verbs/single-resource", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      // Transcript body-array.
      const response = await context.client.request("POST", configMaps(context), { body: "[1,2,3]", contentType: "application/json" });
      checkFailure(response, 400, "BadRequest", "POST of a JSON array");
      const objects = await context.client.request("POST", configMaps(context), { body: JSON.stringify([configMap(context.name("arr")), configMap(context.name("arr"))]), contentType: "application/json" });
      checkFailure(objects, 400, "BadRequest", "POST of a JSON array of two ConfigMaps");
      const list = await context.client.get(configMaps(context));
      check(!itemNames(list.json).some((name) => name.startsWith("arr-")), `a POST of an array created objects: ${itemNames(list.json).join(", ")}`);
    },
  },
  {
    name: "unknown-content-type-is-415",
    clauses: ["doc1/4.3/content-type/unsupported", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      // Transcript content-type-text.
      const posted = await context.client.request("POST", configMaps(context), { body: "hello", contentType: "text/plain" });
      checkFailure(posted, 415, "UnsupportedMediaType", "POST with Content-Type text/plain");
      const name = context.name("patched");
      await createConfigMap(context, name, { key: "k" });
      const patched = await context.client.request("PATCH", configMapPath(context, name), { body: '{"data":{"key":"v"}}', contentType: "text/plain" });
      checkFailure(patched, 415, "UnsupportedMediaType", "PATCH with Content-Type text/plain");
      const stored = await getObject(context, configMapPath(context, name), "the object after the refused PATCH");
      checkEqual(stored.data, { key: "k" }, "data after the refused PATCH");
    },
  },
  {
    name: "malformed-patch-is-a-client-error",
    clauses: ["doc1/4.3/content-type/request", "doc1/7/not-shown/body-shape"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("badpatch");
      await createConfigMap(context, name, { key: "k" });
      const path = configMapPath(context, name);
      const attempts: Array<[string, string, string]> = [
        ["merge patch of malformed JSON", '{"data": oops', "application/merge-patch+json"],
        ["JSON patch of malformed JSON", '[{"op": "add", ', "application/json-patch+json"],
        ["strategic merge patch of malformed JSON", '{"data": {', "application/strategic-merge-patch+json"],
      ];
      for (const [what, body, contentType] of attempts) {
        const response = await context.client.request("PATCH", path, { body, contentType });
        // No reference transcript: any 4xx with a Status body, never a 5xx.
        check(response.status >= 400 && response.status < 500, `${what}: expected a 4xx client error, got ${response.status}: ${brief(response)}`);
        checkFailure(response, response.status, String(recordOf(response.json).reason), what);
      }
      const stored = await getObject(context, path, "the object after the refused patches");
      checkEqual(stored.data, { key: "k" }, "data after the refused patches");
    },
  },
]);
