/**
 * A second identity without a second credential (issue #13): when the user gave none and the main
 * identity may impersonate, the suite makes a ServiceAccount in the case's own namespace, gives it
 * a Role with the rights of the embedded target's restricted identity (read ConfigMaps; patch
 * Deployments, doc 1 §5.2's example rule) and a RoleBinding, and acts as it through Kubernetes'
 * impersonation header. Everything it makes lives in the case's namespace and goes with it.
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { ConformanceClient } from "./conformance-client.ts";
import { fieldAt } from "./json-fields.ts";

/** The ServiceAccount the suite acts as. */
export const RESTRICTED_SERVICE_ACCOUNT = "orb-conformance-restricted";

/** The headers that make a request the ServiceAccount's, or why there can be none. */
export type ImpersonatedIdentity = { readonly headers: Readonly<Record<string, string>> } | { readonly unavailable: string };

/** Provisions the restricted ServiceAccount in `namespace` with `admin`, which must be allowed to impersonate it. */
export async function provisionImpersonatedIdentity(admin: ConformanceClient, namespace: string, dialect: Dialect): Promise<ImpersonatedIdentity> {
  const review = await admin.post(`/apis/${dialect.groups.authorization}/v1/selfsubjectaccessreviews`, {
    apiVersion: `${dialect.groups.authorization}/v1`,
    kind: "SelfSubjectAccessReview",
    spec: { resourceAttributes: { namespace, verb: "impersonate", resource: "serviceaccounts", name: RESTRICTED_SERVICE_ACCOUNT } },
  });
  if (review.status >= 300) return { unavailable: `the server does not answer a SelfSubjectAccessReview (HTTP ${review.status})` };
  if (fieldAt(review.json, "status", "allowed") !== true) return { unavailable: `the main identity may not impersonate ServiceAccounts in ${namespace}` };
  const rbac = `/apis/${dialect.groups.rbac}/v1/namespaces/${namespace}`;
  const steps: Array<[string, string, unknown]> = [
    ["ServiceAccount", `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: RESTRICTED_SERVICE_ACCOUNT } }],
    [
      "Role",
      `${rbac}/roles`,
      {
        apiVersion: `${dialect.groups.rbac}/v1`,
        kind: "Role",
        metadata: { name: RESTRICTED_SERVICE_ACCOUNT },
        rules: [
          { apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch"] },
          { apiGroups: ["apps"], resources: ["deployments"], verbs: ["patch"] },
        ],
      },
    ],
    [
      "RoleBinding",
      `${rbac}/rolebindings`,
      {
        apiVersion: `${dialect.groups.rbac}/v1`,
        kind: "RoleBinding",
        metadata: { name: RESTRICTED_SERVICE_ACCOUNT },
        roleRef: { apiGroup: dialect.groups.rbac, kind: "Role", name: RESTRICTED_SERVICE_ACCOUNT },
        subjects: [{ kind: "ServiceAccount", name: RESTRICTED_SERVICE_ACCOUNT, namespace }],
      },
    ],
  ];
  for (const [kind, path, body] of steps) {
    const created = await admin.post(path, body);
    // 409: the controller manager or an earlier step made it already; nothing else will do.
    if (created.status >= 300 && created.status !== 409) return { unavailable: `creating the restricted identity's ${kind} answered HTTP ${created.status}` };
  }
  return { headers: { "impersonate-user": `system:serviceaccount:${namespace}:${RESTRICTED_SERVICE_ACCOUNT}` } };
}
