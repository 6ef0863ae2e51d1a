/**
 * What a PATCH request says before anything is read from the store: its patch type from the
 * Content-Type (415 for one that is not a patch type), whether it is a dry run (422 for a bad
 * value), then the patch document itself, in the order kube-apiserver checks them.
 */
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { isDryRun } from "./query-options.ts";
import { decodePatch, mediaTypeOf, PATCH_MEDIA_TYPES, readBody, unsupportedMediaType, type PatchKind } from "./request-body.ts";

/** A PATCH request's patch. */
export interface PatchRequest {
  readonly kind: PatchKind;
  readonly patch: unknown;
  readonly dryRun: boolean;
}

/** Reads and checks the patch a PATCH request carries. */
export async function readPatchRequest(context: ServerContext, target: ResourceRequest): Promise<PatchRequest> {
  const mediaType = mediaTypeOf(target.request.headers.get("content-type"));
  const kind = PATCH_MEDIA_TYPES[mediaType as keyof typeof PATCH_MEDIA_TYPES];
  if (kind === undefined) throw unsupportedMediaType([...Object.keys(PATCH_MEDIA_TYPES), "application/apply-patch+yaml"]);
  const dryRun = isDryRun(context, target, "PatchOptions");
  const patch = decodePatch(await readBody(target.request), kind);
  return { kind, patch, dryRun };
}
