/**
 * The eviction subresource of pods (doc 1 §1): the pod is deleted through the registry as a DELETE
 * would delete it.
 */
import { badRequest, notFound } from "../responses/api-error.ts";
import { checkDeletePreconditions } from "../registry/delete.ts";
import { storageKey } from "../registry/stored-resource.ts";
import { checkedDeleteOptions } from "../request/delete-options.ts";
import { dryRun, isDryRun } from "../request/query-options.ts";
import { decodeObject, readBody } from "../request/request-body.ts";
import { negotiateRepresentation, requestSerialization } from "../responses/representation.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { valueTypeError } from "../validation/value-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";

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
  checkDeletePreconditions(target.type, current, options.preconditions ?? {});
  context.objects.delete({ ...target, name: target.name! }, current, { dryRun: dry });
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
