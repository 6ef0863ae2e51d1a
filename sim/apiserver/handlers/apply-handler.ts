/**
 * apply: PATCH with `application/apply-patch+yaml` (doc 1 §1 lists the verb; Kubernetes 1.26's
 * answers recorded in apply/recorded/): the configuration is checked against the URL, then the
 * registry merges it, computes ownership and writes (registry/apply.ts). 201 when the apply
 * created the object, 200 otherwise.
 *
 * Checks, as recorded: an apiVersion other than the type's is 400 "Incorrect version specified in
 * apply patch"; a name other than the URL's is 400 as for any patch. A kind other than the type's
 * is 400 here (Kubernetes answers 500 "failed to merge config" with Go pointers in its message,
 * which no client can use).
 */
import { badRequest } from "../responses/api-error.ts";
import type { PatchRequest } from "../request/patch-request.ts";
import { fieldValidation } from "../request/query-options.ts";
import { decodePatchedObject } from "../request/unknown-fields.ts";
import { checkKind, checkNamespace, metadataOf } from "../registry/object-stamping.ts";
import { storageKey, withTypeMeta } from "../registry/stored-resource.ts";
import type { Representation } from "../responses/representation.ts";
import { apiVersionOf } from "../routing/resource-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { checkPatchedValueTypes } from "../validation/value-types.ts";

/** An apply of `request`'s configuration to the object the URL names. */
export function handleApply(
  context: ServerContext,
  target: ResourceRequest,
  representation: Representation,
  request: Extract<PatchRequest, { kind: "apply" }>,
): Response {
  const { type } = target;
  const name = target.name!;
  const expected = apiVersionOf(type);
  const apiVersion = request.configuration["apiVersion"];
  if (apiVersion !== expected) {
    throw badRequest(`Incorrect version specified in apply patch. Specified patch version: ${typeof apiVersion === "string" ? apiVersion : ""}, expected: ${expected}`);
  }
  checkKind(type, request.configuration);
  checkPatchedValueTypes(type, request.configuration);
  const { object: configuration, warnings } = decodePatchedObject(type, request.configuration, fieldValidation(target.query));
  const metadata = metadataOf(configuration);
  if (metadata["name"] !== name) throw badRequest(`the name of the object (${String(metadata["name"] ?? "")}) does not match the name on the URL (${name})`);
  checkNamespace(type, metadata, target.namespace);
  const current = context.store.get(storageKey(type, target.namespace, name));
  const outcome = context.objects.apply({ ...target, name }, current, configuration, {
    fieldManager: request.fieldManager,
    force: request.force,
    dryRun: request.dryRun,
  });
  return representation.object(outcome.created ? 201 : 200, withTypeMeta(type, outcome.object), warnings);
}
