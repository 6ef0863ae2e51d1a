/**
 * delete, deletecollection and the eviction subresource (doc 1 §1, §3): an object with finalizers
 * is marked (deletionTimestamp set on the first delete, never moved after) and kept; one without
 * is removed; a namespace turns Terminating and the namespace controller empties it.
 */
import { StoreError } from "../store/errors.ts";
import type { StoredObject } from "../store/stored-object.ts";
import { badRequest, failure, fromStoreError, notFound } from "./api-error.ts";
import { isDryRun } from "./create-handler.ts";
import { admitDelete } from "./admission/admission-chain.ts";
import { rfc3339 } from "./object-stamping.ts";
import { readList } from "./read-handlers.ts";
import { parseResourceVersion } from "./read-revision.ts";
import { negotiateRepresentation, requestSerialization } from "./representation.ts";
import { decodeObject, readBody } from "./request-body.ts";
import { checkedDeleteOptions, isDryRunDelete, readDeleteOptions, type DeletePreconditions } from "./delete-options.ts";
import { dryRun } from "./query-options.ts";
import { apiVersionOf, type ResourceType } from "./resource-types.ts";
import { valueTypeError } from "./value-types.ts";
import type { ResourceRequest, ServerContext } from "./server-context.ts";
import { listItem, storageKey, withTypeMeta } from "./stored-resource.ts";

/** What deleting one object did: it was marked for finalization, or removed. */
export interface DeleteOutcome {
  readonly object: StoredObject;
  readonly removed: boolean;
}

/** DELETE of one object. */
export async function handleDelete(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target);
  const options = await readDeleteOptions(context, target);
  const dry = isDryRunDelete(context, target, options);
  const current = context.store.get(storageKey(type, target.namespace, target.name!));
  if (current === undefined) throw notFound(type, target.name!);
  checkPreconditions(type, current, options.preconditions ?? {});
  const outcome = deleteObject(context, target, current, dry);
  if (outcome.removed && context.dialect.answers["delete-response"] === "status-when-removed") {
    // Transcript delete-plain.
    return representation.object(200, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: target.name, kind: type.resource, uid: current.metadata["uid"] },
    });
  }
  return representation.object(200, withTypeMeta(type, outcome.object));
}

/** DELETE of a collection: every object the selectors match, each as a single delete would. */
export async function handleDeleteCollection(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target, { collection: true });
  const options = await readDeleteOptions(context, target);
  const dry = isDryRunDelete(context, target, options);
  const page = await readList(context, target);
  // Every item is held to the preconditions, and none is deleted unless all hold (Kubernetes checks
  // each as it goes; recorded 2026-11-25, found by comparing with `fuzz --target http`).
  for (const object of page.items) checkPreconditions(type, object, options.preconditions ?? {});
  const deleted = page.items.map((object) =>
    deleteObject(context, { ...target, namespace: object.metadata.namespace, name: object.metadata.name }, object, dry).object,
  );
  return representation.list(200, {
    kind: `${type.kind}List`,
    apiVersion: apiVersionOf(type),
    metadata: { resourceVersion: context.store.formatRevision(context.store.revision) },
    items: deleted.map(listItem),
  });
}

/**
 * POST of an Eviction for a pod: the pod is deleted (transcript eviction: 201 Success), as
 * kube-apiserver 1.26.4's eviction REST does it (recorded 2026-11-25): the query's dryRun checked
 * as CreateOptions (422), the body decoded as an Eviction (400 for a wrong kind or value type), its
 * name matched with the URL's (400), its deleteOptions checked as a DELETE's (422), their dryRun
 * and the query's agreeing (Kubernetes answers a disagreement with a 500; here it is the 400 it
 * is), then the pod looked up (404) and the preconditions compared (409). A dry run deletes nothing.
 */
export async function handleEviction(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const representation = negotiateRepresentation(context, target);
  const queryDry = isDryRun(context, target, "CreateOptions");
  const eviction = decodeObject(await readBody(target.request), requestSerialization(context, target), "Eviction");
  checkEvictionKind(eviction);
  const why = valueTypeError(EVICTION_TYPE, eviction);
  if (why !== undefined) throw badRequest(`Eviction in version "v1" cannot be handled as a Eviction: ${why}`);
  const metadata = (eviction["metadata"] ?? {}) as Record<string, unknown>;
  if ((metadata["name"] ?? "") !== target.name) throw badRequest("name in URL does not match name in Eviction object");
  const options = checkedDeleteOptions((eviction["deleteOptions"] ?? {}) as Record<string, unknown>, context.dialect.metaGroup);
  const queryValues = target.query.getAll("dryRun");
  const bodyValues = options.dryRun ?? [];
  if (queryValues.length > 0 && bodyValues.length > 0 && queryValues.join(",") !== bodyValues.join(",")) {
    throw badRequest(`Non-matching dry-run options in request and content: [${queryValues.join(" ")}] and [${bodyValues.join(" ")}]`);
  }
  const dry = queryDry || dryRun(new URLSearchParams(), "DeleteOptions", context.dialect.metaGroup, context.dialect.answers["bare-dry-run"] === "accept", bodyValues);
  const current = context.store.get(storageKey(target.type, target.namespace, target.name!));
  if (current === undefined) throw notFound(target.type, target.name!);
  checkPreconditions(target.type, current, options.preconditions ?? {});
  deleteObject(context, target, current, dry);
  return representation.object(201, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
}

// The Eviction's Go type, for valueTypeError (its Protobuf message holds the field types).
const EVICTION_TYPE = { group: "policy", version: "v1", kind: "Eviction" } as ResourceType;

/** An Eviction body names its kind or nothing (the endpoint's kind then); anything else converts to nothing. */
function checkEvictionKind(body: Record<string, unknown>): void {
  const kind = body["kind"];
  if (kind === undefined || kind === "" || kind === "Eviction") return;
  const version = typeof body["apiVersion"] === "string" && body["apiVersion"] !== "" ? body["apiVersion"] : "v1";
  throw badRequest(`${String(kind)} in version "${version.split("/").at(-1)}" cannot be handled as a Eviction: converting (${version.split("/").at(-1)}.${String(kind)}) to (policy.Eviction): unknown conversion`);
}


/**
 * Deletes one object per doc 1 §3: the first delete of an object with finalizers (or of a
 * namespace, which has the controller's) sets deletionTimestamp and keeps it; later deletes
 * change nothing; an object without finalizers is removed.
 */
export function deleteObject(context: ServerContext, target: ResourceRequest, current: StoredObject, dry: boolean): DeleteOutcome {
  const { type } = target;
  admitDelete(context, type, target.name!, dry);
  const key = storageKey(type, target.namespace, target.name!);
  const finalizers = (current.metadata["finalizers"] as unknown[] | undefined) ?? [];
  const isNamespace = type.kind === "Namespace";
  const formatRevision = (revision: number) => context.store.formatRevision(revision);
  const expectedRevision = parseResourceVersion(context, current.metadata.resourceVersion!);
  try {
    // Planted defect "finalizers-ignored-on-delete" (sim/apiserver/defects.ts): objects with finalizers go at once too.
    const ignoreFinalizers = context.defects.has("finalizers-ignored-on-delete");
    if ((finalizers.length === 0 || ignoreFinalizers) && !isNamespace) {
      if (dry) return { object: current, removed: true };
      return { object: context.store.delete(key, { expectedRevision }), removed: true };
    }
    if (current.metadata["deletionTimestamp"] !== undefined) return { object: current, removed: false };
    const marked: StoredObject = {
      ...current,
      metadata: {
        ...current.metadata,
        deletionTimestamp: rfc3339(context.clock),
        ...(isNamespace ? {} : { deletionGracePeriodSeconds: 0 }),
      },
      ...(isNamespace && { status: { ...(current["status"] as object | undefined), phase: "Terminating" } }),
    };
    if (dry) return { object: marked, removed: false };
    return { object: context.store.update(key, marked, { expectedRevision }), removed: false };
  } catch (error) {
    if (error instanceof StoreError) throw fromStoreError(error, type, target.name!, formatRevision);
    throw error;
  }
}

/**
 * Conflict unless the object still has the uid and resourceVersion the client names: the
 * registry's BeforeDelete check, as kube-apiserver 1.26.4 words it for a DELETE, each item of a
 * collection delete and an eviction alike, naming `<Kind>[.<group>]` (transcript
 * delete-precondition-stale; the uid message and the group recorded 2026-11-25, found by comparing
 * with `fuzz --target http`).
 */
function checkPreconditions(type: ResourceType, current: StoredObject, preconditions: DeletePreconditions): void {
  const name = current.metadata.name;
  const { uid, resourceVersion } = preconditions;
  const group = type.group === "" ? undefined : type.group;
  const conflict = (why: string) => failure("Conflict", `Operation cannot be fulfilled on ${group === undefined ? type.kind : `${type.kind}.${group}`} "${name}": ${why}`, { name, ...(group !== undefined && { group }), kind: type.kind });
  if (uid !== undefined && uid !== current.metadata["uid"]) {
    throw conflict(`the UID in the precondition (${uid}) does not match the UID in record (${String(current.metadata["uid"])}). The object might have been deleted and then recreated`);
  }
  if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) {
    throw conflict(`the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`);
  }
}
