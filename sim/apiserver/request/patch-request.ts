/**
 * What a PATCH request says before anything is read from the store: its patch type from the
 * Content-Type (415 for one that is not a patch type), its options (422: a dryRun value, a force
 * on a patch that is not an apply patch, an apply patch without fieldManager), then the patch
 * document itself, in the order kube-apiserver checks them.
 */
import { parseDocument } from "yaml";
import { badRequest, failure } from "../responses/api-error.ts";
import { customResourcePatchMediaTypes } from "../patch/strategic-merge-patch.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { exceedsNestingDepth } from "./nesting-depth.ts";
import { isDryRun } from "./query-options.ts";
import { decodePatch, mediaTypeOf, PATCH_MEDIA_TYPES, readBody, unsupportedMediaType, type PatchKind } from "./request-body.ts";
import { yamlDepthExcess } from "./yaml-nesting-depth.ts";

/** The Content-Type of server-side apply (doc 1 §1's apply verb; clause doc1/1/verbs/apply/content-type). */
export const APPLY_PATCH_MEDIA_TYPE = "application/apply-patch+yaml";

/** A PATCH request's patch: one of the three patch types, or an applied configuration. */
export type PatchRequest =
  | { readonly kind: PatchKind; readonly patch: unknown; readonly dryRun: boolean }
  | {
      readonly kind: "apply";
      /** The applied configuration (YAML, of which JSON is a part). */
      readonly configuration: Record<string, unknown>;
      readonly dryRun: boolean;
      readonly fieldManager: string;
      readonly force: boolean;
    };

/** Reads and checks the patch a PATCH request carries. */
export async function readPatchRequest(context: ServerContext, target: ResourceRequest): Promise<PatchRequest> {
  const mediaType = mediaTypeOf(target.request.headers.get("content-type"));
  if (mediaType === APPLY_PATCH_MEDIA_TYPE) {
    const dryRun = isDryRun(context, target, "PatchOptions", true);
    const configuration = decodeConfiguration(await readBody(target.request));
    return { kind: "apply", configuration, dryRun, fieldManager: target.query.get("fieldManager")!, force: isTrue(target.query.get("force")) };
  }
  const kind = PATCH_MEDIA_TYPES[mediaType as keyof typeof PATCH_MEDIA_TYPES];
  if (kind === undefined) {
    // A built-in type's routes take only their patch types, and go-restful answers its own 415
    // (recorded: apply/recorded/, patch-unknown-type); a custom resource's handler lists its types.
    if (target.type.custom !== undefined) throw unsupportedMediaType(customResourcePatchMediaTypes);
    throw failure("UnsupportedMediaType", "415: Unsupported Media Type", {});
  }
  const dryRun = isDryRun(context, target, "PatchOptions");
  const patch = decodePatch(await readBody(target.request), kind);
  return { kind, patch, dryRun };
}

/** An apply patch's body: YAML or JSON; an object (Kubernetes: "error decoding YAML" 400). */
function decodeConfiguration(bytes: Uint8Array): Record<string, unknown> {
  const text = new TextDecoder().decode(bytes);
  const excess = yamlDepthExcess(text);
  if (excess !== undefined) throw badRequest(`error decoding YAML: yaml: line ${excess.line}: exceeded max depth`);
  // YAML 1.1, as go-yaml v2 reads it for kube-apiserver: `y`, `on`, `no` are booleans (recorded:
  // a key `y` is applied as "true").
  const document = parseDocument(text, { version: "1.1", logLevel: "error" });
  if (document.errors.length > 0) throw badRequest(`error decoding YAML: ${document.errors[0]!.message}`);
  const value: unknown = document.toJS();
  if (exceedsNestingDepth(value)) throw badRequest("error decoding YAML: exceeded max depth");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("error decoding YAML: the applied configuration is not an object");
  }
  return value as Record<string, unknown>;
}

// Go's strconv.ParseBool spellings of true, as the query decoder reads a bool.
function isTrue(value: string | null): boolean {
  return value !== null && ["1", "t", "T", "true", "TRUE", "True"].includes(value);
}
