/**
 * The response seam of the planted defects (defects.ts): the defects that break how answers are
 * written wrap the server's handler, as a filter in front of it, so the representation, error and
 * health code has no trace of them. Each changes the request on its way in or the answer on its
 * way out; none touches a watch stream.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { decodeObject, hasProtobufPrefix } from "../protobuf/index.ts";
import { failure } from "../responses/api-error.ts";
import { negotiatedErrorResponse } from "../responses/representation.ts";
import { JSON_MEDIA_TYPE } from "../responses/media-negotiation.ts";
import type { DefectName } from "./defects.ts";
import { withOtherHeaders } from "../../transport/request-bytes.ts";

type Handler = (request: Request) => Promise<Response>;

/** `handle` with the response defects among `defects` planted (the same handler when there are none). */
export function withPlantedResponseDefects(handle: Handler, defects: ReadonlySet<DefectName>, dialect: Dialect): Handler {
  let planted = handle;
  const wrap = (next: (inner: Handler) => Handler) => {
    planted = next(planted);
  };
  if (defects.has("accept-list-first-only")) {
    // Planted defect "accept-list-first-only" (sim/apiserver/defects/defects.ts): the fallbacks of an Accept list are ignored.
    wrap((inner) => (request) => {
      const accept = request.headers.get("accept");
      if (accept === null || !accept.includes(",")) return inner(request);
      const headers = new Headers(request.headers);
      headers.set("accept", accept.split(",")[0]!);
      return inner(withOtherHeaders(request, headers));
    });
  }
  if (defects.has("gone-answered-as-500")) {
    // Planted defect "gone-answered-as-500" (sim/apiserver/defects/defects.ts): every 410 leaves as a 500.
    wrap((inner) => async (request) => {
      const response = await inner(request);
      if (response.status !== 410) return response;
      const message = statusMessage(new Uint8Array(await response.arrayBuffer()));
      return negotiatedErrorResponse(failure("InternalError", `Internal error occurred: ${message}`), request, dialect);
    });
  }
  if (defects.has("readyz-verbose-without-last-line")) {
    // Planted defect "readyz-verbose-without-last-line" (sim/apiserver/defects/defects.ts): the closing line is left out.
    wrap((inner) => async (request) => {
      const response = await inner(request);
      const url = new URL(request.url);
      if (url.pathname !== "/readyz" || !url.searchParams.has("verbose") || response.status !== 200) return response;
      const text = await response.text();
      return new Response(text.replace(/[^\n]*\n$/, ""), { status: 200, headers: response.headers });
    });
  }
  const writesObjects = (request: Request, response: Response) => response.status < 400 && !isWatch(request);
  if (defects.has("table-wrong-api-version")) {
    // Planted defect "table-wrong-api-version" (sim/apiserver/defects/defects.ts): a v1 Table leaves as v1beta1.
    wrap((inner) => async (request) => {
      const response = await inner(request);
      const askedForTable = (request.headers.get("accept") ?? "").includes("as=Table");
      if (!writesObjects(request, response) || !askedForTable || !(response.headers.get("content-type") ?? "").startsWith(JSON_MEDIA_TYPE)) return response;
      const text = await response.text();
      const v1 = `${dialect.metaGroup}/v1`;
      const body = JSON.parse(text) as { kind?: unknown; apiVersion?: unknown };
      const written = body.kind === "Table" && body.apiVersion === v1 ? text.replace(/("apiVersion":\s*")[^"]*(")/, `$1${dialect.metaGroup}/v1beta1$2`) : text;
      return new Response(written, { status: response.status, headers: response.headers });
    });
  }
  if (defects.has("protobuf-wrong-prefix")) {
    // Planted defect "protobuf-wrong-prefix" (sim/apiserver/defects/defects.ts): the fourth byte of the prefix is 0x01.
    wrap((inner) => async (request) => {
      const response = await inner(request);
      if (!writesObjects(request, response) || !(response.headers.get("content-type") ?? "").includes("protobuf")) return response;
      const body = new Uint8Array(await response.arrayBuffer());
      if (body.length >= 4) body[3] = 0x01;
      return new Response(body, { status: response.status, headers: response.headers });
    });
  }
  if (defects.has("content-type-always-json")) {
    // Planted defect "content-type-always-json" (sim/apiserver/defects/defects.ts): the served type is not named.
    wrap((inner) => async (request) => {
      const response = await inner(request);
      if (!writesObjects(request, response)) return response;
      const headers = new Headers(response.headers);
      headers.set("content-type", JSON_MEDIA_TYPE);
      return new Response(response.body, { status: response.status, headers });
    });
  }
  return planted;
}

/** A watch request (`?watch=1|true`, or the old `/watch/` path): its answer is a stream, never read here. */
function isWatch(request: Request): boolean {
  const url = new URL(request.url);
  return /^(1|true)$/i.test(url.searchParams.get("watch") ?? "") || url.pathname.includes("/watch/");
}

/** The message of a Status body, JSON or Protobuf. */
function statusMessage(body: Uint8Array): string {
  try {
    const status = hasProtobufPrefix(body) ? decodeObject(body).object : (JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>);
    return String(status["message"] ?? "");
  } catch {
    return "";
  }
}
