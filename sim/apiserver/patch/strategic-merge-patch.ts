/**
 * Strategic merge patch, the body of a PATCH with Content-Type `application/strategic-merge-patch+json`
 * (the format `kubectl patch` sends by default and `kubectl apply` computes), for the built-in kinds
 * the server serves. Kubernetes behaviour, not shown in doc 1: this follows the server-side apply
 * path of k8s.io/apimachinery 1.26, pkg/util/strategicpatch/patch.go (`StrategicMergeMapPatch`:
 * `mergeMap` with MergeParallelList and IgnoreUnmatchedNulls), step by step where it is
 * well-defined, and the apiserver's PATCH handler (staging/src/k8s.io/apiserver/pkg/endpoints/
 * handlers/patch.go) for how its errors are answered.
 *
 * - Maps merge member by member; `null` deletes a member (as in RFC 7386).
 * - A list whose field has patch strategy "merge" merges: lists of objects by the field's merge
 *   key (an item whose key matches an existing one merges into it, recursively; a new one is
 *   added), lists of scalars as a set. Any other list is replaced whole.
 * - Order of a merged list (no `$setElementOrder`): items named in the patch take the patch's
 *   order; items only on the server keep theirs and are interleaved before the first patch item
 *   that comes later on the server (`normalizeElementOrder`/`mergeSortedSlice`). A NEW item
 *   therefore lands BEFORE the server's items: adding container "patch-demo-ctr-2" to
 *   ["patch-demo-ctr"] gives ["patch-demo-ctr-2", "patch-demo-ctr"], as the Kubernetes task page
 *   "Update API Objects in Place Using kubectl patch" shows, and adding finalizer "c" to ["a", "b"]
 *   gives ["c", "a", "b"]. `kubectl apply` sends `$setElementOrder/<list>` to get its own order.
 * - Directives: `$patch: replace` (a map, or a list through an item carrying it), `$patch: delete`
 *   (a map, or the list items whose merge key matches), `$deleteFromPrimitiveList/<list>`,
 *   `$setElementOrder/<list>`, `$retainKeys`. `$patch: merge` is refused, as Kubernetes refuses it
 *   ("merge" is a struct-tag strategy only: devel doc strategic-merge-patch.md).
 *
 * Patch strategies and merge keys (struct tags `patchStrategy`/`patchMergeKey` of
 * k8s.io/api v0.26.0 core/v1/types.go and apps/v1/types.go, k8s.io/apimachinery v0.26.0
 * pkg/apis/meta/v1/types.go; lists not named here have no strategy and are replaced):
 *
 * | type.field                                   | strategy          | merge key     |
 * | -------------------------------------------- | ----------------- | ------------- |
 * | ObjectMeta.finalizers ([]string)             | merge             | (set)         |
 * | ObjectMeta.ownerReferences                   | merge             | uid           |
 * | PodSpec.volumes                              | merge,retainKeys  | name          |
 * | PodSpec.initContainers, containers           | merge             | name          |
 * | PodSpec.ephemeralContainers                  | merge             | name          |
 * | PodSpec.imagePullSecrets                     | merge             | name          |
 * | PodSpec.hostAliases                          | merge             | ip            |
 * | PodSpec.topologySpreadConstraints            | merge             | topologyKey   |
 * | PodSpec.schedulingGates                      | merge             | name          |
 * | PodSpec.resourceClaims                       | merge,retainKeys  | name          |
 * | PodSpec.tolerations, readinessGates          | (none: replaced)  |               |
 * | Container.ports (also ephemeral containers)  | merge             | containerPort |
 * | Container.env                                | merge             | name          |
 * | Container.volumeMounts                       | merge             | mountPath     |
 * | Container.volumeDevices                      | merge             | devicePath    |
 * | Container.envFrom, command, args             | (none: replaced)  |               |
 * | PodStatus.conditions                         | merge             | type          |
 * | PodStatus.podIPs                             | merge             | ip            |
 * | PodStatus.*containerStatuses                 | (none: replaced)  |               |
 * | ServiceSpec.ports                            | merge             | port          |
 * | ServiceStatus.conditions                     | merge             | type          |
 * | NodeSpec.podCIDRs ([]string)                 | merge             | (set)         |
 * | NodeSpec.taints                              | (none: replaced)  |               |
 * | NodeStatus.conditions, addresses             | merge             | type          |
 * | NamespaceSpec.finalizers                     | (none: replaced)  |               |
 * | NamespaceStatus.conditions                   | merge             | type          |
 * | DeploymentSpec.strategy (a map)              | retainKeys        |               |
 * | DeploymentStatus.conditions                  | merge             | type          |
 *
 * The recorded built-in types (routing/recorded-types.ts: ServiceAccount, RBAC, Job, ...) take theirs from
 * the `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key` of their OpenAPI schemas as
 * recorded from kube-apiserver 1.26.4 (recorded-patch-strategies.ts).
 *
 * ConfigMap, Secret, Event (core/v1) and Lease (coordination/v1) have no tagged field beyond
 * ObjectMeta. Known quirks kept as Kubernetes has them: ServicePort and ContainerPort merge on the
 * port number alone, so ports differing only in protocol collapse (types.go cites
 * kubernetes/kubernetes#108255 for container ports); NodeStatus.addresses merge on `type`, which
 * its types.go comment calls "not sufficiently unique" (pr.k8s.io/79391). A `retainKeys` strategy
 * changes nothing when applying a patch (only `kubectl`'s diff uses it): a `$retainKeys` directive
 * is honoured in any map, as in `applyRetainKeysDirective`.
 *
 * Where this differs from a real 1.26 server:
 * - Errors. The apiserver answers the library's malformed-directive errors (bad
 *   `$retainKeys`/`$setElementOrder`/`$deleteFromPrimitiveList`) 400 BadRequest and "lists of
 *   lists" 422; every other library error (missing merge key, unknown `$patch` value,
 *   `$patch: merge`, a list order contradicting `$setElementOrder`, ...) is passed through as a
 *   plain error, which a real server answers 500 with an empty reason (kubectl prints "Error from
 *   server: map: map[...] does not contain declared merge key: name", kubernetes/kubernetes#57834,
 *   #141112). Here those are 400 BadRequest with the same message. A `$`-prefixed member that is no
 *   directive (`$foo`) is an unknown field to Kubernetes (dropped when decoding, or a warning);
 *   here it is refused with 400, since the server stores JSON as sent.
 * - Values a patch brings in where the object had none (a new member, a new list item, the items
 *   of `$patch: replace`) have their `null` members dropped and their directives applied; Kubernetes
 *   copies them verbatim and relies on decoding into Go structs to drop both. A list without a
 *   merge strategy is copied as sent (directives inside it too), as the library copies it. A map
 *   deleted with `$patch: delete` is removed; the library leaves `{}` (the devel doc calls it
 *   deleted, "equivalent to null").
 * - Where the library would panic (a `null` element in a merged list, a list of objects with no
 *   merge key under `$setElementOrder`, object-valued merge keys) this throws an "invalid-patch" error.
 * - Unknown fields have no strategy (merged as maps, replaced as lists); the library fails on a
 *   map- or list-valued unknown field it has to merge with an existing one.
 */
import { cloneJson, isJsonObject, setMember, type JsonObject, type JsonValue } from "./json-value.ts";
import { jsonPatchApplyFailedMessage } from "./json-patch.ts";
import { RECORDED_PATCH_KINDS, recordedPatchSchema } from "./recorded-patch-strategies.ts";

/** A JSON object as JSON.parse produces it. */
export type { JsonObject } from "./json-value.ts";

/** Why a strategic merge patch failed; each maps to one status (see StrategicMergePatchError.code). */
export type StrategicMergePatchFailure =
  | "unsupported-kind" // not a built-in kind: custom resources take no strategic merge patch (415)
  | "malformed-directive" // $retainKeys / $setElementOrder / $deleteFromPrimitiveList not of their form (400)
  | "unknown-directive" // a `$patch` value Kubernetes does not define (400)
  | "invalid-patch" // anything else the merge cannot do: missing merge key, mixed list, order mismatch (400)
  | "list-of-lists"; // a merged list holding lists (422)

/**
 * The media types a Kubernetes server takes in a PATCH of a custom resource, in the order its 415
 * lists them (kubernetes/kubernetes#97423, kubernetes/website#35230; 1.26 with server-side apply on).
 */
export const customResourcePatchMediaTypes: readonly string[] = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/apply-patch+yaml",
];

/** A strategic merge patch that cannot apply, with the status a Kubernetes server answers it with. */
export class StrategicMergePatchError extends Error {
  constructor(
    /** Which rule the patch broke. */
    readonly failure: StrategicMergePatchFailure,
    message: string,
  ) {
    super(message);
    this.name = "StrategicMergePatchError";
  }

  /** The HTTP status to answer. */
  get code(): 400 | 415 | 422 {
    if (this.failure === "unsupported-kind") return 415;
    if (this.failure === "list-of-lists") return 422;
    return 400;
  }

  /** The Status reason to answer. */
  get reason(): "BadRequest" | "UnsupportedMediaType" | "Invalid" {
    if (this.failure === "unsupported-kind") return "UnsupportedMediaType";
    if (this.failure === "list-of-lists") return "Invalid";
    return "BadRequest";
  }

  /**
   * The Status message to answer: Kubernetes' 415 text naming the patch types a custom resource
   * takes; for a 422 the fixed message of a generic 422 (the apiserver wraps the library's error in
   * NewGenericServerResponse, which drops it); otherwise this error's message, the library's text.
   */
  get statusMessage(): string {
    if (this.failure === "unsupported-kind") {
      return `the body of the request was in an unknown format - accepted media types include: ${customResourcePatchMediaTypes.join(", ")}`;
    }
    if (this.failure === "list-of-lists") return jsonPatchApplyFailedMessage;
    return this.message;
  }
}

// --- Schemas: the patch strategy and merge key of each tagged field, by Go type. ---

export interface FieldStrategy {
  /** The `patchStrategy` tag. Only "merge" changes how a patch applies (lists merge instead of being replaced). */
  readonly strategy?: "merge" | "retainKeys" | "merge,retainKeys";
  /** The `patchMergeKey` tag: the member identifying an item of a merged list of objects. */
  readonly mergeKey?: string;
  /** The schema of the field's value (a struct) or of its list's items, where it has tagged fields. */
  readonly of?: Schema;
}

export interface Schema {
  /** The Go type's name, for messages. */
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldStrategy>>;
}

const merge = (mergeKey?: string, of?: Schema): FieldStrategy => ({ strategy: "merge", ...(mergeKey !== undefined && { mergeKey }), ...(of !== undefined && { of }) });
const struct = (of: Schema): FieldStrategy => ({ of });

// k8s.io/apimachinery v0.26.0 pkg/apis/meta/v1/types.go, ObjectMeta.
const objectMeta: Schema = {
  name: "ObjectMeta",
  fields: { ownerReferences: merge("uid"), finalizers: merge() },
};

// k8s.io/api v0.26.0 core/v1/types.go, Container (EphemeralContainerCommon has the same tags).
const container: Schema = {
  name: "Container",
  fields: {
    ports: merge("containerPort"),
    env: merge("name"),
    volumeMounts: merge("mountPath"),
    volumeDevices: merge("devicePath"),
  },
};

// core/v1/types.go, PodSpec. Tolerations and readinessGates carry no strategy.
const podSpec: Schema = {
  name: "PodSpec",
  fields: {
    volumes: { strategy: "merge,retainKeys", mergeKey: "name" },
    initContainers: merge("name", container),
    containers: merge("name", container),
    ephemeralContainers: merge("name", container),
    imagePullSecrets: merge("name"),
    hostAliases: merge("ip"),
    topologySpreadConstraints: merge("topologyKey"),
    schedulingGates: merge("name"),
    resourceClaims: { strategy: "merge,retainKeys", mergeKey: "name" },
  },
};

const podStatus: Schema = { name: "PodStatus", fields: { conditions: merge("type"), podIPs: merge("ip") } };
const podTemplateSpec: Schema = { name: "PodTemplateSpec", fields: { metadata: struct(objectMeta), spec: struct(podSpec) } };

// k8s.io/api v0.26.0 apps/v1/types.go, DeploymentSpec and DeploymentStatus.
const deploymentSpec: Schema = { name: "DeploymentSpec", fields: { template: struct(podTemplateSpec), strategy: { strategy: "retainKeys" } } };
const deploymentStatus: Schema = { name: "DeploymentStatus", fields: { conditions: merge("type") } };

// core/v1/types.go, ServiceSpec/ServiceStatus, NodeSpec/NodeStatus, NamespaceStatus.
const serviceSpec: Schema = { name: "ServiceSpec", fields: { ports: merge("port") } };
const serviceStatus: Schema = { name: "ServiceStatus", fields: { conditions: merge("type") } };
const nodeSpec: Schema = { name: "NodeSpec", fields: { podCIDRs: merge() } };
const nodeStatus: Schema = { name: "NodeStatus", fields: { conditions: merge("type"), addresses: merge("type") } };
const namespaceStatus: Schema = { name: "NamespaceStatus", fields: { conditions: merge("type") } };

const object = (name: string, spec?: Schema, status?: Schema): Schema => ({
  name,
  fields: {
    metadata: struct(objectMeta),
    ...(spec !== undefined && { spec: struct(spec) }),
    ...(status !== undefined && { status: struct(status) }),
  },
});

const kindSchemas: Readonly<Record<string, Schema>> = {
  Pod: object("Pod", podSpec, podStatus),
  Deployment: object("Deployment", deploymentSpec, deploymentStatus),
  Service: object("Service", serviceSpec, serviceStatus),
  Node: object("Node", nodeSpec, nodeStatus),
  Namespace: object("Namespace", undefined, namespaceStatus),
  ConfigMap: object("ConfigMap"),
  Secret: object("Secret"),
  Event: object("Event"),
  Lease: object("Lease"),
  // autoscaling/v1 Scale, what a Deployment's scale subresource reads and writes: no lists, no merge keys.
  Scale: object("Scale"),
};

/** The kinds a strategic merge patch applies to: the built-in kinds the server stores. */
export const strategicMergePatchKinds: readonly string[] = [...Object.keys(kindSchemas), ...RECORDED_PATCH_KINDS];

/** Whether the server takes a strategic merge patch for objects of `kind` (false for custom resources). */
export function supportsStrategicMergePatch(kind: string): boolean {
  return Object.hasOwn(kindSchemas, kind) || RECORDED_PATCH_KINDS.includes(kind);
}

/** The patch schema of `kind`: the table above, or for the recorded built-in types the one read from their recorded OpenAPI schemas. */
function kindSchema(kind: string): Schema | undefined {
  return Object.hasOwn(kindSchemas, kind) ? kindSchemas[kind] : recordedPatchSchema(kind);
}

/**
 * `document`, an object of kind `kind`, with the strategic merge patch `patch` applied. Neither
 * argument is modified; the result shares no structure with them. Throws StrategicMergePatchError.
 */
export function applyStrategicMergePatch(kind: string, document: JsonObject, patch: JsonObject): JsonObject {
  if (!supportsStrategicMergePatch(kind)) {
    throw new StrategicMergePatchError("unsupported-kind", `strategic merge patch is not supported for kind ${kind}; use a JSON merge patch or a JSON patch`);
  }
  const result = mergeMap(cloneJson(document) as JsonObject, patch, kindSchema(kind));
  // `$patch: delete` at the top: the library answers an empty map.
  return result === DELETED ? {} : result;
}

// --- The merge. `original` arguments are working copies, updated in place; patches are only read. ---

const PATCH = "$patch";
const RETAIN_KEYS = "$retainKeys";
const SET_ELEMENT_ORDER = "$setElementOrder";
const DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";

/** What merging a map with `$patch: delete` gives: the member goes. */
const DELETED: unique symbol = Symbol("deleted");

type KeyOf = (item: JsonValue) => JsonValue;

function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject | typeof DELETED {
  if (Object.hasOwn(patch, PATCH)) {
    const directive = patch[PATCH];
    if (directive === "delete") return DELETED;
    // Replace: the patch, taken as the whole value.
    if (directive === "replace") return mergeMap({}, withoutMember(patch, PATCH), schema);
    // "merge" included: the library knows only replace and delete in a map (handleDirectiveInMergeMap).
    throw new StrategicMergePatchError("unknown-directive", `unknown patch type: ${goFormat(directive)} in map: ${goFormat(patch)}`);
  }
  // A `$` member that names no directive is an ordinary member: kube-apiserver 1.26.4 drops
  // `{"$bogus":1}` as an unknown field (200) and refuses `{"data":{"$bogus":1}}` for its type (422)
  // (recorded 2026-11-25; found by comparing with `fuzz --target http`, which was answered 400 here).
  // The library's order: $retainKeys, then $setElementOrder with the lists it names, then the
  // other members. It visits those in Go's random map order; here members come first, then the
  // deletion lists (for a list both add to and delete from, the value ends up deleted).
  applyRetainKeys(original, patch);
  const ordered = applySetElementOrder(original, patch, schema);
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key) || ordered.has(key)) continue;
    mergeMember(original, key, value, fieldOf(schema, key), false);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = directiveField(key, DELETE_FROM_PRIMITIVE_LIST, "invalid patch format of primitive list");
    mergeMember(original, field, value, fieldOf(schema, field), true);
  }
  return original;
}

/** Whether a map member is one of the library's directives rather than data. */
function isDirective(key: string): boolean {
  return key === PATCH || key === RETAIN_KEYS || key.startsWith(SET_ELEMENT_ORDER) || key.startsWith(DELETE_FROM_PRIMITIVE_LIST);
}

// One member of the patch merged into `original` (mergeMap's loop). A deletion list
// (`$deleteFromPrimitiveList/<key>`) is merged with `deleting` set: it does nothing where the
// member is missing or of another type.
function mergeMember(original: JsonObject, key: string, value: JsonValue, field: FieldStrategy | undefined, deleting: boolean): void {
  if (value === null) {
    // Also for a deletion list: `$deleteFromPrimitiveList/x: null` deletes x, as in the library.
    delete original[key];
    return;
  }
  const current = Object.hasOwn(original, key) ? original[key] : undefined;
  if (current === undefined || goType(current) !== goType(value)) {
    if (!deleting) setOrDelete(original, key, materialize(value, field, key));
    return;
  }
  if (isJsonObject(current) && isJsonObject(value)) setOrDelete(original, key, mergeMap(current, value, field?.of));
  else if (Array.isArray(current) && Array.isArray(value)) setMember(original, key, mergeListField(current, value, field, key, deleting));
  else setMember(original, key, value);
}

// A value the patch brings where there was none (or one of another type): the value merged into
// nothing, so its nulls go and its directives apply.
function materialize(value: JsonValue, field: FieldStrategy | undefined, key: string): JsonValue | typeof DELETED {
  if (isJsonObject(value)) return mergeMap({}, value, field?.of);
  // A list without merge strategy is taken as sent, but for its null members.
  if (Array.isArray(value)) return isMergeList(field) ? mergeList([], value, field, key) : discardNulls(value);
  return value;
}

function mergeListField(current: JsonValue[], patch: JsonValue[], field: FieldStrategy | undefined, key: string, deleting: boolean): JsonValue[] {
  if (isMergeList(field)) return mergeList(current, patch, field, key, deleting);
  // No merge strategy: the patch's list replaces the whole list. A deletion list for such a field
  // replaces it too (mergeSliceHandler returns the patch for any non-merge strategy).
  return cloneJson(patch) as JsonValue[];
}

// mergeSlice: a list with patch strategy "merge".
function mergeList(original: JsonValue[], patch: JsonValue[], field: FieldStrategy, key: string, deleting = false): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementType([original, patch]);
  if (kind !== "map") {
    if (deleting) return original.filter((value) => !patch.some((doomed) => doomed === value));
    const merged = dedupe([...original, ...patch]);
    const [named, serverOnly] = partition(merged, (value) => patch.some((item) => item === value));
    return normalizeElementOrder(named, serverOnly, patch, original, identity);
  }
  const mergeKey = field.mergeKey;
  if (mergeKey === undefined) throw invalid(`cannot merge lists without merge key for ${key}`);
  const keyOf: KeyOf = (item) => mergeKeyValue(item, mergeKey);
  const [base, items] = applySpecialItems(original, patch, mergeKey, field.of);
  // The library checks the server's items (what is left of them) for the merge key when ordering.
  base.forEach(keyOf);
  const merged = [...base];
  for (const item of items) {
    const value = keyOf(item);
    const at = merged.findIndex((existing) => sameKey(keyOf(existing), value));
    if (at >= 0) merged[at] = mergeMap(merged[at] as JsonObject, item as JsonObject, field.of) as JsonObject;
    else merged.push(mergeMap({}, item as JsonObject, field.of) as JsonObject);
  }
  const [named, serverOnly] = partition(merged, (existing) => items.some((item) => sameKey(keyOf(item), keyOf(existing))));
  return normalizeElementOrder(named, serverOnly, items, base, keyOf);
}

// mergeSliceWithSpecialElements: items carrying `$patch`. Deletions drop every item whose merge key
// matches; a replace item makes the other (non-directive) items the whole list. Returns the list to
// merge into and the items to merge.
function applySpecialItems(original: JsonValue[], patch: JsonValue[], mergeKey: string, schema: Schema | undefined): [JsonValue[], JsonValue[]] {
  let base = original;
  let replace = false;
  const items: JsonValue[] = [];
  for (const item of patch) {
    const map = item as JsonObject;
    if (!Object.hasOwn(map, PATCH)) {
      items.push(item);
      continue;
    }
    const directive = map[PATCH];
    if (directive === "delete") {
      if (!Object.hasOwn(map, mergeKey)) throw noMergeKey(map, mergeKey);
      const doomed = map[mergeKey] as JsonValue;
      base = base.filter((existing) => !sameKey((existing as JsonObject)[mergeKey] as JsonValue, doomed));
    } else if (directive === "replace") {
      replace = true;
    } else if (directive === "merge") {
      throw new StrategicMergePatchError("unknown-directive", "merging lists cannot yet be specified in the patch");
    } else {
      throw new StrategicMergePatchError("unknown-directive", `unknown patch type: ${goFormat(directive)} in map: ${goFormat(map)}`);
    }
  }
  if (!replace) return [base, items];
  return [items.map((item) => mergeMap({}, item as JsonObject, schema) as JsonObject), []];
}

// $retainKeys (applyRetainKeysDirective): every member the patch sets must be listed; members of
// the original not listed are cleared.
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw malformed("invalid patch format of retainKeys");
  const retained = new Set(list.filter((entry): entry is string => typeof entry === "string"));
  for (const [key, value] of Object.entries(patch)) {
    if (key === RETAIN_KEYS || value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained.has(key)) throw malformed("invalid patch format of retainKeys");
  }
  for (const key of Object.keys(original)) if (!retained.has(key)) delete original[key];
}

// $setElementOrder/<list> (mergePatchIntoOriginal): the list is merged with the patch's list if
// any, then its items named in the directive take the directive's order, the others keeping
// theirs. Returns the lists handled, which the member loop then skips.
function applySetElementOrder(original: JsonObject, patch: JsonObject, schema: Schema | undefined): Set<string> {
  const handled = new Set<string>();
  for (const [directive, order] of Object.entries(patch)) {
    if (!directive.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!Array.isArray(order)) throw invalid(`expected a []interface {}, but received a ${goTypeName(order)}`);
    const key = directiveField(directive, SET_ELEMENT_ORDER, "invalid patch format of setElementOrder list");
    const field = fieldOf(schema, key);
    const current = Object.hasOwn(original, key) ? original[key] : undefined;
    const patchList = Object.hasOwn(patch, key) ? patch[key] : undefined;
    if (current !== undefined && !Array.isArray(current)) throw invalid(`expected a []interface {}, but received a ${goTypeName(current)}`);
    if (patchList !== undefined && !Array.isArray(patchList)) throw invalid(`expected a []interface {}, but received a ${goTypeName(patchList)}`);
    handled.add(key);
    const mergeKey = field?.mergeKey;
    checkOrderAgainstPatch(patchList ?? [], order, mergeKey);
    if (current === undefined && patchList === undefined) continue;
    const merged =
      current !== undefined && patchList !== undefined
        ? mergeListField(current, patchList, field, key, false)
        : current !== undefined
          ? current
          : (materialize(patchList!, field, key) as JsonValue[]);
    const kind = elementType([current ?? [], patchList ?? []]);
    if (kind === undefined) throw invalid("no elements in any of the given slices");
    let keyOf: KeyOf = identity;
    if (mergeKey !== undefined) {
      keyOf = (item) => mergeKeyValue(item, mergeKey);
      order.forEach(keyOf);
    } else if (kind === "map" || order.some((entry) => isJsonObject(entry) || Array.isArray(entry))) {
      // The library hashes the items here, which panics for maps.
      throw invalid(`cannot order the list ${key} of objects without a merge key`);
    }
    const [named, serverOnly] = partition(merged, (item) => order.some((entry) => sameKey(keyOf(entry), keyOf(item))));
    setMember(original, key, normalizeElementOrder(named, serverOnly, order, current ?? [], keyOf));
  }
  return handled;
}

// validatePatchWithSetOrderList: the patch list's items (deletions and directive items aside) must
// appear in the $setElementOrder list, in the same relative order.
function checkOrderAgainstPatch(patchList: JsonValue[], order: JsonValue[], mergeKey: string | undefined): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== undefined) {
    for (const item of patchList) if (!isJsonObject(item)) throw invalid(`expected a map[string]interface {}, but received a ${goTypeName(item)}`);
    items = patchList.filter((item) => (item as JsonObject)[PATCH] !== "delete");
  }
  let at = 0;
  let orderAt = 0;
  while (at < items.length && orderAt < order.length) {
    const item = items[at]!;
    if (isJsonObject(item) && Object.hasOwn(item, PATCH)) {
      at++;
      continue;
    }
    const same = mergeKey === undefined ? sameKey(item, order[orderAt]!) : sameKey(mergeKeyValue(item, mergeKey), mergeKeyValue(order[orderAt]!, mergeKey));
    if (same) at++;
    orderAt++;
  }
  if (at < items.length && orderAt >= order.length) {
    throw invalid(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goFormat(order)}\n`);
  }
}

// normalizeElementOrder + mergeSortedSlice: `named` (items the patch or directive names) sorted by
// `order`, `serverOnly` sorted by `serverOrder`, then each server-only item placed before the first
// named item that comes after it in `serverOrder`. An item not in `serverOrder` (a new one) never
// compares, so it is taken first.
function normalizeElementOrder(named: JsonValue[], serverOnly: JsonValue[], order: JsonValue[], serverOrder: JsonValue[], keyOf: KeyOf): JsonValue[] {
  const indexIn = (list: JsonValue[], item: JsonValue): number => list.findIndex((entry) => sameKey(keyOf(entry), keyOf(item)));
  const sortBy = (items: JsonValue[], by: JsonValue[]): JsonValue[] =>
    items
      .map((item, position) => ({ item, position, at: indexIn(by, item) }))
      // Every item is found in practice; one that is not keeps its place after the found ones.
      .sort((a, b) => (a.at < 0 ? Infinity : a.at) - (b.at < 0 ? Infinity : b.at) || a.position - b.position)
      .map(({ item }) => item);
  const right = sortBy(named, order);
  const left = sortBy(serverOnly, serverOrder);
  const result: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) result.push(right[j++]!);
    else if (j >= right.length) result.push(left[i++]!);
    else {
      const l = indexIn(serverOrder, left[i]!);
      const r = indexIn(serverOrder, right[j]!);
      if (l >= 0 && r >= 0 && l < r) result.push(left[i++]!);
      else result.push(right[j++]!);
    }
  }
  return result;
}

// --- Helpers. ---

type GoType = "map" | "list" | "string" | "int64" | "float64" | "bool" | "nil";

// The Go type a value decodes to in the apiserver (integers stay int64: UnmarshalCaseSensitivePreserveInts).
function goType(value: JsonValue): GoType {
  if (value === null) return "nil";
  if (Array.isArray(value)) return "list";
  if (typeof value === "object") return "map";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return typeof value === "string" ? "string" : "bool";
}

function goTypeName(value: JsonValue): string {
  const type = goType(value);
  if (type === "map") return "map[string]interface {}";
  if (type === "list") return "[]interface {}";
  if (type === "nil") return "%!s(<nil>)";
  return type;
}

// sliceElementType: the one type of the lists' items (undefined when all are empty).
function elementType(lists: JsonValue[][]): GoType | undefined {
  let type: GoType | undefined;
  for (const list of lists) {
    for (const item of list) {
      const itemType = goType(item);
      if (type === undefined) {
        if (itemType === "list") throw new StrategicMergePatchError("list-of-lists", "lists of lists are not supported");
        // The library dereferences the nil type here and panics.
        if (itemType === "nil") throw invalid(`list elements must not be null: ${goFormat(lists)}`);
        type = itemType;
      } else if (itemType !== type) {
        throw invalid(`list element types are not identical: ${goFormat(lists)}`);
      }
    }
  }
  return type;
}

function mergeKeyValue(item: JsonValue, mergeKey: string): JsonValue {
  if (!isJsonObject(item)) throw invalid(`expected a map[string]interface {}, but received a ${goTypeName(item)}`);
  if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
  return item[mergeKey] as JsonValue;
}

// Go's == on two decoded values: scalars by value (and type); comparing two maps or two lists panics.
function sameKey(a: JsonValue, b: JsonValue): boolean {
  if ((isJsonObject(a) && isJsonObject(b)) || (Array.isArray(a) && Array.isArray(b))) throw invalid(`cannot compare ${goFormat(a)} and ${goFormat(b)}: merge keys must be scalars`);
  return a === b;
}

function identity(value: JsonValue): JsonValue {
  return value;
}

function partition(items: JsonValue[], test: (item: JsonValue) => boolean): [JsonValue[], JsonValue[]] {
  const yes: JsonValue[] = [];
  const no: JsonValue[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

// The scalars once each, at their first place (the library's deduplicateScalars moves duplicates
// around, but the order is then set by normalizeElementOrder, which looks at first places only).
function dedupe(values: JsonValue[]): JsonValue[] {
  return values.filter((value, at) => values.indexOf(value) === at);
}

function isMergeList(field: FieldStrategy | undefined): field is FieldStrategy {
  return field?.strategy === "merge" || field?.strategy === "merge,retainKeys";
}

function fieldOf(schema: Schema | undefined, key: string): FieldStrategy | undefined {
  return schema !== undefined && Object.hasOwn(schema.fields, key) ? schema.fields[key] : undefined;
}

// extractKey: "<prefix>/<field>" gives <field>; anything else is the directive's format error.
function directiveField(key: string, prefix: string, formatError: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) throw malformed(formatError);
  return key.slice(slash + 1);
}

function invalid(message: string): StrategicMergePatchError {
  return new StrategicMergePatchError("invalid-patch", message);
}

function malformed(message: string): StrategicMergePatchError {
  return new StrategicMergePatchError("malformed-directive", message);
}

function noMergeKey(map: JsonObject, mergeKey: string): StrategicMergePatchError {
  return invalid(`map: ${goFormat(map)} does not contain declared merge key: ${mergeKey}`);
}

// A value as Go's %v prints what the apiserver decoded: maps with sorted keys, strings bare.
function goFormat(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return `[${value.map(goFormat).join(" ")}]`;
  if (typeof value === "object") {
    return `map[${Object.keys(value)
      .sort()
      .map((key) => `${key}:${goFormat(value[key])}`)
      .join(" ")}]`;
  }
  return String(value);
}

function setOrDelete(object: JsonObject, key: string, value: JsonValue | typeof DELETED): void {
  if (value === DELETED) delete object[key];
  else setMember(object, key, value);
}

function withoutMember(object: JsonObject, name: string): JsonObject {
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(object)) if (key !== name) setMember(copy, key, value);
  return copy;
}

// discardNullValuesFromPatch, on a copy: null members go at any depth, list items stay.
function discardNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(discardNulls);
  if (isJsonObject(value)) {
    const copy: JsonObject = {};
    for (const [key, member] of Object.entries(value)) if (member !== null) setMember(copy, key, discardNulls(member));
    return copy;
  }
  return value;
}
