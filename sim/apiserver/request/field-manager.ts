/**
 * Who a write is recorded as in metadata.managedFields: the `fieldManager` parameter, else the
 * request's User-Agent product (Kubernetes' managerOrUserAgent; recorded: a PUT from
 * `kubectl-edit/v1.26.4 ...` is manager `kubectl-edit`, a PATCH from `curl/8.0.1` is `curl`).
 */
import { managerFromUserAgent } from "../registry/managed-fields-tracking.ts";
import type { ResourceRequest } from "../server-context.ts";

/** The manager of a create, update or non-apply patch. */
export function fieldManagerOf(target: Pick<ResourceRequest, "query" | "request">): string {
  const named = target.query.get("fieldManager");
  return named !== null && named !== "" ? named : managerFromUserAgent(target.request.headers.get("user-agent"));
}
