/**
 * Routing: what the path names (doc 1 §4.1), which verb the method makes of it (doc 1 §1: a GET
 * with `watch` is a watch; GET of a collection is list), and the handler that answers.
 */
import { badRequest, methodNotAllowed, pathNotFound } from "../responses/api-error.ts";
import { handleCreate } from "../handlers/create-handler.ts";
import { handleDelete, handleDeleteCollection } from "../handlers/delete-handler.ts";
import { handleEviction } from "../handlers/eviction-handler.ts";
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from "../discovery/discovery.ts";
import { jsonResponse, pageNotFound } from "../responses/http-response.ts";
import { openApiResponse } from "../discovery/openapi-endpoint.ts";
import { flag } from "../request/query-options.ts";
import { handleGet, handleList } from "../handlers/read-handlers.ts";
import { hasMalformedEscape, parseRequestTarget, type ResourceTarget } from "./request-target.ts";
import type { Verb } from "./resource-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { serverVersion, type BuildInfo } from "../discovery/server-version.ts";
import { handlePatch } from "../handlers/patch-handler.ts";
import { handleUpdate } from "../handlers/update-handler.ts";
import { handleWatch } from "../handlers/watch-stream.ts";
import { checkAccess, removeImpersonationHeaders, requestAttributes, sameRequest, type AccessDecision, type RequestAttributes } from "../auth/index.ts";
import { healthResponse } from "../health/index.ts";
import { handleReview } from "../handlers/review-handler.ts";
import { handleScaleGet, handleScalePatch, handleScaleUpdate } from "../handlers/scale-handler.ts";
import { SCALE_SUBRESOURCE } from "../registry/scale-subresource.ts";
import { metricsResponse } from "../health/metrics-endpoint.ts";
import { requestPath } from "./request-path.ts";
import { WRITE_VERBS } from "../defects/write-pipeline.ts";

type Handler = (context: ServerContext, target: ResourceRequest) => Promise<Response>;

/** Answers a request, or throws an ApiError. */
export async function routeRequest(context: ServerContext, build: BuildInfo, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = requestPath(request, url);
  // Go's server refuses a path it cannot unescape before anything else sees the request.
  if (hasMalformedEscape(path)) return goBadRequest();
  // Authorized before it is routed, as kube-apiserver reads the request (auth/request-info.ts): a
  // caller without rights gets 403 whether or not the path names something served (doc 1 §5;
  // health paths skip it, §5.3; transcripts-security).
  const authorized = requestAttributes(request.method, url, path);
  const access = checkAccess(context.auth, request.headers, authorized);
  if (!access.allowed) throw access.error;
  const target = parseRequestTarget(path);
  if (target.kind === "resource") return routeResource(context, request, url, target, authorized, access);
  spendImpersonation(request, access);
  const { registry, dialect } = context;
  switch (target.kind) {
    case "version":
      getOnly(request);
      return jsonResponse(200, serverVersion(dialect, build));
    case "metrics":
      return metricsResponse(context);
    case "core-versions":
      getOnly(request);
      return jsonResponse(200, apiVersions(url.host));
    case "group-list":
      getOnly(request);
      return jsonResponse(200, apiGroupList(registry, dialect));
    case "group": {
      const group = apiGroup(registry, target.group);
      if (group === undefined) return pageNotFound();
      getOnly(request);
      return jsonResponse(200, group);
    }
    case "resource-list": {
      const list = apiResourceList(registry, target.group, target.version);
      if (list === undefined) return notServed(context, target.group);
      getOnly(request);
      return jsonResponse(200, list);
    }
    case "not-served":
      return notServed(context, target.group);
    case "openapi":
      return openApiResponse(context, request, url, target.path);
    case "health": {
      const answer = healthResponse(context.health, target.endpoint, target.check, url.searchParams);
      return new Response(answer.body, { status: answer.status, headers: { "content-type": answer.contentType } });
    }
    case "unknown":
      return pageNotFound();
  }
}

async function routeResource(
  context: ServerContext,
  request: Request,
  url: URL,
  target: ResourceTarget,
  authorized: RequestAttributes,
  authorizedAccess: AccessDecision,
): Promise<Response> {
  const type = context.registry.find(target.group, target.version, target.resource);
  if (type === undefined) {
    return notServed(context, target.group);
  }
  // `/namespaces//<resource>`: kube-apiserver 1.26.4 lists and watches every namespace there and
  // refuses a named object (recorded 2026-11-25; found by comparing with `fuzz --target http`).
  // Writes to the collection are refused too, rather than reaching every namespace.
  if (target.namespace === "") {
    if (target.name !== undefined || request.method !== "GET") throw badRequest("Namespace parameter required.");
    const { namespace: _empty, ...everywhere } = target;
    target = everywhere;
  }
  if (!type.namespaced && target.namespace !== undefined) throw pathNotFound();
  if (target.subresource !== undefined && type.subresources[target.subresource] === undefined) throw pathNotFound();
  const resourceRequest: ResourceRequest = {
    request,
    query: url.searchParams,
    type,
    ...(target.namespace !== undefined && { namespace: target.namespace }),
    ...(target.name !== undefined && { name: target.name }),
    ...(target.subresource !== undefined && { subresource: target.subresource }),
  };
  const [verb, handler] = type.virtual === true ? reviewVerb(request.method, resourceRequest) : verbOf(request.method, resourceRequest);
  const allowed = target.subresource === undefined ? type.verbs : type.subresources[target.subresource]!;
  // The request was authorized before routing, with the verb kube-apiserver gives its method ("" for
  // an unknown one), so a stranger already got 403 and an allowed caller gets 405 here
  // (transcripts method-unknown-anonymous, method-unknown-resource).
  if (verb === undefined || handler === undefined || !allowed.includes(verb)) throw methodNotAllowed();
  // A dry run is authorized as the request it imitates (doc 1 §4.4.6, §5.1): the verb is the same.
  const routed = {
    kind: "resource" as const,
    verb,
    apiGroup: type.group,
    resource: type.resource,
    ...(target.subresource !== undefined && { subresource: target.subresource }),
    // Kubernetes authorizes a Namespace object as living in itself.
    ...((type.kind === "Namespace" ? target.name : target.namespace) !== undefined && { namespace: (type.kind === "Namespace" ? target.name : target.namespace)! }),
    ...(target.name !== undefined && { name: target.name }),
  };
  // Where the router reads the path otherwise than kube-apiserver (a watch on an object's own
  // path, doubled slashes), what it serves is authorized as well, so nothing unauthorized is served.
  const access = sameRequest(authorized, routed) ? authorizedAccess : checkAccess(context.auth, request.headers, routed);
  if (!access.allowed) throw access.error;
  spendImpersonation(request, access);
  const served = access.user === undefined ? resourceRequest : { ...resourceRequest, user: access.user };
  // Planted concurrency defects (sim/apiserver/defects/defects.ts) that need writes to wait for storage: write-pipeline.ts.
  if (context.writePipeline !== undefined && WRITE_VERBS.has(verb)) return context.writePipeline.run(context.store, () => handler(context, served));
  return handler(context, served);
}

/**
 * The 404 for a path that names nothing served: plain text under `/apis/<group>` for a group the
 * server does not serve, a NotFound Status anywhere else under `/api` and `/apis` (transcripts
 * unknown-group, unknown-resource; kube-apiserver 1.26.4 answers a Status for `/api/v2/x`,
 * `/apis/apps/v9/x` and paths too deep, recorded 2026-11-25).
 */
function notServed(context: ServerContext, group: string): Response {
  if (group !== "" && apiGroup(context.registry, group) === undefined) return pageNotFound();
  throw pathNotFound();
}

/** Go's answer to a request line it cannot parse: plain text, no Status (as parser-refusals.ts writes it). */
function goBadRequest(): Response {
  return new Response("400 Bad Request", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * /version and the discovery documents are GET routes: kube-apiserver 1.26.4 answers any other
 * method, HEAD included, 405 MethodNotAllowed (recorded 2026-11-25; found by `fuzz --target http`
 * comparing the embedded server with a real one: HEAD /version answered 200).
 */
function getOnly(request: Request): void {
  if (request.method !== "GET") throw methodNotAllowed();
}

/** Kubernetes removes the Impersonate-* headers once honoured, so nothing after it acts on them again. */
function spendImpersonation(request: Request, access: AccessDecision): void {
  if (access.allowed && access.impersonatedBy !== undefined) removeImpersonationHeaders(request.headers);
}

/** Virtual types take a POST to their collection and nothing else. */
function reviewVerb(method: string, target: ResourceRequest): [Verb | undefined, Handler | undefined] {
  return method === "POST" && target.name === undefined ? ["create", handleReview] : [undefined, undefined];
}

/** The verb a method makes of a target, and its handler (doc 1 §1). */
function verbOf(method: string, target: ResourceRequest): [Verb | undefined, Handler | undefined] {
  const hasName = target.name !== undefined;
  const sub = target.subresource;
  switch (method) {
    case "GET":
      // The scale subresource has no watch: kube-apiserver 1.26.4 answers `?watch=true` with the
      // Scale (transcript scale-list in transcripts-scale-and-reviews.jsonl).
      if (sub === SCALE_SUBRESOURCE) return ["get", handleScaleGet];
      if (flag(target.query, "watch")) return ["watch", handleWatch];
      return hasName ? ["get", handleGet] : ["list", handleList];
    case "POST":
      if (sub === "eviction") return ["create", handleEviction];
      return hasName ? [undefined, undefined] : ["create", handleCreate];
    case "PUT":
      if (!hasName) return [undefined, undefined];
      return ["update", sub === SCALE_SUBRESOURCE ? handleScaleUpdate : handleUpdate];
    case "PATCH":
      if (!hasName) return [undefined, undefined];
      return ["patch", sub === SCALE_SUBRESOURCE ? handleScalePatch : handlePatch];
    case "DELETE":
      if (sub !== undefined) return [undefined, undefined];
      return hasName ? ["delete", handleDelete] : ["deletecollection", handleDeleteCollection];
    default:
      return [undefined, undefined];
  }
}
