/**
 * PartialObjectMetadata: an object reduced to its metadata, as the rows of a Table carry it by
 * default (transcripts table-*: `includeObject` Metadata) and as a client may ask for it directly
 * with `Accept: application/json;as=PartialObjectMetadata;g=<meta group>;v=v1` (or
 * `as=PartialObjectMetadataList` on a collection). Kind and apiVersion are those of the meta group
 * (doc 1 §2.5 `<meta-group>`), in the version the client asked for.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { failure, type ApiError } from "../responses/api-error.ts";
import type { ResourceType } from "../routing/resource-types.ts";

/** The versions of the meta group Kubernetes 1.26 serves Table and PartialObjectMetadata in. */
export type MetaVersion = "v1" | "v1beta1";

/** The apiVersion of a meta type: `<meta group>/<version>` (transcripts table-*: meta.k8s.io/v1). */
export function metaApiVersion(dialect: Pick<Dialect, "metaGroup">, version: MetaVersion = "v1"): string {
  return `${dialect.metaGroup}/${version}`;
}

/** List metadata (meta/v1 ListMeta) as a Table or a list carries it. */
export interface ListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** An object's metadata reduced to an object: kind and apiVersion of the meta group, the whole ObjectMeta. */
export interface PartialObjectMetadata {
  readonly kind: "PartialObjectMetadata";
  readonly apiVersion: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A list of PartialObjectMetadata. */
export interface PartialObjectMetadataList {
  readonly kind: "PartialObjectMetadataList";
  readonly apiVersion: string;
  readonly metadata: ListMeta;
  readonly items: readonly PartialObjectMetadata[];
}

// ObjectMeta's fields in its Go struct order, the order Kubernetes writes them.
const OBJECT_META_ORDER = [
  "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
  "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields",
];

/**
 * An object's metadata as Kubernetes marshals an ObjectMeta: its fields in Go struct order, and
 * `creationTimestamp` always present (null when unset: a zero metav1.Time is never omitted).
 */
export function objectMeta(object: { readonly metadata?: unknown }): Readonly<Record<string, unknown>> {
  const metadata = (object.metadata ?? {}) as Readonly<Record<string, unknown>>;
  const ordered: Record<string, unknown> = {};
  for (const field of OBJECT_META_ORDER) {
    if (metadata[field] !== undefined) ordered[field] = metadata[field];
    else if (field === "creationTimestamp") ordered[field] = null;
  }
  for (const [field, value] of Object.entries(metadata)) if (!(field in ordered) && value !== undefined) ordered[field] = value;
  return ordered;
}

/** meta.AsPartialObjectMetadata with the meta group's kind and apiVersion set. */
export function asPartialObjectMetadata(object: { readonly metadata?: unknown }, dialect: Pick<Dialect, "metaGroup">, version: MetaVersion = "v1"): PartialObjectMetadata {
  return { kind: "PartialObjectMetadata", apiVersion: metaApiVersion(dialect, version), metadata: objectMeta(object) };
}

/** A list's items as a PartialObjectMetadataList, with the list's resourceVersion, continue and remainingItemCount. */
export function asPartialObjectMetadataList(
  items: ReadonlyArray<{ readonly metadata?: unknown }>,
  listMeta: ListMeta,
  dialect: Pick<Dialect, "metaGroup">,
  version: MetaVersion = "v1",
): PartialObjectMetadataList {
  return {
    kind: "PartialObjectMetadataList",
    apiVersion: metaApiVersion(dialect, version),
    metadata: listMetaOf(listMeta),
    items: items.map((item) => asPartialObjectMetadata(item, dialect, version)),
  };
}

/** ListMeta without its absent fields (all are omitempty in Kubernetes). */
export function listMetaOf(listMeta: ListMeta): ListMeta {
  return {
    ...(listMeta.resourceVersion !== undefined && listMeta.resourceVersion !== "" && { resourceVersion: listMeta.resourceVersion }),
    ...(listMeta.continue !== undefined && { continue: listMeta.continue }),
    ...(listMeta.remainingItemCount !== undefined && { remainingItemCount: listMeta.remainingItemCount }),
  };
}

/** The Go type name Kubernetes prints for a served object (`%T` of the internal type: *core.ConfigMap). */
function goTypeName(type: Pick<ResourceType, "group" | "kind">, isList: boolean): string {
  const pkg = type.group === "" ? "core" : type.group.split(".")[0]!;
  return `*${pkg}.${type.kind}${isList ? "List" : ""}`;
}

/**
 * The 406 Kubernetes answers when the PartialObjectMetadata form asked for does not fit the
 * response: `as=PartialObjectMetadata` on a collection, or `as=PartialObjectMetadataList` on one
 * object (apiserver's asPartialObjectMetadata / asPartialObjectMetadataList).
 */
export function partialObjectMetadataMismatch(asked: "PartialObjectMetadata" | "PartialObjectMetadataList", type: Pick<ResourceType, "group" | "kind">): ApiError {
  return asked === "PartialObjectMetadata"
    ? failure("NotAcceptable", `you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(type, true)})`)
    : failure("NotAcceptable", `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(type, false)})`);
}
