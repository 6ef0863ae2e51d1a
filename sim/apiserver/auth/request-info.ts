/**
 * What a request is, for authorization, read from its method, path and query exactly as
 * kube-apiserver's RequestInfoFactory.NewRequestInfo (k8s.io/apiserver pkg/endpoints/request/
 * requestinfo.go) reads it, before anything looks at whether the path names something served.
 *
 * kube-apiserver authorizes first and routes afterwards, so a caller who may not do something gets
 * 403 whether or not the thing exists (recorded from kube-apiserver 1.26.4, transcripts-security:
 * `/api/v1/namespaces/sec-a/nosuchthings`, `ConfigMaps`, `localsubjectaccessreviews`, the
 * `/api/v1/watch/` paths): a 404 would tell a caller without rights which resources exist.
 *
 * The rules, from requestinfo.go:
 * - the path is the decoded URL path (`%2F` is a slash, as Go's req.URL.Path has it), trimmed of
 *   slashes at both ends and split at every slash: inner empty segments stay (`ns//configmaps`
 *   names the resource "");
 * - fewer than 3 segments, or a first segment other than `api`/`apis`: a non-resource request on
 *   the path, verb the lowercase method;
 * - `/api/<version>/…` or `/apis/<group>/<version>/…` (the latter needs 4 segments);
 * - then `watch` or `proxy` as a segment is the verb (the deprecated `/api/v1/watch/…` paths);
 *   otherwise POST create, GET and HEAD get, PUT update, PATCH patch, DELETE delete, any other "";
 * - `namespaces/<ns>/…`: the namespace, and unless the next segment is `status` or `finalize`
 *   the rest is relative to it (so `/namespaces/<ns>` itself and its status are in namespace <ns>);
 * - the rest is resource/name/subresource; later segments are ignored (proxy takes no subresource);
 * - a get without a name is a watch (`watch` true) or a list, named by a fieldSelector
 *   `metadata.name=<name>` when there is one; a delete without a name is deletecollection.
 *
 * The router serves a resource only when its own reading of the path agrees with this one
 * (`sameRequest`), so the handler never acts on anything other than what was authorized.
 */
import { parseFieldSelector, supportedFieldSelectors } from "../request/field-selector.ts";
import { flag } from "../request/query-options.ts";
import type { RequestAttributes, ResourceAttributes } from "./authorize.ts";

const API_PREFIXES: ReadonlySet<string> = new Set(["api", "apis"]);
const GROUPLESS_API_PREFIXES: ReadonlySet<string> = new Set(["api"]);
const SPECIAL_VERBS: ReadonlySet<string> = new Set(["proxy", "watch"]);
const NAMESPACE_SUBRESOURCES: ReadonlySet<string> = new Set(["status", "finalize"]);
const METHOD_VERBS: Readonly<Record<string, string>> = { POST: "create", GET: "get", HEAD: "get", PUT: "update", PATCH: "patch", DELETE: "delete" };

/** The authorization attributes of a request, as kube-apiserver derives them. */
export function requestAttributes(method: string, url: URL, rawPath: string = url.pathname): RequestAttributes {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // Go refuses a malformed escape before any handler runs; here the router answers 404.
    return { kind: "nonResource", verb: method.toLowerCase(), path: rawPath };
  }
  const nonResource: RequestAttributes = { kind: "nonResource", verb: method.toLowerCase(), path };
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  let parts = trimmed === "" ? [] : trimmed.split("/");
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return nonResource;
  const prefix = parts[0]!;
  parts = parts.slice(1);
  let apiGroup = "";
  if (!GROUPLESS_API_PREFIXES.has(prefix)) {
    if (parts.length < 3) return nonResource;
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  parts = parts.slice(1); // the version
  let verb: string;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    // Kubernetes answers a bare `/api/v1/watch` with a 500 (no RequestInfo); nothing is served there.
    if (parts.length < 2) return nonResource;
    verb = parts[0]!;
    parts = parts.slice(1);
  } else {
    verb = METHOD_VERBS[method.toUpperCase()] ?? "";
  }
  let namespace = "";
  if (parts[0] === "namespaces" && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? "";
  let name = parts[1] ?? "";
  const subresource = parts.length >= 3 && verb !== "proxy" ? parts[2]! : "";
  if (name === "" && verb === "get") {
    verb = isWatch(url.searchParams) ? "watch" : "list";
    name = fieldSelectorName(url.searchParams, resource);
  }
  if (name === "" && verb === "delete") verb = "deletecollection";
  return {
    kind: "resource",
    verb,
    apiGroup,
    resource,
    ...(subresource !== "" && { subresource }),
    ...(namespace !== "" && { namespace }),
    ...(name !== "" && { name }),
  };
}

/**
 * Whether the router's reading of a request it is about to serve is the request `authorized`
 * describes: same verb, group, resource, subresource, namespace and name. A list or watch named
 * only by its fieldSelector (the handler filters by that selector) counts as the same.
 */
export function sameRequest(authorized: RequestAttributes, served: ResourceAttributes): boolean {
  if (authorized.kind !== "resource") return false;
  const same = (a: string | undefined, b: string | undefined) => (a ?? "") === (b ?? "");
  const nameMatches = same(authorized.name, served.name) || (served.name === undefined && (served.verb === "list" || served.verb === "watch"));
  return (
    authorized.verb === served.verb &&
    authorized.apiGroup === served.apiGroup &&
    authorized.resource === served.resource &&
    same(authorized.subresource, served.subresource) &&
    same(authorized.namespace, served.namespace) &&
    nameMatches
  );
}

/** `watch` as the list handler reads it; a value it refuses (400 later) reads as Go reads it: anything but false or 0. */
function isWatch(query: URLSearchParams): boolean {
  try {
    return flag(query, "watch");
  } catch {
    return !["false", "0"].includes((query.get("watch") ?? "").toLowerCase());
  }
}

/**
 * The name a fieldSelector pins (`metadata.name=<name>` or `==`), when the selector is one the
 * list handler accepts, and the name is a valid path segment (not `.`, `..`, no `/` or `%`);
 * otherwise "".
 */
function fieldSelectorName(query: URLSearchParams, resource: string): string {
  const text = query.get("fieldSelector");
  if (text === null) return "";
  try {
    const selector = parseFieldSelector(text, supportedFieldSelectors(resource));
    const pinned = selector.requirements.find((requirement) => requirement.field === "metadata.name" && requirement.operator !== "!=");
    const name = pinned?.value ?? "";
    return name === "." || name === ".." || name.includes("/") || name.includes("%") ? "" : name;
  } catch {
    return "";
  }
}
