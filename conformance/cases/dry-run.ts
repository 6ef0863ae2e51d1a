/**
 * Dry-run (doc 1 §4.4, §2.7, §4.2 dryRun): with dryRun=All every stage runs except storage — the
 * would-be object comes back with the normal status code, defaulted, admitted and validated, with
 * freshly generated values — and nothing is persisted or announced.
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual, checkOneOf } from "../check.ts";
import type { ApiResponse } from "../client/conformance-client.ts";
import { checkAnswerForm } from "./dialect-answers.ts";
import { configMaps, q } from "./fixtures.ts";
import { checkChanges, collectEvents, createObject, drainEvents, listOurs, openWatch, quietMs, scope } from "./watch.ts";
import { awaitDefaultServiceAccount } from "./service-account-wait.ts";

/**
 * Deviation create-status: a create answers 201 (Kubernetes) or 200 (doc 1 §4.1 shows it once).
 * Tolerant for every dialect: an interpretation, doc 1 shows 200 in one example and states no rule.
 */
const CREATED = [200, 201];

const MERGE_PATCH = "application/merge-patch+json";

function message(response: ApiResponse): string {
  return response.json?.message ?? response.text.slice(0, 200);
}

function services(context: CaseContext): string {
  return `/api/v1/namespaces/${context.namespace}/services`;
}

function pods(context: CaseContext): string {
  return `/api/v1/namespaces/${context.namespace}/pods`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Timestamps have whole seconds (RFC 3339): a second request more than a second later must get another. */
const NEXT_SECOND_MS = 1_100;

/** Fails unless `response` is 404 NotFound: the dry-run object was not persisted. */
function checkAbsent(response: ApiResponse, what: string): void {
  check(response.status === 404, `${what}: expected 404 (nothing persisted), got ${response.status}: ${response.text.slice(0, 200)}`);
}

/** Fails unless `response` is a 422 Invalid Status. */
function checkInvalid(response: ApiResponse, what: string): void {
  check(response.status === 422 && response.json?.reason === "Invalid", `${what}: expected 422 Invalid, got ${response.status}: ${message(response)}`);
}

/**
 * A Pod create, retried while a real cluster has not yet made the new namespace's default
 * ServiceAccount (its admission plugin refuses pods until then; the embedded server has none).
 */
async function postPod(context: CaseContext, path: string, pod: unknown): Promise<ApiResponse> {
  await awaitDefaultServiceAccount(context);
  return context.client.post(path, pod);
}

function nodePorts(service: any): number[] {
  return ((service?.spec?.ports ?? []) as Array<{ nodePort?: unknown }>).map((port) => port.nodePort).filter((port): port is number => typeof port === "number");
}

export const dryRunCases = defineCases("dry-run", [
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
      checkOneOf(dry.status, CREATED, `POST ?dryRun=All: status (a create's normal status, ${dry.json?.message ?? ""})`);
      checkEqual([dry.json?.kind, dry.json?.metadata?.name, dry.json?.metadata?.namespace], ["ConfigMap", name, context.namespace], "kind, name and namespace of the dry-run answer");
      checkEqual([dry.json?.data, dry.json?.metadata?.labels], [sent.data, sent.metadata.labels], "data and labels of the dry-run answer (the object that would be persisted)");
      check(typeof dry.json?.metadata?.uid === "string" && dry.json.metadata.uid !== "", `the dry-run answer should carry a generated uid, got ${JSON.stringify(dry.json?.metadata?.uid)}`);
      check(typeof dry.json?.metadata?.creationTimestamp === "string", `the dry-run answer should carry a creationTimestamp, got ${JSON.stringify(dry.json?.metadata?.creationTimestamp)}`);
      checkAbsent(await context.client.get(`${configMaps(context)}/${name}`), `GET ${name} after the dry-run create`);
      const list = await listOurs(context, objects);
      checkEqual(list.items.map((item) => item.metadata.name), [], "the case's objects in a list after the dry-run create");
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
      check(real.json?.metadata?.uid !== dry.json.metadata.uid, `uid: the dry run and the real create must differ, both are ${JSON.stringify(real.json?.metadata?.uid)}`);
      const dryVersion = dry.json.metadata.resourceVersion;
      // Deviation dry-run-create-resource-version, tolerant for every dialect: doc 1 §2.7 reads two
      // ways (a generated version that differs, or none since nothing is persisted); Kubernetes sends none.
      check(
        dryVersion === undefined || dryVersion === "" || dryVersion !== real.json?.metadata?.resourceVersion,
        `resourceVersion: the dry run's (${JSON.stringify(dryVersion)}) must be absent or differ from the real create's (${JSON.stringify(real.json?.metadata?.resourceVersion)})`,
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
      const dryName = String(dry.json?.metadata?.name ?? "");
      check(dryName.startsWith(prefix) && dryName.length > prefix.length, `a dry-run create with generateName ${prefix} should get a generated name starting with it, got ${JSON.stringify(dryName)}`);
      checkAbsent(await context.client.get(`${configMaps(context)}/${dryName}`), `GET ${dryName} (the dry run's generated name)`);
      await sleep(NEXT_SECOND_MS);
      const real = await context.client.post(configMaps(context), body);
      checkOneOf(real.status, CREATED, `the real create with generateName: status (${message(real)})`);
      const differing = ["name", "uid", "creationTimestamp"].filter((field) => real.json?.metadata?.[field] === dry.json?.metadata?.[field]);
      check(
        differing.length === 0,
        `generated values must differ between the dry run and the real create; the same: ${differing.map((field) => `${field}=${JSON.stringify(real.json.metadata[field])}`).join(", ")}`,
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
      const put = await context.client.put(`${path}?dryRun=All`, { ...created.object, data: { k1: "put" } });
      checkEqual(put.status, 200, `PUT ?dryRun=All: status (${message(put)})`);
      checkEqual(put.json?.data, { k1: "put" }, "data of the dry-run PUT's answer (the object that would be persisted)");
      const afterPut = await context.client.get(path);
      checkEqual([afterPut.json?.data, afterPut.json?.metadata?.resourceVersion], [{ k1: "1" }, created.resourceVersion], "data and resourceVersion after the dry-run PUT");
      const patch = await context.client.request("PATCH", `${path}?dryRun=All`, { body: { data: { k2: "patched" } }, contentType: MERGE_PATCH });
      checkEqual(patch.status, 200, `PATCH ?dryRun=All: status (${message(patch)})`);
      checkEqual(patch.json?.data, { k1: "1", k2: "patched" }, "data of the dry-run merge patch's answer (merged with the stored object)");
      const afterPatch = await context.client.get(path);
      checkEqual([afterPatch.json?.data, afterPatch.json?.metadata?.resourceVersion], [{ k1: "1" }, created.resourceVersion], "data and resourceVersion after the dry-run PATCH");
      const real = await context.client.patch(path, { data: { k2: "real" } });
      checkEqual(real.status, 200, `the real PATCH: status (${message(real)})`);
      const realVersion = real.json?.metadata?.resourceVersion;
      for (const [what, dry] of [["PUT", put], ["PATCH", patch]] as const) {
        check(
          dry.json?.metadata?.resourceVersion !== realVersion,
          `resourceVersion of the dry-run ${what} (${JSON.stringify(dry.json?.metadata?.resourceVersion)}) must differ from the real write's (${JSON.stringify(realVersion)})`,
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
        (dry.json?.kind === "ConfigMap" && dry.json?.metadata?.name === plain) || (dry.json?.kind === "Status" && dry.json?.status === "Success"),
        `the dry-run DELETE should answer with the object or a Success Status, got ${dry.text.slice(0, 200)}`,
      );
      const still = await context.client.get(`${configMaps(context)}/${plain}`);
      checkEqual([still.status, still.json?.metadata?.resourceVersion], [200, created.resourceVersion], `GET ${plain} after the dry-run DELETE: status and resourceVersion`);
      // With a finalizer the delete only marks the object: the dry run shows the mark, and stores none.
      const held = objects.name("held");
      const path = `${configMaps(context)}/${held}`;
      await createObject(context, held, { k: "v" }, { finalizers: ["example.com/hold"] });
      try {
        const dryMark = await context.client.request("DELETE", `${path}?dryRun=All`);
        checkEqual(dryMark.status, 200, `DELETE ?dryRun=All of an object with a finalizer: status (${message(dryMark)})`);
        const dryTimestamp = dryMark.json?.metadata?.deletionTimestamp;
        check(typeof dryTimestamp === "string" && dryTimestamp !== "", `the dry-run DELETE of an object with a finalizer should show deletionTimestamp, got ${dryMark.text.slice(0, 300)}`);
        const unmarked = await context.client.get(path);
        checkEqual(unmarked.json?.metadata?.deletionTimestamp, undefined, `deletionTimestamp of ${held} after the dry-run DELETE (nothing persisted)`);
        await sleep(NEXT_SECOND_MS);
        const realMark = await context.client.delete(path);
        checkEqual(realMark.status, 200, `the real DELETE of ${held}: status (${message(realMark)})`);
        const realTimestamp = realMark.json?.metadata?.deletionTimestamp;
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
      if (after.status === 200) checkEqual(after.json?.metadata?.resourceVersion, created.resourceVersion, `resourceVersion of ${name} after the dry-run DELETE (nothing persisted)`);
    },
  },
  {
    name: "defaulting-and-admission-run",
    clauses: ["doc1/4.4/all/stages", "doc1/4.4/built-in-admission", "doc1/4.4/all/patch-default-validate", "doc1/4.4/all/returns-object", "doc1/4.4/no-side-effects"],
    tags: ["mutating"],
    async run(context) {
      const name = scope(context, "pod").name("p");
      const pod = {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name },
        spec: { automountServiceAccountToken: false, containers: [{ name: "c", image: "registry.example/app:1" }] },
      };
      const dry = await postPod(context, `${pods(context)}?dryRun=All`, pod);
      checkOneOf(dry.status, CREATED, `POST of a Pod ?dryRun=All: status (${message(dry)})`);
      const spec = dry.json?.spec ?? {};
      // The DefaultTolerationSeconds admission plugin and the Pod defaults (transcript pod-create).
      const { taints } = context.dialect;
      for (const key of [taints.notReady, taints.unreachable]) {
        const toleration = ((spec.tolerations ?? []) as any[]).find((t) => t?.key === key);
        checkEqual(
          toleration === undefined ? undefined : { operator: toleration.operator, effect: toleration.effect, tolerationSeconds: toleration.tolerationSeconds },
          { operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
          `the default toleration of ${key} added by admission in a dry run`,
        );
      }
      checkEqual([spec.restartPolicy, spec.dnsPolicy, spec.containers?.[0]?.imagePullPolicy], ["Always", "ClusterFirst", "IfNotPresent"], "defaulted restartPolicy, dnsPolicy and imagePullPolicy in a dry run");
      checkAbsent(await context.client.get(`${pods(context)}/${name}`), `GET pod ${name} after the dry-run create`);
    },
  },
  {
    name: "service-allocations-differ",
    clauses: ["doc1/2.7/generated/service-allocations", "doc1/4.4/all/stages", "doc1/4.4/no-side-effects"],
    tags: ["mutating"],
    async run(context) {
      const name = scope(context, "svc").name("s");
      const service = { apiVersion: "v1", kind: "Service", metadata: { name }, spec: { type: "NodePort", ports: [{ port: 80 }] } };
      const dry = await context.client.post(`${services(context)}?dryRun=All`, service);
      checkOneOf(dry.status, CREATED, `POST of a NodePort Service ?dryRun=All: status (${message(dry)})`);
      const dryIp = dry.json?.spec?.clusterIP;
      check(typeof dryIp === "string" && dryIp !== "" && dryIp !== "None", `a dry-run Service create should show an assigned clusterIP, got ${JSON.stringify(dryIp)}`);
      check(nodePorts(dry.json).length === 1, `a dry-run NodePort Service create should show an assigned nodePort, got ${JSON.stringify(dry.json?.spec?.ports)}`);
      checkAbsent(await context.client.get(`${services(context)}/${name}`), `GET service ${name} after the dry-run create`);
      const real = await context.client.post(services(context), service);
      checkOneOf(real.status, CREATED, `the real create of the Service: status (${message(real)})`);
      // Doc 1 §2.7: "ports or IP addresses assigned to Service objects" differ. Allocators that draw
      // at random may repeat one value by chance, so the assignment as a whole must differ.
      const dryAssigned = [dryIp, ...nodePorts(dry.json)];
      const realAssigned = [real.json?.spec?.clusterIP, ...nodePorts(real.json)];
      check(
        JSON.stringify(dryAssigned) !== JSON.stringify(realAssigned),
        `the cluster IP and node port of the dry run and of the real create must differ, both are ${JSON.stringify(realAssigned)}`,
      );
    },
  },
  {
    name: "validation-runs",
    clauses: ["doc1/4.4/all/patch-default-validate", "doc1/4.4/all/stages", "doc1/4.4/no-side-effects"],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "val");
      const badName = `${objects.prefix.toUpperCase()}_NOT_A_NAME`;
      checkInvalid(
        await context.client.post(`${configMaps(context)}?dryRun=All`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: badName } }),
        `POST ?dryRun=All of a ConfigMap named ${badName}`,
      );
      const noPorts = objects.name("noports");
      checkInvalid(
        await context.client.post(`${services(context)}?dryRun=All`, { apiVersion: "v1", kind: "Service", metadata: { name: noPorts }, spec: { type: "ClusterIP" } }),
        "POST ?dryRun=All of a ClusterIP Service without ports",
      );
      const name = objects.name("svc");
      const path = `${services(context)}/${name}`;
      const created = await context.client.post(services(context), { apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }] } });
      checkOneOf(created.status, CREATED, `setup: creating Service ${name} (${message(created)})`);
      // Schema validation of the merged object: removing every port is invalid.
      checkInvalid(
        await context.client.request("PATCH", `${path}?dryRun=All`, { body: { spec: { ports: null } }, contentType: MERGE_PATCH }),
        "PATCH ?dryRun=All removing a Service's ports",
      );
      // Defaulting of the merged object: a NodePort type gets a node port.
      const toNodePort = await context.client.request("PATCH", `${path}?dryRun=All`, { body: { spec: { type: "NodePort" } }, contentType: MERGE_PATCH });
      checkEqual(toNodePort.status, 200, `PATCH ?dryRun=All to type NodePort: status (${message(toNodePort)})`);
      check(nodePorts(toNodePort.json).length === 1, `a dry-run patch to type NodePort should show an assigned nodePort, got ${JSON.stringify(toNodePort.json?.spec?.ports)}`);
      const after = await context.client.get(path);
      checkEqual(
        [after.json?.spec?.type, nodePorts(after.json), after.json?.metadata?.resourceVersion],
        ["ClusterIP", [], created.json?.metadata?.resourceVersion],
        `type, node ports and resourceVersion of ${name} after the dry-run patches`,
      );
    },
  },
  {
    name: "bare-dry-run",
    clauses: ["doc1/4.4/bare/accepted", "doc1/4.2/dry-run/values", "doc1/4.4/no-side-effects"],
    tags: ["mutating"],
    async run(context) {
      const name = scope(context, "bare").name("a");
      const response = await context.client.post(`${configMaps(context)}?dryRun`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } });
      // Deviation bare-dry-run, strict (dialect-answers.ts): doc 1 §4.4.4 accepts it, so an orb
      // target must; Kubernetes answers 422 Invalid (transcript dryrun-bare), so a kubernetes target must.
      checkAnswerForm(context.dialect, "bare-dry-run", response.status === 422 ? "invalid" : "accept", `POST ?dryRun (bare) answered ${response.status} (${message(response)})`);
      if (response.status === 422) {
        checkInvalid(response, "POST ?dryRun (bare)");
      } else {
        checkOneOf(response.status, CREATED, `POST ?dryRun (bare): status, expected a dry-run answer (${message(response)})`);
        checkEqual([response.json?.kind, response.json?.metadata?.name], ["ConfigMap", name], "kind and name of the bare dry-run's answer (the object that would be persisted)");
      }
      checkAbsent(await context.client.get(`${configMaps(context)}/${name}`), `GET ${name} after the bare dry run`);
    },
  },
  {
    name: "other-values-invalid",
    clauses: ["doc1/4.2/dry-run/other-values", "doc1/4.2/dry-run/values"],
    tags: ["mutating"],
    async run(context) {
      const objects = scope(context, "bogus");
      const name = objects.name("a");
      const path = `${configMaps(context)}/${name}`;
      const created = await createObject(context, name, { k: "v" });
      const requests = [
        ["POST", `${configMaps(context)}?dryRun=Bogus`, { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: objects.name("b") } } }],
        ["PUT", `${path}?dryRun=Bogus`, { body: { ...created.object, data: { k: "put" } } }],
        ["PATCH", `${path}?dryRun=Bogus`, { body: { data: { k: "patch" } }, contentType: MERGE_PATCH }],
        ["DELETE", `${path}?dryRun=Bogus`, {}],
      ] as const;
      for (const [method, target, options] of requests) checkInvalid(await context.client.request(method, target, options), `${method} ?dryRun=Bogus`);
      const after = await context.client.get(path);
      checkEqual([after.status, after.json?.metadata?.resourceVersion], [200, created.resourceVersion], `${name} after the refused requests: status and resourceVersion`);
      checkAbsent(await context.client.get(`${configMaps(context)}/${objects.name("b")}`), "GET of the object of the refused POST");
    },
  },
  {
    name: "authorization-as-for-the-real-request",
    clauses: ["doc1/4.4/authorization", "doc1/5/dry-run-authorization"],
    tags: ["mutating", "needs-second-identity"],
    async run(context) {
      const restricted = context.restricted ?? context.skip("needs a second identity");
      const objects = scope(context, "authz");
      const body = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } });
      const dry = await restricted.post(`${configMaps(context)}?dryRun=All`, body(objects.name("a")));
      const real = await restricted.post(configMaps(context), body(objects.name("b")));
      checkEqual(dry.status === 403, real.status === 403, `a create refused (403) as a dry run and as the real request alike: dry run ${dry.status}, real ${real.status}`);
      const target = await createObject(context, objects.name("c"), { k: "v" });
      const path = `${configMaps(context)}/${target.name}`;
      const dryPatch = await restricted.request("PATCH", `${path}?dryRun=All`, { body: { data: { k: "dry" } }, contentType: MERGE_PATCH });
      const realPatch = await restricted.request("PATCH", path, { body: { data: { k: "real" } }, contentType: MERGE_PATCH });
      checkEqual(dryPatch.status === 403, realPatch.status === 403, `a patch refused (403) as a dry run and as the real request alike: dry run ${dryPatch.status}, real ${realPatch.status}`);
    },
  },
]);
