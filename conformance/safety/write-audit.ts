/**
 * Which writes of a run reached beyond what the run made (issue #14). A write is allowed only:
 * - inside a namespace the run created (`orb-conformance-…`, absent before the run), or to that
 *   namespace itself (its creation, deletion, finalize and status);
 * - as a POST to a review type (SubjectAccessReview, SelfSubjectAccessReview, TokenReview, …): a
 *   question, answered and stored nowhere (doc 1 §1 virtual types);
 * - to a cluster-scoped object of a type in CLUSTER_SCOPED_CREATES, created by the run under a name
 *   absent before it: cluster-scoped cases need objects outside any namespace, and delete them.
 * Requests are judged in the order the server received them, so a write must follow the creation
 * that made its target the run's.
 */
import { parseRequestTarget } from "../../sim/apiserver/routing/request-target.ts";
import type { ClusterSnapshot } from "./cluster-snapshot.ts";

/** A request as a server log or a transcript shows it. */
export interface AuditedRequest {
  readonly method: string;
  /** The path, with or without a query. */
  readonly path: string;
  /** metadata.name of the request body, when known. */
  readonly bodyName: string | undefined;
}

/** What the run wrote. */
export interface WriteAudit {
  /** The namespaces the run created. */
  readonly runNamespaces: readonly string[];
  /** Cluster-scoped objects the run created (`<resource>/<name>`). */
  readonly clusterObjects: readonly string[];
  /** Writes outside all of that: `METHOD path`. */
  readonly outside: readonly string[];
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const REVIEWS = new Set(["subjectaccessreviews", "selfsubjectaccessreviews", "localsubjectaccessreviews", "selfsubjectrulesreviews", "tokenreviews"]);
/** Cluster-scoped types the suite creates objects of, and why. */
export const CLUSTER_SCOPED_CREATES: Readonly<Record<string, string>> = {
  "/nodes": "the cases on cluster-scoped names and collections (crud/, discovery/) create Nodes of their own and delete them",
  "apiextensions.k8s.io/customresourcedefinitions": "the custom-resources/ cases define types of their own (groups named after their namespaces) and delete them",
};
const RUN_NAMESPACE = /^orb-conformance-[0-9a-f]+-\d+$/;

/** Judges every write in `requests` against what existed in `before`. */
export function auditWrites(requests: Iterable<AuditedRequest>, before: ClusterSnapshot): WriteAudit {
  const namespaces = new Set<string>();
  const clusterObjects = new Set<string>();
  const outside: string[] = [];
  const existed = (group: string, resource: string, name: string) => before.objects.has(`${group}/${resource} /${name}`);
  for (const request of requests) {
    if (!WRITES.has(request.method)) continue;
    const path = request.path.split("?")[0]!;
    const target = parseRequestTarget(path);
    const allowed = (() => {
      if (target.kind !== "resource") return false;
      if (target.namespace !== undefined) return namespaces.has(target.namespace);
      const name = target.name ?? request.bodyName;
      if (request.method === "POST" && target.name === undefined && REVIEWS.has(target.resource)) return true;
      if (name === undefined) return false;
      if (target.group === "" && target.resource === "namespaces") {
        if (request.method === "POST" && RUN_NAMESPACE.test(name) && !existed("", "namespaces", name)) namespaces.add(name);
        return namespaces.has(name);
      }
      const key = `${target.group}/${target.resource}/${name}`;
      if (request.method === "POST" && target.name === undefined && CLUSTER_SCOPED_CREATES[`${target.group}/${target.resource}`] !== undefined && !existed(target.group, target.resource, name)) {
        clusterObjects.add(key);
      }
      return clusterObjects.has(key);
    })();
    if (!allowed) outside.push(`${request.method} ${path}`);
  }
  return { runNamespaces: [...namespaces], clusterObjects: [...clusterObjects], outside };
}
