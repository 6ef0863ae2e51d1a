/**
 * The user names and groups Kubernetes gives service accounts (k8s.io/apiserver
 * pkg/authentication/serviceaccount): `system:serviceaccount:<namespace>:<name>`, in the groups
 * `system:serviceaccounts` and `system:serviceaccounts:<namespace>`.
 */
import { validateName } from "../validation/object-names.ts";

/** The prefix of every service account's user name. */
export const SERVICE_ACCOUNT_USERNAME_PREFIX = "system:serviceaccount:";
/** The group of every service account. */
export const ALL_SERVICE_ACCOUNTS_GROUP = "system:serviceaccounts";
/** The prefix of the group of the service accounts of one namespace. */
export const SERVICE_ACCOUNT_GROUP_PREFIX = "system:serviceaccounts:";

/** A service account, by namespace and name. */
export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The service account a user name denotes, or undefined when it denotes none (Kubernetes'
 * SplitUsername): exactly two parts after the prefix, the namespace a DNS label and the name a
 * DNS subdomain. Anything else is a plain user name, e.g. `system:serviceaccount:Team:robot`
 * (recorded from kube-apiserver 1.26: impersonating it is checked as `users`, not `serviceaccounts`).
 */
export function splitServiceAccountUsername(username: string): ServiceAccountRef | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(":");
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (validateName("label", namespace).length > 0 || validateName("subdomain", name).length > 0) return undefined;
  return { namespace, name };
}

/** The groups of a service account of `namespace` (Kubernetes' MakeGroupNames). */
export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${namespace}`];
}
