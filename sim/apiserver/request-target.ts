/**
 * What a request path names (doc 1 §4.1 path shapes, §9.1 versioning): a discovery document, a
 * health endpoint, or a resource type with optional namespace, name and subresource.
 */

/** A request for one resource type's collection, object or subresource. */
export interface ResourceTarget {
  readonly kind: "resource";
  readonly group: string;
  readonly version: string;
  /** The plural, e.g. "pods". */
  readonly resource: string;
  /** The namespace in the path (`/namespaces/<ns>/...`), if any. */
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

/** What a path names. */
export type RequestTarget =
  | ResourceTarget
  | { readonly kind: "version" }
  | { readonly kind: "core-versions" }
  | { readonly kind: "group-list" }
  | { readonly kind: "group"; readonly group: string }
  | { readonly kind: "resource-list"; readonly group: string; readonly version: string }
  | { readonly kind: "health"; readonly endpoint: "healthz" | "livez" | "readyz"; readonly check?: string }
  | { readonly kind: "openapi"; readonly path: string }
  /** A path under `/api` or `/apis/<group>` that names nothing served (too deep, or an empty group). */
  | { readonly kind: "not-served"; readonly group: string }
  | { readonly kind: "unknown" };

// Subresources of namespaces, which would otherwise read as `/namespaces/<ns>/<resource>`.
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

/** Parses a URL path (already without query) into what it names. */
export function parseRequestTarget(path: string): RequestTarget {
  // Decoded before it is split, as Go's req.URL.Path is: an encoded slash separates segments like
  // any other (kube-apiserver 1.26.4: `configmaps%2Fx` is `configmaps/x`), so it can never smuggle
  // a slash into a name or namespace.
  let decoded: string[];
  try {
    decoded = decodeURIComponent(path)
      .split("/")
      .filter((segment) => segment !== "");
  } catch {
    return { kind: "unknown" };
  }
  const [root, ...rest] = decoded;
  switch (root) {
    case "version":
      return rest.length === 0 ? { kind: "version" } : { kind: "unknown" };
    case "healthz":
    case "livez":
    case "readyz":
      // Check names may contain slashes (`poststarthook/rbac/bootstrap-roles`), kept as they are.
      return rest.length === 0 ? { kind: "health", endpoint: root } : { kind: "health", endpoint: root, check: rest.join("/") };
    case "openapi":
      return { kind: "openapi", path };
    case "api":
      if (rest.length === 0) return { kind: "core-versions" };
      return groupVersionPath("", rest[0]!, rest.slice(1));
    case "apis":
      if (rest.length === 0) return { kind: "group-list" };
      if (rest.length === 1) return { kind: "group", group: rest[0]! };
      return groupVersionPath(rest[0]!, rest[1]!, rest.slice(2));
    default:
      return { kind: "unknown" };
  }
}

function groupVersionPath(group: string, version: string, rest: string[]): RequestTarget {
  if (rest.length === 0) return { kind: "resource-list", group, version };
  const base = { kind: "resource" as const, group, version };
  // `/namespaces/<ns>/<resource>[/<name>[/<subresource>]]`, except the namespace's own subresources.
  if (rest[0] === "namespaces" && rest.length >= 3 && !(rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2]!))) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length > 0) return { kind: "not-served", group };
    return { ...base, namespace: namespace!, resource: resource!, ...(name !== undefined && { name }), ...(subresource !== undefined && { subresource }) };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (extra.length > 0) return { kind: "not-served", group };
  return { ...base, resource: resource!, ...(name !== undefined && { name }), ...(subresource !== undefined && { subresource }) };
}
