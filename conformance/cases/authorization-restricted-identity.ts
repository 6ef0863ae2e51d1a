/**
 * Authorization (doc 1 §5, §4.4.6) and the permission check (doc 1 §1, §4.1), as the second,
 * restricted identity: a request the authorizer denies is a 403 Forbidden Status, as its dry run
 * is; an allowed one is served; a SubjectAccessReview answers what the authorizer really does.
 *
 * The cases that act as the second, restricted identity need it (`needs-second-identity`). Its
 * rights on a real cluster are unknown, so the cases find out by trying: a request it is denied
 * (any 403) or allowed (anything else: authorization runs before the request is handled), and
 * they skip, saying why, when the identity's rights give nothing to compare. The embedded target's
 * restricted identity reads ConfigMaps and patches Deployments, nothing else
 * (conformance/targets/embedded-target.ts).
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual, checkOneOf } from "../check.ts";
import type { ApiResponse, ConformanceClient } from "../client/conformance-client.ts";
import { fieldAt, recordOf } from "../client/json-fields.ts";
import { configMap, configMaps } from "./support/config-maps.ts";
import { create } from "./support/creates.ts";
import { deploymentBody } from "./support/deployments.ts";
import { itemNames } from "./support/list-body.ts";
import { metadataOf } from "./support/object-body.ts";
import { checkAuthenticated, restrictedClient } from "./support/restricted-identity.ts";
import { brief, checkFailure } from "./support/status-answers.ts";

/** Deviation create-status: a create answers 201 (Kubernetes) or 200. */
const CREATED = [200, 201];

const MERGE_PATCH = "application/merge-patch+json";

/** The group every signed-in user is in (Kubernetes adds it; the embedded server too). */
const AUTHENTICATED_GROUP = "system:authenticated";

/** What a SubjectAccessReview asks about one request (Kubernetes' resourceAttributes / nonResourceAttributes). */
type ReviewAttributes =
  | { readonly resourceAttributes: { namespace?: string; verb: string; group?: string; resource: string; name?: string } }
  | { readonly nonResourceAttributes: { path: string; verb: string } };

/** One request to try as an identity, and how a permission check describes it. */
interface Action {
  /** For messages: `create configmaps in <ns> (dry run)`. */
  readonly what: string;
  readonly verb: string;
  /** The resource, or the path of a non-resource request: what a 403 message names. */
  readonly resource: string;
  readonly attributes: ReviewAttributes;
  send(client: ConformanceClient): Promise<ApiResponse>;
}

/** The user a 403 message names (`User "<name>" cannot …`, transcript forbidden), if any. */
function userOf(response: ApiResponse): string | undefined {
  const message = recordOf(response.json).message;
  return typeof message === "string" ? /User "((?:[^"\\]|\\.)*)"/.exec(message)?.[1] : undefined;
}

/**
 * Checks a denial (gap doc1/5/forbidden, transcripts forbidden and forbidden-dryrun): 403, a
 * Forbidden Status, whose message names the user, the verb and the resource. Returns the user.
 */
function checkForbidden(response: ApiResponse, action: Action, what: string): string {
  const status = checkFailure(response, 403, "Forbidden", what);
  const message = String(status.message ?? "");
  const user = userOf(response);
  check(user !== undefined && user !== "", `${what}: the Forbidden message should name the user (Kubernetes: User "<name>" cannot ${action.verb} …), got ${JSON.stringify(message)}`);
  check(
    message.includes(action.verb) && message.includes(action.resource),
    `${what}: the Forbidden message should name the verb ${JSON.stringify(action.verb)} and ${JSON.stringify(action.resource)}, got ${JSON.stringify(message)}`,
  );
  return user;
}

/** A create of `body(name)` in `collection` as a dry run or for real. */
function createAction(context: CaseContext, resource: string, group: string, collection: string, dryRun: boolean, body: () => Record<string, unknown>): Action {
  return {
    what: `create ${resource} in ${context.namespace}${dryRun ? " (dry run)" : ""}`,
    verb: "create",
    resource,
    attributes: { resourceAttributes: { namespace: context.namespace, verb: "create", ...(group !== "" && { group }), resource } },
    send: (client) => client.post(`${collection}${dryRun ? "?dryRun=All" : ""}`, body()),
  };
}

function secretBody(name: string): Record<string, unknown> {
  return { apiVersion: "v1", kind: "Secret", metadata: { name }, data: {} };
}

function deployments(context: CaseContext): string {
  return `/apis/apps/v1/namespaces/${context.namespace}/deployments`;
}

/** POSTs a SubjectAccessReview about `user` (in `groups`) by the main identity; checks the answer and returns its status.allowed. */
async function review(context: CaseContext, user: string, groups: readonly string[], attributes: ReviewAttributes, what: string): Promise<boolean> {
  const apiVersion = `${context.dialect.groups.authorization}/v1`;
  const response = await context.client.post(`/apis/${apiVersion}/subjectaccessreviews`, {
    apiVersion,
    kind: "SubjectAccessReview",
    spec: { user, groups, ...attributes },
  });
  if (response.status === 403) context.skip(`the main identity may not create SubjectAccessReviews (${brief(response)})`);
  // Transcript sar: 201 with the review, its status filled in (deviation create-status also allows 200).
  checkOneOf(response.status, CREATED, `status of a SubjectAccessReview about ${what} (${brief(response)})`);
  checkEqual([recordOf(response.json).kind, recordOf(response.json).apiVersion], ["SubjectAccessReview", apiVersion], `kind and apiVersion of the SubjectAccessReview answer about ${what}`);
  const allowed = fieldAt(response.json, "status", "allowed");
  check(typeof allowed === "boolean", `the SubjectAccessReview answer about ${what} has no boolean status.allowed: ${response.text.slice(0, 300)}`);
  checkEqual(fieldAt(response.json, "spec", "user"), user, `spec.user echoed in the SubjectAccessReview answer about ${what}`);
  return allowed;
}

/** Whether the identity behind `client` may do `attributes`, by its own SelfSubjectAccessReview; undefined when it cannot ask. */
async function selfReview(context: CaseContext, client: ConformanceClient, attributes: ReviewAttributes): Promise<boolean | undefined> {
  const apiVersion = `${context.dialect.groups.authorization}/v1`;
  const response = await client.post(`/apis/${apiVersion}/selfsubjectaccessreviews`, { apiVersion, kind: "SelfSubjectAccessReview", spec: attributes });
  const allowed = fieldAt(response.json, "status", "allowed");
  return CREATED.includes(response.status) && typeof allowed === "boolean" ? allowed : undefined;
}

export const authorizationRestrictedIdentityCases = defineCases("authorization", [
  {
    name: "denied-request-is-forbidden-also-as-dry-run",
    clauses: ["doc1/5/forbidden", "doc1/5/dry-run-authorization", "doc1/4.4/authorization"],
    tags: ["mutating", "needs-second-identity"],
    async run(context) {
      const restricted = restrictedClient(context);
      // Writes the restricted identity may well be denied, each as a dry run and for real; the
      // first it is denied is the one the case checks (the embedded target's: creating a ConfigMap).
      const candidates = [
        { resource: "configmaps", collection: configMaps(context), body: (name: string) => configMap(name, { k: "v" }) },
        { resource: "secrets", collection: `/api/v1/namespaces/${context.namespace}/secrets`, body: secretBody },
      ];
      const tried: string[] = [];
      for (const { resource, collection, body } of candidates) {
        const dryName = context.name("dry");
        const realName = context.name("real");
        const dryAction = createAction(context, resource, "", collection, true, () => body(dryName));
        const realAction = createAction(context, resource, "", collection, false, () => body(realName));
        const dry = await dryAction.send(restricted);
        const real = await realAction.send(restricted);
        checkAuthenticated(dry, `the restricted identity's ${dryAction.what}`);
        // Doc 1 §4.4.6, §5.1: the dry run needs exactly the authorization of the real request.
        checkEqual(
          dry.status === 403,
          real.status === 403,
          `refused (403) as a dry run and as the real request alike, ${realAction.what}: dry run ${dry.status} (${brief(dry)}), real ${real.status} (${brief(real)})`,
        );
        if (real.status !== 403) {
          tried.push(`${realAction.what}: ${real.status}`);
          continue;
        }
        const user = checkForbidden(real, realAction, `the restricted identity's ${realAction.what}`);
        checkEqual(checkForbidden(dry, dryAction, `the restricted identity's ${dryAction.what}`), user, `the user the dry run's Forbidden message names (as the real request's)`);
        const after = await context.client.get(`${collection}/${realName}`);
        checkEqual(after.status, 404, `GET ${resource}/${realName} after the refused create (nothing may be stored; ${brief(after)})`);
        // The very same requests by the main identity, which may make them: the dry run is served.
        const allowedDry = await dryAction.send(context.client);
        checkOneOf(allowedDry.status, CREATED, `the main identity's ${dryAction.what}: status, a create's (${brief(allowedDry)})`);
        checkEqual(metadataOf(allowedDry.json).name, dryName, `metadata.name of the main identity's dry-run answer`);
        const notStored = await context.client.get(`${collection}/${dryName}`);
        checkEqual(notStored.status, 404, `GET ${resource}/${dryName} after the main identity's dry run (${brief(notStored)})`);
        checkOneOf((await realAction.send(context.client)).status, CREATED, `the main identity's ${realAction.what}: status`);
        return;
      }
      context.skip(`the restricted identity was denied none of the writes tried (${tried.join("; ")}): nothing to compare`);
    },
  },
  {
    name: "allowed-read-is-served",
    clauses: ["doc1/5/rule/fields"],
    tags: ["mutating", "needs-second-identity"],
    async run(context) {
      const restricted = restrictedClient(context);
      const name = context.name("readable");
      await create(context, configMaps(context), configMap(name, { k: "v" }), `creating ConfigMap ${name}`);
      const got = await restricted.get(`${configMaps(context)}/${name}`);
      const listed = await restricted.get(configMaps(context));
      checkAuthenticated(got, "the restricted identity's GET of a ConfigMap");
      if (got.status === 403 && listed.status === 403) {
        context.skip(`the restricted identity may neither get nor list ConfigMaps in ${context.namespace} (${brief(got)}): no allowed read to check`);
      }
      // A rule allowing get or list of configmaps in the core group lets the read through, whole.
      if (got.status !== 403) {
        checkEqual(got.status, 200, `the restricted identity's GET of ConfigMap ${name}: status (${brief(got)})`);
        checkEqual([recordOf(got.json).kind, metadataOf(got.json).name, recordOf(got.json).data], ["ConfigMap", name, { k: "v" }], "kind, name and data of the ConfigMap read by the restricted identity");
      }
      if (listed.status !== 403) {
        checkEqual(listed.status, 200, `the restricted identity's list of ConfigMaps: status (${brief(listed)})`);
        check(itemNames(listed.json).includes(name), `the restricted identity's list of ConfigMaps in ${context.namespace} lacks ${name}: ${JSON.stringify(itemNames(listed.json))}`);
      }
    },
  },
  {
    name: "rule-example-patch-allows-dry-run-patch",
    clauses: ["doc1/5/rule/example", "doc1/5/dry-run-authorization", "doc1/4.4/authorization"],
    tags: ["mutating", "needs-second-identity"],
    async run(context) {
      const restricted = restrictedClient(context);
      const name = context.name("deploy");
      const path = `${deployments(context)}/${name}`;
      await create(context, deployments(context), deploymentBody(name, [{ name: "c", image: "registry.example/app:1" }]), `creating Deployment ${name}`);
      const patch = (label: string, dryRun: boolean) =>
        restricted.request("PATCH", `${path}${dryRun ? "?dryRun=All" : ""}`, { body: { metadata: { labels: { [label]: "yes" } } }, contentType: MERGE_PATCH });
      const dry = await patch("dry", true);
      checkAuthenticated(dry, "the restricted identity's dry-run PATCH of a Deployment");
      if (dry.status === 403) {
        const real = await patch("real", false);
        checkEqual(real.status, 403, `the restricted identity's real PATCH after its dry-run PATCH was refused (same authorization; ${brief(real)})`);
        context.skip(
          `the restricted identity may not patch Deployments in ${context.namespace} (${brief(dry)}): doc 1 §5.2's example needs a rule with apiGroups apps, resources deployments, verbs patch (the embedded target has one)`,
        );
      }
      // Doc 1 §5.2: a rule allowing patch of deployments in apps allows the dry-run patch too.
      checkEqual(dry.status, 200, `the restricted identity's PATCH ?dryRun=All of Deployment ${name}: status (${brief(dry)})`);
      checkEqual(fieldAt(dry.json, "metadata", "labels", "dry"), "yes", "the label of the dry-run patch in its answer (the object that would be persisted)");
      const afterDry = await context.client.get(path);
      checkEqual(fieldAt(afterDry.json, "metadata", "labels", "dry"), undefined, `the label of the dry-run patch on the stored Deployment (nothing persisted)`);
      const real = await patch("real", false);
      checkEqual(real.status, 200, `the restricted identity's real PATCH of Deployment ${name}: status (${brief(real)})`);
      const afterReal = await context.client.get(path);
      checkEqual(fieldAt(afterReal.json, "metadata", "labels", "real"), "yes", "the label of the real patch on the stored Deployment");
    },
  },
  {
    name: "subject-access-review-answers-as-requests-are-served",
    clauses: ["doc1/1/virtual-type/subjectaccessreview", "doc1/4.1/subjectaccessreviews", "doc1/5/rule/fields"],
    tags: ["mutating", "needs-second-identity"],
    async run(context) {
      const restricted = restrictedClient(context);
      const namespace = context.namespace;
      const configMapName = context.name("cm");
      await create(context, configMaps(context), configMap(configMapName, { k: "v" }), `creating ConfigMap ${configMapName}`);
      const deploymentName = context.name("deploy");
      const deployment = await create(context, deployments(context), deploymentBody(deploymentName, [{ name: "c", image: "registry.example/app:1" }]), `creating Deployment ${deploymentName}`);
      const deploymentPath = `${deployments(context)}/${deploymentName}`;
      const core = (verb: string, resource: string, name?: string) => ({ resourceAttributes: { namespace, verb, resource, ...(name !== undefined && { name }) } });
      const apps = (verb: string, name: string) => ({ resourceAttributes: { namespace, verb, group: "apps", resource: "deployments", name } });
      // Requests that differ in verb, resource and group: each tried as the restricted identity (writes as dry runs).
      const actions: Action[] = [
        { what: `get configmaps/${configMapName}`, verb: "get", resource: "configmaps", attributes: core("get", "configmaps", configMapName), send: (c) => c.get(`${configMaps(context)}/${configMapName}`) },
        { what: "list configmaps", verb: "list", resource: "configmaps", attributes: core("list", "configmaps"), send: (c) => c.get(configMaps(context)) },
        createAction(context, "configmaps", "", configMaps(context), true, () => configMap(context.name("dry"), { k: "v" })),
        { what: "list secrets", verb: "list", resource: "secrets", attributes: core("list", "secrets"), send: (c) => c.get(`/api/v1/namespaces/${namespace}/secrets`) },
        {
          what: `patch deployments/${deploymentName} (dry run)`,
          verb: "patch",
          resource: "deployments",
          attributes: apps("patch", deploymentName),
          send: (c) => c.request("PATCH", `${deploymentPath}?dryRun=All`, { body: { metadata: { labels: { dry: "yes" } } }, contentType: MERGE_PATCH }),
        },
        {
          what: `update deployments/${deploymentName} (dry run)`,
          verb: "update",
          resource: "deployments",
          attributes: apps("update", deploymentName),
          send: (c) => c.put(`${deploymentPath}?dryRun=All`, { ...deployment, metadata: { ...deployment.metadata, labels: { dry: "yes" } } }),
        },
        // Every signed-in user may read discovery (Kubernetes' system:discovery; the embedded server's built-in rule).
        { what: "GET /api", verb: "get", resource: "/api", attributes: { nonResourceAttributes: { path: "/api", verb: "get" } }, send: (c) => c.get("/api") },
      ];
      const outcomes: Array<{ action: Action; response: ApiResponse }> = [];
      for (const action of actions) {
        const response = await action.send(restricted);
        checkAuthenticated(response, `the restricted identity's ${action.what}`);
        outcomes.push({ action, response });
      }
      const deniedOne =
        outcomes.find(({ response }) => response.status === 403) ??
        context.skip(`the restricted identity was denied none of ${actions.map((a) => a.what).join(", ")}: its user name (read from a 403) and a denied action are needed`);
      // The user the server itself names in a 403; the review gives every signed-in user's group.
      const user = checkForbidden(deniedOne.response, deniedOne.action, `the restricted identity's ${deniedOne.action.what}`);
      const groups = [AUTHENTICATED_GROUP];
      const mismatches: string[] = [];
      if (outcomes.every(({ response }) => response.status === 403)) {
        context.skip(`the restricted identity was denied every request tried, even GET /api (discovery): no allowed action to compare`);
      }
      for (const { action, response } of outcomes) {
        const allowed = response.status !== 403;
        const reviewAllows = await review(context, user, groups, action.attributes, `${user} and ${action.what}`);
        if (reviewAllows === allowed) continue;
        if (allowed && !reviewAllows && (await selfReview(context, restricted, action.attributes)) === true) {
          // The identity holds this right through a group other than system:authenticated, which a
          // review can only name when it knows the group (a real cluster's groups are not ours to know).
          continue;
        }
        mismatches.push(`${action.what}: the request answered ${response.status} (${allowed ? "allowed" : "denied"}) but the review says allowed=${reviewAllows}`);
      }
      check(mismatches.length === 0, `SubjectAccessReviews about ${user} must answer as the server serves that user's requests (doc 1 §4.1): ${mismatches.join("; ")}`);
      // A virtual type (doc 1 §1): an operation, not an object; there is no collection to read.
      const listed = await context.client.get(`/apis/${context.dialect.groups.authorization}/v1/subjectaccessreviews`);
      checkOneOf(listed.status, [404, 405], `status of GET on subjectaccessreviews (a virtual type stores nothing to list; Kubernetes: 405; ${brief(listed)})`);
    },
  },
]);
