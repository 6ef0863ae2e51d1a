/**
 * What a dry run runs (doc 1 §4.4, §2.7, §4.2 dryRun): every stage but storage — defaulting,
 * admission, allocation, validation, authorization as for the real request — and the values of
 * the dryRun parameter: bare, and others than All.
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual, checkOneOf } from "../check.ts";
import type { ApiResponse } from "../client/conformance-client.ts";
import { fieldAt, recordOf } from "../client/json-fields.ts";
import { configMaps } from "./support/config-maps.ts";
import { CREATED } from "./support/creates.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { arrayOrEmpty, expectRecord } from "./support/json-guards.ts";
import { MERGE_PATCH } from "./support/media-types.ts";
import { metadataOf } from "./support/object-body.ts";
import { checkAbsent } from "./support/object-reads.ts";
import { createObject, scope } from "./support/scoped-objects.ts";
import { awaitDefaultServiceAccount } from "./support/service-account-wait.ts";
import { message } from "./support/status-answers.ts";

function services(context: CaseContext): string {
  return `/api/v1/namespaces/${context.namespace}/services`;
}

function pods(context: CaseContext): string {
  return `/api/v1/namespaces/${context.namespace}/pods`;
}

/** Fails unless `response` is a 422 Invalid Status. */
function checkInvalid(response: ApiResponse, what: string): void {
  check(response.status === 422 && recordOf(response.json).reason === "Invalid", `${what}: expected 422 Invalid, got ${response.status}: ${message(response)}`);
}

/**
 * A Pod create, retried while a real cluster has not yet made the new namespace's default
 * ServiceAccount (its admission plugin refuses pods until then; the embedded server, with
 * defaultServiceAccounts on, makes it at once).
 */
async function postPod(context: CaseContext, path: string, pod: unknown): Promise<ApiResponse> {
  await awaitDefaultServiceAccount(context);
  return context.client.post(path, pod);
}

function nodePorts(service: unknown): number[] {
  return arrayOrEmpty(fieldAt(service, "spec", "ports"), "spec.ports of the Service")
    .map((port, index) => expectRecord(port, `spec.ports[${index}] of the Service`).nodePort)
    .filter((port): port is number => typeof port === "number");
}

export const dryRunStagesAndValuesCases = defineCases("dry-run", [
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
      const spec = recordOf(recordOf(dry.json).spec);
      // The DefaultTolerationSeconds admission plugin and the Pod defaults (transcript pod-create).
      const { taints } = context.dialect;
      for (const key of [taints.notReady, taints.unreachable]) {
        const toleration = arrayOrEmpty(spec.tolerations, "spec.tolerations of the dry-run Pod").find((t) => recordOf(t).key === key);
        const { operator, effect, tolerationSeconds } = recordOf(toleration);
        checkEqual(
          toleration === undefined ? undefined : { operator, effect, tolerationSeconds },
          { operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
          `the default toleration of ${key} added by admission in a dry run`,
        );
      }
      checkEqual([spec.restartPolicy, spec.dnsPolicy, fieldAt(spec.containers, 0, "imagePullPolicy")], ["Always", "ClusterFirst", "IfNotPresent"], "defaulted restartPolicy, dnsPolicy and imagePullPolicy in a dry run");
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
      const dryIp = fieldAt(dry.json, "spec", "clusterIP");
      check(typeof dryIp === "string" && dryIp !== "" && dryIp !== "None", `a dry-run Service create should show an assigned clusterIP, got ${JSON.stringify(dryIp)}`);
      check(nodePorts(dry.json).length === 1, `a dry-run NodePort Service create should show an assigned nodePort, got ${JSON.stringify(fieldAt(dry.json, "spec", "ports"))}`);
      checkAbsent(await context.client.get(`${services(context)}/${name}`), `GET service ${name} after the dry-run create`);
      const real = await context.client.post(services(context), service);
      checkOneOf(real.status, CREATED, `the real create of the Service: status (${message(real)})`);
      // Doc 1 §2.7: "ports or IP addresses assigned to Service objects" differ. Allocators that draw
      // at random may repeat one value by chance, so the assignment as a whole must differ.
      const dryAssigned = [dryIp, ...nodePorts(dry.json)];
      const realAssigned = [fieldAt(real.json, "spec", "clusterIP"), ...nodePorts(real.json)];
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
      check(nodePorts(toNodePort.json).length === 1, `a dry-run patch to type NodePort should show an assigned nodePort, got ${JSON.stringify(fieldAt(toNodePort.json, "spec", "ports"))}`);
      const after = await context.client.get(path);
      checkEqual(
        [fieldAt(after.json, "spec", "type"), nodePorts(after.json), metadataOf(after.json).resourceVersion],
        ["ClusterIP", [], metadataOf(created.json).resourceVersion],
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
        checkEqual([recordOf(response.json).kind, metadataOf(response.json).name], ["ConfigMap", name], "kind and name of the bare dry-run's answer (the object that would be persisted)");
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
        ["PUT", `${path}?dryRun=Bogus`, { body: { ...recordOf(created.object), data: { k: "put" } } }],
        ["PATCH", `${path}?dryRun=Bogus`, { body: { data: { k: "patch" } }, contentType: MERGE_PATCH }],
        ["DELETE", `${path}?dryRun=Bogus`, {}],
      ] as const;
      for (const [method, target, options] of requests) checkInvalid(await context.client.request(method, target, options), `${method} ?dryRun=Bogus`);
      const after = await context.client.get(path);
      checkEqual([after.status, metadataOf(after.json).resourceVersion], [200, created.resourceVersion], `${name} after the refused requests: status and resourceVersion`);
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
