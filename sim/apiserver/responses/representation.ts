/**
 * Representations of responses (doc 1 §2.5, §2.6, §4.3; issue #4): the one place that turns what
 * a handler answers (an object, a list, a Status, watch events) into bytes, in the representation
 * negotiated from the request's Accept header (media-negotiation.ts):
 *
 * - JSON: compact, Go's HTML escaping, trailing newline (`pretty=1` in the Accept clause, or the
 *   `pretty` query parameter: indented, no trailing newline, as Kubernetes' serializer writes it);
 * - YAML: the JSON value with its map keys sorted, YAML 1.1 quoting (`"yes"`, timestamps), as
 *   Kubernetes' JSON→YAML conversion writes it (not byte-exact);
 * - Table (`as=Table;g=<meta group>;v=v1|v1beta1`, JSON or YAML): the table module's Table of a
 *   list, one object or each watch event; a Status passes through unchanged, as in Kubernetes;
 *   `includeObject` comes from the query;
 * - Protobuf: the dialect's media type, the four-byte prefix and the `Unknown` envelope
 *   (protobuf module); lists as `<Kind>List`; watches as `;stream=watch` length-prefixed frames.
 *
 * Handlers negotiate first (`negotiateRepresentation`), before they read or change anything, as
 * kube-apiserver 1.26 does: a request it cannot answer is 406 without side effects. Errors go out
 * through `negotiatedErrorResponse`: the 406 itself as indented JSON (negotiationErrorResponse),
 * any other Status in Protobuf when the Accept header asks for it (transcript
 * protobuf-get-missing), else JSON.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { ApiError, failure } from "./api-error.ts";
import { negotiateInput, negotiateOutput, negotiationErrorResponse, offerFor, JSON_MEDIA_TYPE, type MediaChoice, type MediaOffer, type Serialization } from "./media-negotiation.ts";
import { encodeObject, encodeWatchEvent, ProtobufEncodeError, supportsProtobuf, type JsonObject } from "../protobuf/index.ts";
import { apiVersionOf, type ResourceType } from "../routing/resource-types.ts";
import type { ResourceRequest, ServerContext } from "../server-context.ts";
import { tableForList, tableForObject, watchTableTransform, type ApiObject, type ListMeta } from "../table/table.ts";
import { stringify as stringifyYaml } from "yaml";
import { goIndentedJson, goJson } from "./go-text.ts";
import { encodedJsonList } from "./encoded-list-items.ts";
import { completeResponse } from "../../transport/complete-body.ts";
import { listItem } from "../registry/stored-resource.ts";
import type { StoredObject } from "../../store/stored-object.ts";

/** What the server offers for requests on `type` (custom resources, which have no Protobuf form, are JSON and YAML only). */
export function offerForType(
  type: ResourceType,
  dialect: Dialect,
  request: { readonly watch?: boolean; readonly collection?: boolean } = {},
): MediaOffer {
  return { ...offerFor(type, dialect, request), protobuf: hasProtobufForm(type) };
}

/** Whether objects of `type` can be sent and received as Protobuf (kinds.ts decides; issue #4). */
export function hasProtobufForm(type: Pick<ResourceType, "group" | "version" | "kind">): boolean {
  return supportsProtobuf(apiVersionOf(type), type.kind);
}

/**
 * How a request body on `type` is encoded, from its Content-Type: JSON (also when absent), YAML,
 * or the dialect's Protobuf when the type has a Protobuf form; else 415 listing the accepted types.
 */
export function requestSerialization(context: ServerContext, target: Pick<ResourceRequest, "request" | "type">): Serialization {
  return negotiateInput(target.request.headers.get("content-type"), { dialect: context.dialect, protobuf: hasProtobufForm(target.type) });
}

/** A response body in a negotiated representation. */
interface Encoded {
  readonly body: string | Uint8Array;
  readonly contentType: string;
}

/** The representation negotiated for one request, and the responses in it. */
export class Representation {
  private readonly pretty: boolean;

  constructor(
    private readonly context: ServerContext,
    private readonly target: Pick<ResourceRequest, "type" | "query">,
    /** What negotiation chose. */
    readonly choice: MediaChoice,
  ) {
    this.pretty = choice.pretty || prettyQuery(target.query);
  }

  /** The Content-Type of the responses. */
  get contentType(): string {
    return this.choice.contentType;
  }

  /**
   * One object as the client receives it (kind and apiVersion included: a served object, a
   * virtual type's answer, or a Status). As a Table: a one-row Table, a Status unchanged.
   */
  object(status: number, object: Record<string, unknown>, headers: Readonly<Record<string, string>> = {}): Response {
    const { context, target, choice } = this;
    let value: unknown = object;
    if (choice.kind === "table" && object["kind"] !== "Status") {
      value = tableForObject(target.type, object as ApiObject, target.query.get("includeObject"), context.clock, context.dialect, { version: choice.version });
    }
    return this.respond(status, value, headers);
  }

  /** A list (`<Kind>List` with its ListMeta and items). As a Table: one row per item. */
  list(
    status: number,
    list: { readonly kind: string; readonly apiVersion: string; readonly metadata: ListMeta; readonly items: readonly object[] },
    headers: Readonly<Record<string, string>> = {},
  ): Response {
    const { context, target, choice } = this;
    let value: unknown = list;
    if (choice.kind === "table") {
      value = tableForList(target.type, list.items as readonly ApiObject[], list.metadata, target.query.get("includeObject"), context.clock, context.dialect, {
        version: choice.version,
      });
    }
    return this.respond(status, value, headers);
  }

  /**
   * A list of stored objects, each sent as a list item (listItem). Compact JSON, the common case,
   * reuses each object's encoding (encoded-list-items.ts); anything else goes through list().
   */
  storedList(
    status: number,
    list: { readonly kind: string; readonly apiVersion: string; readonly metadata: ListMeta; readonly items: readonly StoredObject[] },
    headers: Readonly<Record<string, string>> = {},
  ): Response {
    const { choice } = this;
    if (choice.kind !== "json" || choice.serialization !== "json" || this.pretty) return this.list(status, { ...list, items: list.items.map(listItem) }, headers);
    const { items, ...rest } = list;
    return completeResponse(encodedJsonList(rest, items), { status, headers: { "content-type": choice.contentType, ...wireHeaders(headers) } });
  }

  /**
   * The encoder of a watch stream's events, one chunk per event: a JSON line, or a length-prefixed
   * Protobuf frame; as a Table, each event's object is a one-row Table (column definitions in the
   * first event only). Event objects carry their kind and apiVersion (a Status for ERROR). The
   * encoder throws the table module's 400 ApiError for an unrecognized `includeObject` at the first
   * event that has a row: the stream should then end without it (Kubernetes 1.26).
   */
  /**
   * A name for this stream's encoding when an event's bytes depend only on the event (plain JSON
   * or Protobuf), so watchers can share them (encoded-event-cache.ts); undefined for Tables, whose
   * rows depend on the request and on which event comes first.
   */
  sharedWatchEncoding(): string | undefined {
    const { choice } = this;
    return choice.kind === "json" || choice.kind === "protobuf" ? choice.kind : undefined;
  }

  watchEncoder(): (event: { readonly type: string; readonly object: Record<string, unknown> }) => Uint8Array {
    const { context, target, choice } = this;
    if (choice.serialization === "protobuf") {
      return (event) => {
        const { apiVersion, kind } = typeMetaOf(event.object);
        return protobufOrFail(() => encodeWatchEvent(event.type, apiVersion, kind, event.object as JsonObject, { unknownFields: "drop" }));
      };
    }
    const transform =
      choice.kind === "table"
        ? watchTableTransform(target.type, target.query.get("includeObject"), context.clock, context.dialect, choice.version)
        : (object: ApiObject): unknown => object;
    return (event) => textEncoder.encode(goJson({ type: event.type, object: transform(event.object as ApiObject) }));
  }

  private respond(status: number, value: unknown, headers: Readonly<Record<string, string>>): Response {
    const encoded = encode(value, this.choice.serialization, this.choice.contentType, this.pretty);
    return completeResponse(encoded.body, { status, headers: { "content-type": encoded.contentType, ...wireHeaders(headers) } });
  }
}

const textEncoder = new TextEncoder();

/**
 * Negotiates the representation of a response on `target` (a watch, or a GET of a collection,
 * as `request` says); throws the 406 ApiError when nothing the Accept header lists is served.
 */
export function negotiateRepresentation(
  context: ServerContext,
  target: Pick<ResourceRequest, "request" | "type" | "query">,
  request: { readonly watch?: boolean; readonly collection?: boolean } = {},
): Representation {
  const choice = negotiateOutput(target.request.headers.get("accept"), offerForType(target.type, context.dialect, request));
  return new Representation(context, target, choice);
}

/**
 * The response of an error. A 406 (a negotiation failure) is indented JSON, as Kubernetes writes
 * it; any other Status is Protobuf when the Accept header negotiates to the dialect's Protobuf
 * (transcript protobuf-get-missing), else JSON. (Kubernetes would also write a YAML Status for a
 * YAML Accept header; errors here stay JSON.)
 */
export function negotiatedErrorResponse(error: ApiError, request: Request, dialect: Dialect): Response {
  if (error.status.reason === "NotAcceptable") return negotiationErrorResponse(error);
  let serialization: Serialization = "json";
  let contentType = JSON_MEDIA_TYPE;
  try {
    const choice = negotiateOutput(request.headers.get("accept"), { dialect, protobuf: true, table: false });
    if (choice.serialization === "protobuf") {
      serialization = "protobuf";
      contentType = dialect.protobufMediaType;
    }
  } catch {
    // Nothing acceptable: the error itself still goes out, as JSON (Kubernetes' WriteRawJSON).
  }
  try {
    const encoded = encode(error.status, serialization, contentType, false);
    return completeResponse(encoded.body, { status: error.code, headers: { "content-type": encoded.contentType, ...error.headers } });
  } catch {
    const encoded = encode(error.status, "json", JSON_MEDIA_TYPE, false);
    return completeResponse(encoded.body, { status: error.code, headers: { "content-type": encoded.contentType, ...error.headers } });
  }
}

/** A value in one serialization. Protobuf values must carry their kind and apiVersion. */
function encode(value: unknown, serialization: Serialization, contentType: string, pretty: boolean): Encoded {
  switch (serialization) {
    case "json":
      return { body: pretty ? goIndentedJson(value) : goJson(value), contentType };
    case "yaml":
      return { body: yaml(value), contentType };
    case "protobuf": {
      const object = value as JsonObject;
      const { apiVersion, kind } = typeMetaOf(object);
      return { body: protobufOrFail(() => encodeObject(apiVersion, kind, object, { unknownFields: "drop" })), contentType };
    }
  }
}

/** YAML as Kubernetes writes it from JSON: keys sorted, sequences not indented under their key, YAML 1.1 quoting. */
export function yaml(value: unknown): string {
  return stringifyYaml(value, { version: "1.1", sortMapEntries: true, indentSeq: false, lineWidth: 0 });
}

function typeMetaOf(object: Record<string, unknown>): { apiVersion: string; kind: string } {
  return {
    apiVersion: typeof object["apiVersion"] === "string" ? object["apiVersion"] : "",
    kind: typeof object["kind"] === "string" ? object["kind"] : "",
  };
}

/** Protobuf bytes, or a 500 InternalError Status when the object cannot be written (a bug of ours). */
function protobufOrFail(encodeIt: () => Uint8Array): Uint8Array {
  try {
    return encodeIt();
  } catch (error) {
    if (error instanceof ProtobufEncodeError) throw failure("InternalError", `unable to encode the object as Protobuf: ${error.message}`);
    throw error;
  }
}

/** The deprecated `pretty` query parameter (Go's strconv.ParseBool; anything else is false). */
function prettyQuery(query: URLSearchParams): boolean {
  return ["1", "t", "T", "TRUE", "true", "True"].includes(query.get("pretty") ?? "");
}

/**
 * Header values as their UTF-8 bytes, one character per byte: a Fetch header holds only bytes, and
 * a Warning may quote a field name holding any character (an invalid UTF-8 byte in a body decodes
 * to U+FFFD). kube-apiserver 1.26.4 sends such a Warning as raw UTF-8 (recorded 2026-11-25; found
 * by `fuzz --target http`: the Response threw, and the create answered 500).
 */
export function wireHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const wire: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) wire[name] = /[^\u0000-\u00ff]/.test(value) ? Buffer.from(value, "utf8").toString("latin1") : value;
  return wire;
}
