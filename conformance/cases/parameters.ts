/**
 * Query parameters of doc 1 §4.2 that no other area exercises, and the list shape of §2.3. Each
 * expectation holds on a real kube-apiserver 1.26 as recorded (transcripts list-limit-abc,
 * list-limit-negative, list-rvmatch-unknown, list-rv-nonnumeric, body-too-large).
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual, checkOneOf } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMap, configMaps, createConfigMaps } from "./support/config-maps.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { expectRecord } from "./support/json-guards.ts";
import { itemNames, listItems } from "./support/list-body.ts";
import { expectObject } from "./support/object-body.ts";
import { q } from "./support/query.ts";

export const parameterCases = defineCases("parameters", [
  {
    name: "list-kind-and-api-version",
    clauses: ["doc1/2.3/api-version", "doc1/2.3/no-list-kind"],
    tags: ["mutating"],
    async run(context) {
      await createConfigMaps(context, "shape", 1);
      const core = await context.client.get(configMaps(context));
      const apps = await context.client.get(`/apis/apps/v1/namespaces/${context.namespace}/deployments`);
      const coreList = expectRecord(core.json, "a core list");
      const appsList = expectRecord(apps.json, "an apps/v1 list");
      checkEqual([coreList.kind, coreList.apiVersion], ["ConfigMapList", "v1"], "kind and apiVersion of a core list");
      checkEqual([appsList.kind, appsList.apiVersion], ["DeploymentList", "apps/v1"], "kind and apiVersion of an apps/v1 list");
    },
  },
  {
    name: "limit-caps-the-items",
    clauses: ["doc1/4.2/limit"],
    tags: ["mutating"],
    async run(context) {
      await createConfigMaps(context, "cap", 3);
      const page = await context.client.get(`${configMaps(context)}?limit=1`);
      checkEqual(page.status, 200, "status");
      const items = listItems(page.json, "the list ?limit=1");
      check(items.length <= 1, `limit=1 returned ${items.length} items`);
    },
  },
  {
    name: "limit-not-an-integer-is-400",
    clauses: ["doc1/4.2/limit/not-integer"],
    tags: [],
    async run(context) {
      const answer = await context.client.get(`${configMaps(context)}?limit=abc`);
      checkEqual([answer.status, recordOf(answer.json).kind, recordOf(answer.json).reason], [400, "Status", "BadRequest"], "limit=abc");
    },
  },
  {
    name: "limit-zero-or-below-means-no-limit",
    clauses: ["doc1/4.2/limit/non-positive"],
    tags: ["mutating"],
    async run(context) {
      const names = await createConfigMaps(context, "all", 3);
      for (const limit of ["0", "-1"]) {
        const answer = await context.client.get(`${configMaps(context)}?limit=${limit}`);
        checkEqual(answer.status, 200, `status for limit=${limit}`);
        check(names.every((name) => itemNames(answer.json).includes(name)), `limit=${limit} left out items: got ${itemNames(answer.json)}`);
        checkOneOf(expectObject(answer.json, `the list ?limit=${limit}`).metadata.continue, [undefined, ""], `continue token for limit=${limit}`);
      }
    },
  },
  {
    name: "continue-without-limit-continues",
    clauses: ["doc1/4.2/continue/without-limit"],
    tags: ["mutating"],
    async run(context) {
      const names = await createConfigMaps(context, "rest", 3);
      const first = await context.client.get(`${configMaps(context)}?limit=1`);
      const token = expectObject(first.json, "the first page").metadata.continue;
      check(typeof token === "string" && token !== "", "a first page of 1 of 3 items carries a continue token");
      const rest = await context.client.get(`${configMaps(context)}?continue=${q(token)}`);
      checkEqual(rest.status, 200, "status of a continue without limit");
      checkEqual([...itemNames(first.json), ...itemNames(rest.json)].filter((name) => names.includes(name)), names, "first page plus the rest");
    },
  },
  {
    name: "resource-version-match-values",
    clauses: ["doc1/4.2/resource-version-match/values"],
    tags: [],
    async run(context) {
      const list = await context.client.get(configMaps(context));
      const resourceVersion = String(expectObject(list.json, "the list").metadata.resourceVersion);
      const answer = await context.client.get(`${configMaps(context)}?resourceVersionMatch=Bogus&resourceVersion=${q(resourceVersion)}`);
      checkEqual([answer.status, recordOf(answer.json).reason], [422, "Invalid"], "resourceVersionMatch=Bogus");
      for (const match of ["Exact", "NotOlderThan"]) {
        const accepted = await context.client.get(`${configMaps(context)}?resourceVersionMatch=${match}&resourceVersion=${q(resourceVersion)}`);
        // Kubernetes' watch cache may not have heard of the list's version yet: it waits, then 504
        // (deviation not-older-than-cache-lag). Exact reads go to storage and are always served.
        if (match === "NotOlderThan" && accepted.status === 504 && /too large resource version/i.test(String(recordOf(accepted.json).message))) {
          checkAnswerForm(context.dialect, "not-older-than-cache-lag", "too-large", `resourceVersionMatch=NotOlderThan at the list's own resourceVersion ${resourceVersion} answered 504 (${recordOf(accepted.json).message})`);
          continue;
        }
        checkEqual(accepted.status, 200, `resourceVersionMatch=${match} at the list's own resourceVersion`);
      }
    },
  },
  {
    name: "resource-version-match-is-for-lists",
    clauses: ["doc1/4.2/resource-version-match/list-only"],
    tags: [],
    async run(context) {
      const list = await context.client.get(configMaps(context));
      const resourceVersion = q(String(expectObject(list.json, "the list").metadata.resourceVersion));
      const answer = await context.client.get(`${configMaps(context)}?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=${resourceVersion}&timeoutSeconds=1`);
      checkOneOf(answer.status, [400, 422], "a watch with resourceVersionMatch");
      checkEqual(recordOf(answer.json).kind, "Status", "the answer is a Status");
    },
  },
  {
    name: "unparseable-resource-version-is-refused",
    clauses: ["doc1/4.2/resource-version/unparseable"],
    tags: [],
    async run(context) {
      const answer = await context.client.get(`${configMaps(context)}?resourceVersion=not-a-version`);
      // Kubernetes answers 500 here (transcript list-rv-nonnumeric, gap rv-unparseable); a clear 400 is
      // better. Tolerant for every dialect: doc 1 §4.2 is silent, so neither fails a doc 1 server.
      checkOneOf(answer.status, [400, 500], "status for an unparseable resourceVersion");
      checkEqual(recordOf(answer.json).kind, "Status", "the answer is a Status");
    },
  },
  {
    name: "pretty-is-accepted",
    clauses: ["doc1/4.2/pretty"],
    tags: ["mutating"],
    async run(context) {
      await context.client.post(configMaps(context), configMap("pretty", { a: "b" }));
      const plain = await context.client.get(`${configMaps(context)}/pretty`);
      const pretty = await context.client.get(`${configMaps(context)}/pretty?pretty=true`);
      checkEqual(pretty.status, 200, "status with pretty=true");
      checkEqual(pretty.json, plain.json, "the object with and without pretty=true");
    },
  },
  {
    name: "oversized-body-is-refused",
    clauses: ["doc1/8/not-shown/request-size"],
    tags: ["mutating"],
    async run(context) {
      // Kubernetes refuses bodies over 3 MiB (transcript body-too-large); doc 1 leaves the limit open.
      const big = JSON.stringify(configMap("big", { blob: "x".repeat(4 * 1024 * 1024) }));
      const answer = await context.client.request("POST", configMaps(context), { body: big, contentType: "application/json" });
      checkEqual([answer.status, recordOf(answer.json).reason], [413, "RequestEntityTooLarge"], "a 4 MiB body");
      checkEqual((await context.client.get(`${configMaps(context)}/big`)).status, 404, "the oversized object was not stored");
    },
  },
]);
