/**
 * What a PUT request says: its media type (415), whether it is a dry run (422 for a bad value),
 * then the object it carries, which must name the URL's object (Kubernetes' checkName, recorded
 * from 1.26.4, 2026-11-25; found by comparing with `fuzz --target http`: a body without a name
 * used to update the URL's object). In the order kube-apiserver checks them.
 */
import { badRequest } from "../responses/api-error.ts";
import { requestSerialization } from "../responses/representation.ts";
import { metadataOf } from "../registry/object-stamping.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { isDryRun } from "./query-options.ts";
import { decodeRequestObject } from "./request-object.ts";

/** A PUT request's object. */
export interface UpdateRequest {
  readonly object: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  /** The Warning headers its unknown fields earn. */
  readonly warnings: Record<string, string>;
  readonly dryRun: boolean;
}

/** Reads and checks the object a PUT of `name` carries, decoded as `target`'s type. */
export async function readUpdateRequest(context: ServerContext, target: ResourceRequest, name: string): Promise<UpdateRequest> {
  requestSerialization(context, target);
  const dryRun = isDryRun(context, target, "UpdateOptions");
  const { object, warnings } = await decodeRequestObject(context, target);
  const metadata = metadataOf(object);
  const bodyName = metadata["name"];
  if (bodyName === undefined || bodyName === "") throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (bodyName !== name) throw badRequest(`the name of the object (${String(bodyName)}) does not match the name on the URL (${name})`);
  return { object, metadata, warnings, dryRun };
}
