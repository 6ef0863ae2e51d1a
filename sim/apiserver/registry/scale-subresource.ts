/**
 * The scale subresource (Kubernetes' ScaleREST of deployments, replicasets, statefulsets and
 * replicationcontrollers): an autoscaling/v1 Scale read from
 * its parent object, and a Scale written back into it. Kubernetes 1.26 (pkg/registry/apps/deployment/
 * storage/storage.go, scaleFromDeployment and scaleUpdatedObjectInfo), recorded from kube-apiserver
 * 1.26.4 in transcripts-scale-and-reviews.jsonl:
 *
 * - the Scale's metadata is the parent's name, namespace, uid, resourceVersion and
 *   creationTimestamp, nothing else (no labels, annotations, generation); `spec.replicas` is the
 *   parent's, omitted when 0 (`omitempty`); `status.replicas` the parent's status.replicas (0 when
 *   unset, always written); `status.selector` the parent's label selector as a selector string
 *   (`app=multi,canary,env in (dev,prod),!legacy`, transcript scale-get-selector); a
 *   ReplicationController's selector is a plain map, written as labels.SelectorFromSet writes it
 *   (`app=b,tier=web`: scaleFromRC in pkg/registry/core/replicationcontroller/storage);
 * - a write takes only `spec.replicas` from the Scale (0 when the Scale has none, Go's zero value)
 *   and its resourceVersion as a precondition; labels, annotations and status in it are ignored
 *   (transcripts scale-patch-ignored-fields, scale-deployment-after-ignored). It is then an update
 *   of the parent like any other: its strategy (status kept, generation counted), admission, the
 *   precondition, dry run (registry/update.ts).
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { invalid, type ApiError } from "../responses/api-error.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { labelSelectorString } from "../table/printers.ts";

/** The subresource's name in paths and in `ResourceType.subresources`. */
export const SCALE_SUBRESOURCE = "scale";
/** The group, version and kind a scale subresource reads and writes, whatever its parent's group. */
export const SCALE_GROUP = "autoscaling";
export const SCALE_VERSION = "v1";
export const SCALE_KIND = "Scale";

/**
 * The type a scale request's body is decoded as and its answer rendered as: autoscaling/v1 Scale,
 * at the parent's path (so namespacing, the verbs and the name rule are the parent's). Nothing is
 * stored under it.
 */
export function scaleType(parent: ResourceType): ResourceType {
  return {
    group: SCALE_GROUP,
    version: SCALE_VERSION,
    resource: `${parent.resource}/${SCALE_SUBRESOURCE}`,
    singular: "",
    kind: SCALE_KIND,
    namespaced: parent.namespaced,
    verbs: parent.subresources[SCALE_SUBRESOURCE] ?? [],
    shortNames: [],
    nameRule: parent.nameRule,
    subresources: {},
  };
}

/** The Scale of a stored parent, as kube-apiserver answers it (transcript scale-get). */
export function scaleOf(parent: StoredObject, parentType: Pick<ResourceType, "kind" | "custom">): Record<string, unknown> {
  const { metadata } = parent;
  const spec = asRecord(parent["spec"]);
  const status = asRecord(parent["status"]);
  const paths = parentType.custom?.scale;
  // A custom resource's Scale reads the paths its definition names (recorded in apiextensions/recorded: cr-scale-get).
  const replicas = integerOr0(paths === undefined ? spec["replicas"] : valueAt(parent, paths.specReplicasPath));
  const statusReplicas = integerOr0(paths === undefined ? status["replicas"] : valueAt(parent, paths.statusReplicasPath));
  const customSelector = paths?.labelSelectorPath === undefined ? undefined : valueAt(parent, paths.labelSelectorPath);
  const selector =
    paths !== undefined
      ? typeof customSelector === "string" ? customSelector : ""
      : labelSelectorString(parentType.kind === "ReplicationController" ? { matchLabels: spec["selector"] } : spec["selector"]);
  return {
    kind: SCALE_KIND,
    apiVersion: `${SCALE_GROUP}/${SCALE_VERSION}`,
    metadata: {
      name: metadata.name,
      ...(metadata["namespace"] !== undefined && metadata["namespace"] !== "" && { namespace: metadata["namespace"] }),
      ...(metadata["uid"] !== undefined && { uid: metadata["uid"] }),
      ...(metadata.resourceVersion !== undefined && { resourceVersion: metadata.resourceVersion }),
      creationTimestamp: metadata["creationTimestamp"] ?? null,
    },
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: statusReplicas, ...(selector !== "" && { selector }) },
  };
}

/** The replicas a Scale asks for: its spec.replicas, or 0 when it has none (Go's zero value). */
export function requestedReplicas(scale: Readonly<Record<string, unknown>>): number {
  return integerOr0(asRecord(scale["spec"])["replicas"]);
}

/**
 * The parent as a Scale write leaves it: `current` with spec.replicas from `scale`, nothing else
 * of the Scale (its metadata and status are ignored, as Kubernetes ignores them).
 */
export function withScaleReplicas(type: Pick<ResourceType, "custom">, current: StoredObject, scale: Readonly<Record<string, unknown>>): StoredObject {
  const path = type.custom?.scale?.specReplicasPath;
  if (path !== undefined) return withValueAt(current, path, requestedReplicas(scale));
  return { ...current, spec: { ...asRecord(current["spec"]), replicas: requestedReplicas(scale) } };
}

/** The value at a definition's JSON path (`.spec.replicas`: fields only, as Kubernetes allows there). */
function valueAt(object: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = object;
  for (const field of path.split(".").slice(1)) value = asRecord(value)[field];
  return value;
}

/** `object` with `value` at the JSON path `path`, the objects on the way made where missing. */
function withValueAt(object: StoredObject, path: string, value: unknown): StoredObject {
  const fields = path.split(".").slice(1);
  const set = (at: Record<string, unknown>, index: number): Record<string, unknown> =>
    index === fields.length - 1 ? { ...at, [fields[index]!]: value } : { ...at, [fields[index]!]: set(asRecord(at[fields[index]!]), index + 1) };
  return set(object, 0) as StoredObject;
}

/**
 * autoscaling's ValidateScale: replicas may not be negative (422 on `Scale.autoscaling "<name>"`,
 * transcripts scale-put-negative, scale-patch-negative). Undefined when the Scale is valid.
 */
export function scaleValidationError(name: string, scale: Readonly<Record<string, unknown>>): ApiError | undefined {
  const replicas = requestedReplicas(scale);
  if (replicas >= 0) return undefined;
  const message = `Invalid value: ${replicas}: must be greater than or equal to 0`;
  return invalid(SCALE_KIND, name, [{ reason: "FieldValueInvalid", message, field: "spec.replicas" }], SCALE_GROUP);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function integerOr0(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) ? value : 0;
}
