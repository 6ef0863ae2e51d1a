/**
 * Content negotiation (doc 1 §4.3): which representation a response takes, from the request's
 * Accept header and what the server offers for the request, and which request bodies it reads
 * (Content-Type). Kubernetes 1.26 does this in two steps, both reproduced here:
 *
 * 1. The route (go-restful) checks that some media range of the Accept header, parameters
 *    dropped, is `*` + `/` + `*` or one of the route's representations; if none is, 406 with
 *    `406: Not Acceptable\n\nAvailable representations: ...` and empty details (transcript
 *    accept-xml: a collection route lists the `;stream=watch` types too).
 * 2. The handler walks the Accept clauses, best quality first, and takes the first one a
 *    serializer (JSON, YAML, the binary envelope) accepts together with its parameters: `as`/`g`/`v`
 *    (a Table, JSON or YAML only, for a type that has one; PartialObjectMetadata), `stream=watch`
 *    (serializers that stream), `pretty=1`. If none, 406 `only the following media types are
 *    accepted: ...` without details (transcript table-sar-only). A watch also needs a streaming
 *    serializer: YAML is 406 there.
 *
 * What the response's Content-Type is (transcripts): the serializer's media type alone
 * (`application/json` even for a Table or a JSON watch: table-*, watch-as-table,
 * watch-initial-state), with `;stream=watch` only for the binary envelope's watch
 * (watch-protobuf).
 *
 * Where this differs from Kubernetes 1.26, on purpose:
 * - `application/*` passes the route check (go-restful compares media types literally, so
 *   Kubernetes answers 406); it then selects JSON, as Kubernetes' own handler would.
 * - A clause with `q=0` is skipped (RFC 9110 §12.4.2: not acceptable); Kubernetes only sorts it last.
 * - Media types and parameter names are compared case-insensitively (RFC 9110); Kubernetes
 *   compares them as written.
 * - `as=PartialObjectMetadata`/`PartialObjectMetadataList` is honoured only when the caller says
 *   it can produce them (`MediaOffer.partialObjectMetadata`); Kubernetes always can.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { failure, type ApiError } from "./api-error.ts";
import { unsupportedMediaType } from "../request/request-body.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { metaApiVersion, type MetaVersion } from "../table/partial-object-metadata.ts";
import { goIndentedJson } from "./go-text.ts";

export const JSON_MEDIA_TYPE = "application/json";
export const YAML_MEDIA_TYPE = "application/yaml";
/** The parameter that asks for, and marks, a watch stream's framing. */
export const STREAM_WATCH = "stream=watch";

/** The wire encodings of a response body. */
export type Serialization = "json" | "yaml" | "protobuf";

/** What the server can produce for one request. */
export interface MediaOffer {
  readonly dialect: Pick<Dialect, "protobufMediaType" | "metaGroup">;
  /** Whether the binary envelope is offered (built-in types: true; doc 1 §4.3 rule 2). */
  readonly protobuf: boolean;
  /**
   * Whether the type has a Table representation. Every served resource type does; virtual types
   * (SubjectAccessReview and the like) do not: a request that accepts only a Table is then 406
   * (transcript table-sar-only).
   */
  readonly table: boolean;
  /** The request is a watch: the answer must stream (JSON lines, or the framed binary envelope). */
  readonly watch?: boolean;
  /** The request is a GET on a collection path (list or watch): its route also offers the stream types. */
  readonly collection?: boolean;
  /** Whether `as=PartialObjectMetadata` / `PartialObjectMetadataList` may be chosen (default false). */
  readonly partialObjectMetadata?: boolean;
}

/**
 * Whether a type has a Table representation: every stored type does (its own columns or the
 * default Name/Created At); a virtual type (`ResourceType.virtual`: SubjectAccessReview and the
 * like, doc 1 §1) has none, so Kubernetes answers 406 to a request that accepts only a Table.
 */
export function hasTableRepresentation(type: Pick<ResourceType, "virtual">): boolean {
  return type.virtual !== true;
}

/**
 * What the server offers for a request on a served type: JSON, YAML, the binary envelope (every
 * built-in type, virtual ones included: transcript table-sar-only lists it) and, for stored
 * types, the Table. `request` says whether it is a watch or a GET on a collection path.
 */
export function offerFor(
  type: Pick<ResourceType, "virtual">,
  dialect: Pick<Dialect, "protobufMediaType" | "metaGroup">,
  request: { readonly watch?: boolean; readonly collection?: boolean; readonly partialObjectMetadata?: boolean } = {},
): MediaOffer {
  return { dialect, protobuf: true, table: hasTableRepresentation(type), ...request };
}

interface ChoiceCommon {
  /** The Content-Type header of the response, exactly as Kubernetes sends it. */
  readonly contentType: string;
  /** `pretty=1` was among the chosen clause's parameters (indented output). */
  readonly pretty: boolean;
  /** The answer is a watch stream. */
  readonly watch: boolean;
}

/** The object itself, in one of the serializations. */
export type PlainChoice = ChoiceCommon &
  (
    | { readonly kind: "json"; readonly serialization: "json" }
    | { readonly kind: "yaml"; readonly serialization: "yaml" }
    | { readonly kind: "protobuf"; readonly serialization: "protobuf" }
  );

/** The Table representation (doc 1 §2.5), in JSON or YAML. */
export interface TableChoice extends ChoiceCommon {
  readonly kind: "table";
  readonly serialization: "json" | "yaml";
  /** v1, or v1beta1 (which Kubernetes 1.26 still serves: kubectl lists it second). */
  readonly version: MetaVersion;
  /** The Table's apiVersion: `<meta group>/<version>`. */
  readonly apiVersion: string;
}

/** The object's metadata only (PartialObjectMetadata, or PartialObjectMetadataList for a collection). */
export interface PartialObjectMetadataChoice extends ChoiceCommon {
  readonly kind: "partial-object-metadata" | "partial-object-metadata-list";
  readonly serialization: Serialization;
  readonly version: MetaVersion;
  readonly apiVersion: string;
}

/** The representation chosen for a response. */
export type MediaChoice = PlainChoice | TableChoice | PartialObjectMetadataChoice;

interface Serializer {
  readonly serialization: Serialization;
  readonly mediaType: string;
  readonly type: string;
  readonly subType: string;
  /** Whether it can frame a watch stream (JSON and the binary envelope can; YAML cannot). */
  readonly streams: boolean;
}

function serializers(offer: Pick<MediaOffer, "dialect" | "protobuf">): Serializer[] {
  const make = (serialization: Serialization, mediaType: string, streams: boolean): Serializer => {
    const [type = "", subType = ""] = mediaType.toLowerCase().split("/");
    return { serialization, mediaType, type, subType, streams };
  };
  return [
    make("json", JSON_MEDIA_TYPE, true),
    make("yaml", YAML_MEDIA_TYPE, false),
    ...(offer.protobuf ? [make("protobuf", offer.dialect.protobufMediaType, true)] : []),
  ];
}

/**
 * The media types the server produces, in its order (JSON, YAML, the binary envelope when
 * offered): the list of the 406 `only the following media types are accepted` and of the 415.
 */
export function servedMediaTypes(offer: Pick<MediaOffer, "dialect" | "protobuf">): string[] {
  return serializers(offer).map((serializer) => serializer.mediaType);
}

/** The media types of watch streams: `application/json;stream=watch` and the binary envelope's. */
export function streamMediaTypes(offer: Pick<MediaOffer, "dialect" | "protobuf">): string[] {
  return serializers(offer)
    .filter((serializer) => serializer.streams)
    .map((serializer) => `${serializer.mediaType};${STREAM_WATCH}`);
}

/** The representations a route lists when it refuses an Accept header (transcript accept-xml). */
export function routeRepresentations(offer: Pick<MediaOffer, "dialect" | "protobuf" | "collection" | "watch">): string[] {
  const collection = offer.collection === true || offer.watch === true;
  return [...servedMediaTypes(offer), ...(collection ? streamMediaTypes(offer) : [])];
}

/** 406 from the route: no media range of the header is produced at all (transcript accept-xml). */
export function routeNotAcceptable(representations: readonly string[]): ApiError {
  return failure("NotAcceptable", `406: Not Acceptable\n\nAvailable representations: ${representations.join(", ")}`, {});
}

/** 406 from the handler: no clause is acceptable with its parameters (transcript table-sar-only). */
export function notAcceptable(accepted: readonly string[]): ApiError {
  return failure("NotAcceptable", `only the following media types are accepted: ${accepted.join(", ")}`);
}

/**
 * The response of a negotiation failure. Kubernetes cannot encode it in a negotiated type, so it
 * writes the Status as indented JSON (two spaces, no trailing newline) with Go's HTML escaping
 * (transcripts accept-xml, table-sar-only).
 */
export function negotiationErrorResponse(error: ApiError): Response {
  return new Response(goIndentedJson(error.status), { status: error.code, headers: { "content-type": JSON_MEDIA_TYPE, ...error.headers } });
}

/** One clause of an Accept header, as goautoneg parses it. */
export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  /** The quality, 1 when absent; 0 when unparseable (as Go's ParseFloat failure leaves it). */
  readonly q: number;
  /** Whether `q` was written as a valid zero (`q=0`): not acceptable at all. */
  readonly refused: boolean;
  /** Parameters other than q, names lowercased, values as written. */
  readonly params: ReadonlyMap<string, string>;
}

const GO_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The clauses of an Accept header, best first: comma-separated media ranges with `;`-separated
 * parameters, `*` standing for `*` + `/` + `*`, malformed ranges dropped; sorted as Kubernetes
 * sorts them (goautoneg's order under Go's insertion sort: higher q first, and specific types
 * before wildcards).
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(",")) {
    const part = rawPart.trim();
    const [range = "", ...rawParams] = part.split(";");
    const pieces = range.split("/");
    const type = (pieces[0] ?? "").trim().toLowerCase();
    let subType: string;
    if (pieces.length === 1 && type === "*") subType = "*";
    else if (pieces.length === 2) subType = (pieces[1] ?? "").trim().toLowerCase();
    else continue;
    if (type === "" || subType === "") continue;
    let q = 1;
    let refused = false;
    const params = new Map<string, string>();
    for (const rawParam of rawParams) {
      const equals = rawParam.indexOf("=");
      if (equals < 0) continue;
      const name = rawParam.slice(0, equals).trim().toLowerCase();
      const value = rawParam.slice(equals + 1).trim();
      if (name === "q") {
        q = GO_FLOAT.test(value) ? Math.fround(Number(value)) : 0;
        refused = GO_FLOAT.test(value) && q === 0;
      } else {
        params.set(name, value);
      }
    }
    clauses.push({ type, subType, q, refused, params });
  }
  // goautoneg's Less under Go's insertion sort (sort.Sort on fewer than 13 elements).
  const less = (a: AcceptClause, b: AcceptClause): boolean =>
    a.q > b.q || (a.type !== "*" && b.type === "*") || (a.subType !== "*" && b.subType === "*");
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
    }
  }
  return clauses;
}

/** go-restful's check of a route: some media range, parameters dropped, is produced (or a wildcard). */
function routeAccepts(header: string, representations: readonly string[]): boolean {
  const produced = new Set(representations.map((representation) => representation.toLowerCase()));
  for (const part of header.split(",")) {
    const mediaType = (part.split(";")[0] ?? "").trim().toLowerCase();
    if (mediaType === "*/*" || produced.has(mediaType)) return true;
    // Not in go-restful: a subtype wildcard of a produced type.
    if (mediaType.endsWith("/*") && [...produced].some((candidate) => candidate.startsWith(mediaType.slice(0, -1)))) return true;
  }
  return false;
}

interface Accepted {
  readonly serializer: Serializer;
  readonly pretty: boolean;
  readonly convert?: { readonly kind: string; readonly group: string; readonly version: string };
}

const META_VERSIONS: readonly string[] = ["v1", "v1beta1"] satisfies MetaVersion[];

/** apiserver's acceptMediaTypeOptions with the resource endpoint's restrictions. */
function acceptWith(params: ReadonlyMap<string, string>, serializer: Serializer, offer: MediaOffer): Accepted | undefined {
  let convert: { kind: string; group: string; version: string } | undefined;
  let pretty = false;
  for (const [name, value] of params) {
    switch (name) {
      case "as":
        convert = { ...(convert ?? { kind: "", group: "", version: "" }), kind: value };
        break;
      case "g":
        convert = { ...(convert ?? { kind: "", group: "", version: "" }), group: value };
        break;
      case "v":
        convert = { ...(convert ?? { kind: "", group: "", version: "" }), version: value };
        break;
      case "stream":
        if (value !== "" && (!serializer.streams || value !== "watch")) return undefined;
        break;
      case "sv":
        // The server version of the meta group.
        if (value !== "" && value !== "v1") return undefined;
        break;
      case "pretty":
        pretty = value === "1";
        break;
      default:
        // export, charset and anything else: not recognized, not refused.
        break;
    }
  }
  if (convert !== undefined && !allowsTransform(serializer, convert, offer)) return undefined;
  return { serializer, pretty, ...(convert !== undefined && { convert }) };
}

/** RequestScope.AllowsMediaTypeTransform. */
function allowsTransform(serializer: Serializer, convert: { kind: string; group: string; version: string }, offer: MediaOffer): boolean {
  if (convert.group !== offer.dialect.metaGroup || !META_VERSIONS.includes(convert.version)) return false;
  switch (convert.kind) {
    case "Table":
      return offer.table && (serializer.serialization === "json" || serializer.serialization === "yaml");
    case "PartialObjectMetadata":
    case "PartialObjectMetadataList":
      return offer.partialObjectMetadata === true;
    default:
      return false;
  }
}

/**
 * The representation of a response, from the request's Accept header (absent or empty: JSON) and
 * what the server offers; throws the 406 ApiError Kubernetes answers when nothing listed is
 * served (write it with `negotiationErrorResponse`).
 */
export function negotiateOutput(accept: string | null | undefined, offer: MediaOffer): MediaChoice {
  const all = serializers(offer);
  const header = accept ?? "";
  let chosen: Accepted | undefined;
  if (header.trim() === "") {
    chosen = { serializer: all[0]!, pretty: false };
  } else {
    const representations = routeRepresentations(offer);
    if (!routeAccepts(header, representations)) throw routeNotAcceptable(representations);
    search: for (const clause of parseAccept(header)) {
      if (clause.refused) continue;
      for (const serializer of all) {
        const matches =
          (clause.type === serializer.type && (clause.subType === serializer.subType || clause.subType === "*")) ||
          (clause.type === "*" && clause.subType === "*");
        if (!matches) continue;
        chosen = acceptWith(clause.params, serializer, offer);
        if (chosen !== undefined) break search;
      }
    }
    if (chosen === undefined) throw notAcceptable(servedMediaTypes(offer));
  }
  const watch = offer.watch === true;
  if (watch && !chosen.serializer.streams) throw notAcceptable(streamMediaTypes(offer));
  return choice(chosen, offer, watch);
}

function choice(accepted: Accepted, offer: MediaOffer, watch: boolean): MediaChoice {
  const { serializer, pretty, convert } = accepted;
  const contentType = watch && serializer.serialization !== "json" ? `${serializer.mediaType};${STREAM_WATCH}` : serializer.mediaType;
  const common = { contentType, pretty, watch };
  if (convert !== undefined) {
    const version = convert.version as MetaVersion;
    const apiVersion = metaApiVersion(offer.dialect, version);
    if (convert.kind === "Table") {
      return { ...common, kind: "table", serialization: serializer.serialization === "yaml" ? "yaml" : "json", version, apiVersion };
    }
    const kind = convert.kind === "PartialObjectMetadata" ? "partial-object-metadata" : "partial-object-metadata-list";
    return { ...common, kind, serialization: serializer.serialization, version, apiVersion };
  }
  switch (serializer.serialization) {
    case "json":
      return { ...common, kind: "json", serialization: "json" };
    case "yaml":
      return { ...common, kind: "yaml", serialization: "yaml" };
    case "protobuf":
      return { ...common, kind: "protobuf", serialization: "protobuf" };
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * How a request body is encoded, from its Content-Type (apiserver's
 * NegotiateInputSerializerForMediaType): absent or empty is JSON; otherwise the media type,
 * parameters dropped, must be JSON, YAML or (when offered) the binary envelope, else 415
 * UnsupportedMediaType listing them (transcript content-type-text). A malformed header is 415
 * too, as Go's mime.ParseMediaType fails on it.
 */
export function negotiateInput(contentType: string | null | undefined, offer: Pick<MediaOffer, "dialect" | "protobuf">): Serialization {
  const header = contentType ?? "";
  if (header === "") return "json";
  const mediaType = parseMediaType(header);
  const found = serializers(offer).find((serializer) => serializer.mediaType.toLowerCase() === mediaType);
  if (found === undefined) throw unsupportedMediaType(servedMediaTypes(offer));
  return found.serialization;
}

/** mime.ParseMediaType's media type (lowercased), or undefined when the header does not parse. */
function parseMediaType(header: string): string | undefined {
  const [range = "", ...params] = header.split(";");
  const mediaType = range.trim().toLowerCase();
  const [type = "", subType, ...rest] = mediaType.split("/");
  if (!TOKEN.test(type) || subType === undefined || !TOKEN.test(subType) || rest.length > 0) return undefined;
  const seen = new Set<string>();
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!.trim();
    if (param === "" && i === params.length - 1) break; // a trailing ";"
    const equals = param.indexOf("=");
    if (equals <= 0) return undefined;
    const name = param.slice(0, equals).trim().toLowerCase();
    const value = param.slice(equals + 1).trim();
    if (!TOKEN.test(name) || seen.has(name)) return undefined;
    if (!TOKEN.test(value) && !/^"(?:[^"\\]|\\.)*"$/.test(value)) return undefined;
    seen.add(name);
  }
  return mediaType;
}
