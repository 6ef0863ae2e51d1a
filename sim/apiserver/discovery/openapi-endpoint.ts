/**
 * The answers under `/openapi` (Kubernetes behaviour, kube-apiserver 1.26.4 as recorded in
 * openapi-data/negotiation.json): the documents of openapi.ts, negotiated by Accept as
 * kube-openapi's handlers do (the first Accept clause, by quality, that names a form served).
 *
 * - `/openapi/v2`: JSON (for `application/json`, `application/*`, `*` + `/*` or no Accept) or
 *   gnostic's Protobuf (for `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, what
 *   kubectl asks for first; openapi-v2-protobuf.ts), with the Content-Types Go's
 *   http.ServeContent sniffs (`text/plain; charset=utf-8`, `application/octet-stream`), one ETag
 *   for both (the SHA-512 of the JSON) and `If-None-Match` answered 304. Any other Accept: 406
 *   with an empty body.
 * - `/openapi/v3/<api path>`: JSON only. kube-apiserver also serves gnostic's v3 Protobuf
 *   (`application/com.github.proto-openapi.spec.v3@v1.0+protobuf`), which no kubectl or client-go
 *   asks for; here that Accept alone gets the 406 kube-apiserver gives a form it cannot serve.
 *   `?hash=H` with a hash that is not the document's is redirected (301) to the current one; the
 *   current one is answered cacheable for a year (`Cache-Control: public, immutable`). A
 *   group/version not served: 404 with an empty body.
 * - `/openapi/v3`: the index, JSON whatever Accept says.
 */
import type { ServerContext } from "../server-context.ts";
import { customResourceDefinitionsType } from "../routing/custom-resources.ts";
import { storageKey } from "../registry/stored-resource.ts";
import { pageNotFound } from "../responses/http-response.ts";
import { OpenApiDocuments, openApiTarget, type CustomSchemaSource } from "./openapi.ts";
import type { JsonSchema } from "./openapi-schemas.ts";

const documentsByServer = new WeakMap<ServerContext, { readonly revision: number; readonly documents: OpenApiDocuments }>();

/**
 * The documents of the server `context` belongs to, built on first use and again after the served
 * custom types changed (a definition created, updated or deleted), so clients see them at once.
 */
export function serverOpenApiDocuments(context: ServerContext): OpenApiDocuments {
  const cached = documentsByServer.get(context);
  if (cached !== undefined && cached.revision === context.registry.revision) return cached.documents;
  const documents = new OpenApiDocuments(context.registry, context.dialect, definitionSchemas(context));
  documentsByServer.set(context, { revision: context.registry.revision, documents });
  return documents;
}

/** Answers a request for `path` (an `/openapi` path, without query). */
export function openApiResponse(context: ServerContext, request: Request, url: URL, path: string): Response {
  const target = openApiTarget(path);
  const documents = serverOpenApiDocuments(context);
  switch (target.kind) {
    case "unknown":
      return pageNotFound();
    case "v3-unknown":
      return empty(404);
    case "v3-index":
      return new Response(JSON.stringify(documents.v3Index()), { status: 200, headers: { ...NOT_CACHED, "content-type": SNIFFED_JSON } });
    case "v2": {
      const form = negotiate(request.headers.get("accept"), V2_FORMS);
      if (form === undefined) return empty(406, { vary: "Accept" });
      const { body, hash } = documents.v2();
      return form === "json" ? served(request, body, hash, SNIFFED_JSON, NOT_CACHED) : served(request, documents.v2Protobuf(), hash, SNIFFED_BINARY, NOT_CACHED);
    }
    case "v3": {
      const document = documents.groupVersion(target.group, target.version);
      if (document === undefined) return empty(404);
      if (negotiate(request.headers.get("accept"), V3_FORMS) === undefined) return empty(406, { vary: "Accept" });
      const asked = url.searchParams.get("hash");
      if (asked !== null && asked !== document.hash) return redirect(request, `${path}?hash=${document.hash}`, document.hash);
      const caching =
        asked === null
          ? NOT_CACHED
          : { "cache-control": "public, immutable", expires: new Date(context.clock.nowMs() + ONE_YEAR_MS).toUTCString().replace("GMT", "UTC") };
      return served(request, document.body, document.hash, SNIFFED_JSON, caching);
    }
  }
}

// Go's http.ServeContent sniffs the Content-Type (kube-apiserver sets none): JSON reads as plain text.
const SNIFFED_JSON = "text/plain; charset=utf-8";
const SNIFFED_BINARY = "application/octet-stream";
const NOT_CACHED = { "cache-control": "no-cache, private" };
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** A form a document is served in, and the media type that asks for it. */
export type Form = "json" | "protobuf";
const V2_FORMS: ReadonlyArray<[string, Form]> = [
  ["application/json", "json"],
  ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf", "protobuf"],
];
const V3_FORMS: ReadonlyArray<[string, Form]> = [["application/json", "json"]];

function served(request: Request, body: string | Uint8Array, hash: string, contentType: string, caching: Readonly<Record<string, string>>): Response {
  const etag = `"${hash}"`;
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { ...caching, etag, vary: "Accept" } });
  return new Response(body, { status: 200, headers: { ...caching, "accept-ranges": "bytes", "content-type": contentType, etag, vary: "Accept" } });
}

// Go's http.Redirect: a short HTML body for GET and HEAD.
function redirect(request: Request, location: string, hash: string): Response {
  const escaped = location.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&#34;").replaceAll("'", "&#39;");
  const body = request.method === "GET" || request.method === "HEAD" ? `<a href="${escaped}">Moved Permanently</a>.\n\n` : null;
  return new Response(body, { status: 301, headers: { ...NOT_CACHED, "content-type": "text/html; charset=utf-8", etag: `"${hash}"`, location, vary: "Accept" } });
}

function empty(status: number, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(null, { status, headers: { ...NOT_CACHED, ...headers } });
}

/**
 * The form an Accept header asks for among `forms`, as kube-openapi negotiates (goautoneg): the
 * clauses by quality, highest first (a wildcard after a named type of the same quality), and
 * the first clause that matches a form, in the order `forms` lists them; no header is `*` + `/*`.
 * Undefined when no clause matches (406).
 */
export function negotiate(accept: string | null, forms: ReadonlyArray<readonly [string, Form]>): Form | undefined {
  const header = accept === null || accept.trim() === "" ? "*/*" : accept;
  const clauses = header
    .split(",")
    .map((clause, order) => {
      const [range = "", ...parameters] = clause.split(";").map((part) => part.trim());
      const [type = "", subtype = ""] = range.toLowerCase().split("/");
      const quality = parameters.find((parameter) => /^q\s*=/i.test(parameter));
      const q = quality === undefined ? 1 : Number(quality.slice(quality.indexOf("=") + 1));
      return { type, subtype, q: Number.isNaN(q) ? 0 : q, order };
    })
    .sort((a, b) => b.q - a.q || wildcards(a) - wildcards(b) || a.order - b.order);
  for (const clause of clauses) {
    for (const [mediaType, form] of forms) {
      const [type, subtype] = mediaType.split("/");
      if ((clause.type === type || clause.type === "*") && (clause.subtype === subtype || clause.subtype === "*")) return form;
    }
  }
  return undefined;
}

function wildcards(clause: { type: string; subtype: string }): number {
  return (clause.type === "*" ? 1 : 0) + (clause.subtype === "*" ? 1 : 0);
}

// A custom resource's schema: the `openAPIV3Schema` of the served version in its stored definition.
function definitionSchemas(context: ServerContext): CustomSchemaSource {
  return (type) => {
    if (type.custom !== undefined) return type.custom.schema as JsonSchema | undefined;
    const definition = context.store.get(storageKey(customResourceDefinitionsType, undefined, `${type.resource}.${type.group}`));
    const versions = (definition?.["spec"] as { versions?: unknown } | undefined)?.versions;
    if (!Array.isArray(versions)) return undefined;
    const version = versions.find((entry: { name?: unknown } | null) => entry?.name === type.version) as { schema?: { openAPIV3Schema?: unknown } } | undefined;
    const schema = version?.schema?.openAPIV3Schema;
    return schema !== null && typeof schema === "object" && !Array.isArray(schema) ? (schema as JsonSchema) : undefined;
  };
}
