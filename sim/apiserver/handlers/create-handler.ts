/** create: POST of an object to its collection (doc 1 §1, §2.1, §2.2, §2.7, §4.4). */
import { methodNotAllowed } from "../responses/api-error.ts";
import { fieldManagerOf } from "../request/field-manager.ts";
import { isDryRun } from "../request/query-options.ts";
import { decodeRequestObject } from "../request/request-object.ts";
import { negotiateRepresentation, requestSerialization } from "../responses/representation.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { withTypeMeta } from "../registry/stored-resource.ts";

/** POST to a collection. */
export async function handleCreate(context: ServerContext, target: ResourceRequest): Promise<Response> {
  const { type } = target;
  // A namespaced type has no collection to create in outside a namespace.
  if (type.namespaced && target.namespace === undefined) throw methodNotAllowed();
  const representation = negotiateRepresentation(context, target);
  // The body's media type (415) is checked before the options (422), as Kubernetes does.
  requestSerialization(context, target);
  const dryRun = isDryRun(context, target, "CreateOptions");
  const { object, warnings } = await decodeRequestObject(context, target);
  const created = context.objects.create(target, object, { dryRun, fieldManager: fieldManagerOf(target) });
  return representation.object(201, withTypeMeta(type, created), warnings);
}
