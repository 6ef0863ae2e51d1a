/**
 * delete and deletecollection (doc 1 §1, §3): the options read and checked, the preconditions held,
 * then the registry deletes: an object with finalizers is marked (deletionTimestamp set on the
 * first delete, never moved after) and kept; one without is removed; a namespace turns
 * Terminating and the namespace controller empties it.
 */
import { notFound } from "../responses/api-error.ts";
import { checkDeletePreconditions } from "../registry/delete.ts";
import { listItem, storageKey, withTypeMeta } from "../registry/stored-resource.ts";
import { isDryRunDelete, readDeleteOptions } from "../request/delete-options.ts";
import { negotiateRepresentation } from "../responses/representation.ts";
import { apiVersionOf } from "../routing/resource-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { readList } from "./read-handlers.ts";

/** DELETE of one object. */
export async function handleDelete(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  const representation = negotiateRepresentation(context, target);
  const options = await readDeleteOptions(context, target);
  const dry = isDryRunDelete(context, target, options);
  const current = context.store.get(storageKey(type, target.namespace, target.name!));
  if (current === undefined) throw notFound(type, target.name!);
  checkDeletePreconditions(type, current, options.preconditions ?? {});
  const outcome = context.objects.delete({ ...target, name: target.name! }, current, { dryRun: dry });
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
  for (const object of page.items) checkDeletePreconditions(type, object, options.preconditions ?? {});
  const deleted = page.items.map((object) =>
    context.objects.delete({ type, namespace: object.metadata.namespace, name: object.metadata.name }, object, { dryRun: dry }).object,
  );
  return representation.storedList(200, {
    kind: `${type.kind}List`,
    apiVersion: apiVersionOf(type),
    metadata: { resourceVersion: context.store.formatRevision(context.store.revision) },
    items: deleted,
  });
}
