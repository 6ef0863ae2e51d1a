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
  | { readonly kind: "metrics" }
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
    decoded = decodePath(path).split("/").map(withoutNul);
  } catch {
    return { kind: "unknown" };
  }
  // Trailing slashes are dropped (kube-apiserver 1.26.4 lists at `configmaps//`); an empty segment
  // anywhere else names nothing (recorded 2026-11-25, found by `fuzz --target http`): `//api/...`
  // and `/apis//apps/v1` are the plain-text 404 of an unknown group, `/api//v1/...` and
  // `/namespaces/x//configmaps` a NotFound Status. Health check names keep theirs as written.
  if (decoded[0] === "") decoded.shift();
  while (decoded.length > 0 && decoded.at(-1) === "") decoded.pop();
  const emptyAt = decoded.indexOf("");
  const [root, ...rest] = emptyAt === -1 || ["healthz", "livez", "readyz"].includes(decoded[0]!) ? decoded.filter((segment) => segment !== "") : decoded;
  // The one empty segment Kubernetes reads: the namespace of `/namespaces//<resource>`, "" (the
  // router serves it as "every namespace" to a list and refuses it to anything else).
  const namespaceAt = root === "api" ? 2 : 3;
  const emptyNamespace = rest[namespaceAt - 1] === "namespaces" && rest[namespaceAt] === "" && rest.length > namespaceAt + 1;
  if (emptyAt !== -1 && rest.some((segment, index) => segment === "" && !(emptyNamespace && index === namespaceAt))) {
    if (root === "api") return { kind: "not-served", group: "" };
    if (root === "apis" && emptyAt > 1) return { kind: "not-served", group: rest[0]! };
    return { kind: "unknown" };
  }
  switch (root) {
    case "version":
      return rest.length === 0 ? { kind: "version" } : { kind: "unknown" };
    case "metrics":
      return rest.length === 0 ? { kind: "metrics" } : { kind: "unknown" };
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

/**
 * Whether a path has a `%` that does not start two hex digits. Go's server refuses such a request
 * line with its plain-text 400 before any handler (kube-apiserver 1.26.4, recorded 2026-11-25;
 * found by comparing with `fuzz --target http`: the embedded server answered 404).
 */
export function hasMalformedEscape(path: string): boolean {
  return /%(?![0-9a-fA-F]{2})/.test(path);
}

/**
 * The path decoded as Go decodes it, escape by escape to bytes; bytes that are not UTF-8 (`%ff`,
 * which Go keeps as it is) become U+FFFD rather than failing the whole path.
 */
function decodePath(path: string): string {
  // Without escapes or surrogates the bytes decode to the path itself: every request's path
  // passes here, and the byte walk below was 4% of a create (issue #20).
  if (!path.includes("%") && !SURROGATE.test(path)) return path;
  const bytes: number[] = [];
  for (let index = 0; index < path.length; index++) {
    if (path[index] === "%" && /^[0-9a-fA-F]{2}$/.test(path.slice(index + 1, index + 3))) {
      bytes.push(parseInt(path.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(...UTF8.encode(path[index]!));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

const UTF8 = new TextEncoder();
// Any surrogate, paired ones too: the walk above encodes one UTF-16 unit at a time, so a pair
// takes that path as it did before the shortcut.
const SURROGATE = /[\ud800-\udfff]/;

/**
 * A NUL (`%00`) in a segment, written as the four characters `\x00`. No object can have it in its
 * name or namespace (names are DNS names), so such a path names nothing, as in Kubernetes
 * (1.26.4: a list in namespace `%00` is empty, a get is 404 `configmaps "\x00" not found`, Go's %q
 * of the name, which these four characters also print as); the store takes no NUL in a key.
 */
function withoutNul(segment: string): string {
  return segment.includes("\u0000") ? segment.replaceAll("\u0000", "\\x00") : segment;
}

function groupVersionPath(group: string, version: string, rest: string[]): RequestTarget {
  if (rest.length === 0) return { kind: "resource-list", group, version };
  const base = { kind: "resource" as const, group, version };
  // `/namespaces/<ns>/<resource>[/<name>[/<subresource>]]`, except the namespace's own subresources.
  if (rest[0] === "namespaces" && rest.length >= 3 && (rest[1] === "" || !(rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2]!)))) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length > 0) return { kind: "not-served", group };
    return { ...base, namespace: namespace!, resource: resource!, ...(name !== undefined && { name }), ...(subresource !== undefined && { subresource }) };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (extra.length > 0) return { kind: "not-served", group };
  return { ...base, resource: resource!, ...(name !== undefined && { name }), ...(subresource !== undefined && { subresource }) };
}
