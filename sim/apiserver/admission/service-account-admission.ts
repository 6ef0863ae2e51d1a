/**
 * Kubernetes' ServiceAccount admission plugin, its lookup only: a new Pod is refused (403, in a dry
 * run too) unless the ServiceAccount it names exists in its namespace, as recorded on
 * kube-apiserver 1.26.4 (recorded/pod-service-account.kube-1.26.json). On only with
 * ApiServerOptions.defaultServiceAccounts, which also runs the controller that makes `default`
 * (controllers/service-account-controller.ts); without it no Pod could ever be created.
 *
 * Naming `default` when the Pod names none is pod-defaults.ts's work. The plugin's other half,
 * the projected `kube-api-access-*` token volume and its mounts, is left out on purpose: the
 * embedded server issues no ServiceAccount tokens (serviceaccounts/token is not served), so the
 * volume would promise a credential nothing can read. The conformance cases' Pods set
 * automountServiceAccountToken: false, as the reference transcript pod-create does, so no case sees it.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { failure } from "../responses/api-error.ts";
import type { RegistryContext } from "../registry/registry-context.ts";
import { storageKey } from "../registry/stored-resource.ts";

/** The annotation of a Pod the node agent mirrors from a static manifest (Kubernetes' MirrorPodAnnotationKey). */
const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

/** Throws 403 Forbidden when the defaulted Pod `pod` names a ServiceAccount its namespace lacks. */
export function checkPodServiceAccount(context: Pick<RegistryContext, "registry" | "store">, pod: StoredObject): void {
  const annotations = (pod.metadata["annotations"] ?? {}) as Record<string, unknown>;
  // Mirror pods have rules of their own in the plugin (no ServiceAccount at all), not modelled here.
  if (annotations[MIRROR_POD_ANNOTATION] !== undefined) return;
  const spec = (pod["spec"] ?? {}) as Record<string, unknown>;
  const name = String(spec["serviceAccountName"] ?? "default");
  const namespace = pod.metadata.namespace ?? "";
  const type = context.registry.find("", "v1", "serviceaccounts")!;
  if (context.store.get(storageKey(type, namespace, name)) !== undefined) return;
  // The real message names the Pod as the request did: with generateName, the prefix (the name is
  // made later there); here the name is made before admission, so the generated name shows.
  throw failure("Forbidden", `pods "${pod.metadata.name}" is forbidden: error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`, {
    name: pod.metadata.name,
    kind: "pods",
  });
}
