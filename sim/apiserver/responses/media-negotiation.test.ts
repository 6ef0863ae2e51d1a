import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson, type Transcript } from "../../../spec/reference-transcripts.ts";
import { ApiError } from "./api-error.ts";
import { hasTableRepresentation, negotiateInput, negotiateOutput, negotiationErrorResponse, offerFor, parseAccept, routeRepresentations, servedMediaTypes, streamMediaTypes, type MediaChoice, type MediaOffer } from "./media-negotiation.ts";
import { resourceTypes } from "../routing/resource-types.ts";
import { goJson } from "./go-text.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");

const STORED: MediaOffer = { dialect: kubernetes, protobuf: true, table: true };
const LIST: MediaOffer = { ...STORED, collection: true };
const WATCH: MediaOffer = { ...STORED, collection: true, watch: true };
const VIRTUAL: MediaOffer = { dialect: kubernetes, protobuf: true, table: false };

/** The ApiError a negotiation throws (fails the test when it does not throw one). */
function refusal(attempt: () => unknown): ApiError {
  try {
    attempt();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

const all = loadReferenceTranscripts();

describe("negotiation against the kube-apiserver 1.26 transcripts", () => {
  const accept = (transcript: Transcript): string | undefined => transcript.request.headers["accept"];
  /** The offer for a transcript's request: its path says collection or object, its query watch. */
  const offerOf = (transcript: Transcript, base: MediaOffer = STORED): MediaOffer => {
    const [path = "", query = ""] = transcript.request.path.split("?");
    const segments = path.split("/").filter((segment) => segment !== "");
    const watch = /(^|&)watch=(1|true)/.test(query);
    // /api/v1/<resource>, /api/v1/namespaces/<ns>/<resource>, /apis/<g>/<v>/... : an even count past the version is a name.
    const afterVersion = segments.slice(segments[0] === "api" ? 2 : 3);
    const collection = afterVersion.length % 2 === 1;
    return { ...base, collection, watch };
  };

  it.each([
    "table-pods",
    "table-nodes",
    "table-configmaps",
    "table-configmap-one",
    "table-namespaces-none",
    "table-kubectl-accept",
    "table-leases",
    "watch-as-table",
    "watch-protobuf",
    "watch-initial-state",
    "accept-fallback",
    "accept-yaml",
    "protobuf-get-configmap",
    "protobuf-get-namespace",
    "protobuf-list-configmaps",
    "protobuf-get-pod",
    "protobuf-get-lease",
    "protobuf-get-missing",
    "get-configmap",
    "list-unpaged",
  ])("sends the Content-Type Kubernetes sent (%s)", (id) => {
    const transcript = transcriptById(all, id);
    const choice = negotiateOutput(accept(transcript), offerOf(transcript));
    expect(choice.contentType).toBe(transcript.response.headers["content-type"]);
  });

  it("answers kubectl's Accept list with a v1 Table (table-kubectl-accept)", () => {
    const transcript = transcriptById(all, "table-kubectl-accept");
    const choice = negotiateOutput(accept(transcript), offerOf(transcript));
    expect(choice).toMatchObject({ kind: "table", serialization: "json", version: "v1", apiVersion: "meta.k8s.io/v1" });
    expect(choice.kind === "table" && choice.apiVersion).toBe((transcriptJson(transcript) as { apiVersion: string }).apiVersion);
  });

  it("refuses application/xml with the route's 406, body byte for byte (accept-xml)", () => {
    const transcript = transcriptById(all, "accept-xml");
    const error = refusal(() => negotiateOutput(accept(transcript), offerOf(transcript)));
    expect(error.code).toBe(transcript.response.status);
    expect(error.status).toEqual(transcriptJson(transcript));
    return negotiationErrorResponse(error)
      .text()
      .then((text) => expect(text).toBe(transcript.response.body.text));
  });

  it("refuses a Table-only request to a virtual type, body byte for byte (table-sar-only)", () => {
    const transcript = transcriptById(all, "table-sar-only");
    const sar = resourceTypes(kubernetes).find((type) => type.kind === "SelfSubjectAccessReview") ?? { virtual: true };
    const error = refusal(() => negotiateOutput(accept(transcript), offerFor(sar, kubernetes)));
    expect(error.code).toBe(406);
    expect(error.status).toEqual(transcriptJson(transcript));
    const response = negotiationErrorResponse(error);
    expect(response.headers.get("content-type")).toBe(transcript.response.headers["content-type"]);
    return response.text().then((text) => expect(text).toBe(transcript.response.body.text));
  });

  it("writes JSON bodies byte for byte as Kubernetes does (table-configmap-one, accept-fallback)", () => {
    for (const id of ["table-configmap-one", "accept-fallback"]) {
      const transcript = transcriptById(all, id);
      expect(goJson(transcriptJson(transcript))).toBe(transcript.response.body.text);
    }
  });

  it("refuses a text/plain body with Kubernetes' 415 (content-type-text)", () => {
    const transcript = transcriptById(all, "content-type-text");
    const error = refusal(() => negotiateInput(transcript.request.headers["content-type"], STORED));
    expect(error.code).toBe(415);
    expect(error.status).toEqual(transcriptJson(transcript));
  });
});

describe("negotiateOutput", () => {
  const kindOf = (accept: string | undefined, offer: MediaOffer = STORED): MediaChoice["kind"] => negotiateOutput(accept, offer).kind;

  it("answers JSON when Accept is absent or empty", () => {
    for (const accept of [undefined, null, "", "  "]) {
      expect(negotiateOutput(accept, STORED)).toEqual({ kind: "json", serialization: "json", contentType: "application/json", pretty: false, watch: false });
    }
    expect(negotiateOutput(undefined, WATCH)).toMatchObject({ kind: "json", contentType: "application/json", watch: true });
  });

  it("takes wildcards: */* and application/* are JSON; a bare * is refused by the route, as in Kubernetes", () => {
    expect(kindOf("*/*")).toBe("json");
    expect(kindOf("application/*")).toBe("json");
    expect(refusal(() => negotiateOutput("*", STORED)).status.message).toBe(
      "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
    expect(kindOf("*, application/yaml")).toBe("yaml");
  });

  it("falls back along a comma-separated list", () => {
    expect(kindOf("text/csv, application/json")).toBe("json");
    expect(kindOf("application/xml,application/yaml")).toBe("yaml");
    expect(kindOf("application/json;as=Table;g=meta.k8s.io;v=v1, application/json", { ...STORED, table: false })).toBe("json");
  });

  it("prefers higher q, then specific types over wildcards; q=0 is not acceptable", () => {
    expect(kindOf("application/json;q=0.5, application/yaml")).toBe("yaml");
    expect(kindOf("application/yaml;q=0.1, application/json;q=0.9")).toBe("json");
    expect(kindOf("*/*, application/yaml")).toBe("yaml");
    expect(kindOf("application/yaml;q=0, application/json;q=0.1")).toBe("json");
    expect(refusal(() => negotiateOutput("application/json;q=0", STORED)).status.message).toBe(
      "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
  });

  it("parses clauses as goautoneg does, in Kubernetes' order", () => {
    const clauses = parseAccept(" text/*;q=0.5 , application/json; as=Table ;v=v1;g=meta.k8s.io, */*;q=0.1, bogus, application/yaml;q=x");
    // goautoneg's comparison is not an order: under Go's insertion sort the unparseable-q (0)
    // application/yaml lands before the wildcards, whatever their q.
    expect(clauses.map((clause) => [`${clause.type}/${clause.subType}`, clause.q])).toEqual([
      ["application/json", 1],
      ["application/yaml", 0],
      ["text/*", 0.5],
      ["*/*", Math.fround(0.1)],
    ]);
    expect(Object.fromEntries(clauses[0]!.params)).toEqual({ as: "Table", v: "v1", g: "meta.k8s.io" });
    expect(clauses.map((clause) => clause.refused)).toEqual([false, false, false, false]);
  });

  it("chooses YAML, and a Table in YAML", () => {
    expect(negotiateOutput("application/yaml", STORED)).toEqual({ kind: "yaml", serialization: "yaml", contentType: "application/yaml", pretty: false, watch: false });
    expect(negotiateOutput("application/yaml;as=Table;g=meta.k8s.io;v=v1", STORED)).toMatchObject({ kind: "table", serialization: "yaml", contentType: "application/yaml" });
  });

  it("chooses a Table only with the dialect's meta group and a served version", () => {
    expect(negotiateOutput(kubernetes.tableMediaType, STORED)).toEqual({
      kind: "table",
      serialization: "json",
      contentType: "application/json",
      version: "v1",
      apiVersion: "meta.k8s.io/v1",
      pretty: false,
      watch: false,
    });
    expect(negotiateOutput("application/json;as=Table;v=v1beta1;g=meta.k8s.io", STORED)).toMatchObject({ kind: "table", version: "v1beta1", apiVersion: "meta.k8s.io/v1beta1" });
    const orbOffer: MediaOffer = { dialect: orb, protobuf: true, table: true };
    expect(negotiateOutput(orb.tableMediaType, orbOffer)).toMatchObject({ kind: "table", apiVersion: "meta.orb.io/v1" });
    for (const refused of [
      "application/json;as=Table;g=meta.orb.io;v=v1", // another dialect's group
      "application/json;as=Table;v=v1", // no group
      "application/json;as=Table;g=meta.k8s.io;v=v2",
      "application/json;as=Tabel;g=meta.k8s.io;v=v1",
      "application/json;v=v1", // a conversion to nothing Kubernetes knows
      "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1", // Tables are JSON or YAML only
    ]) {
      expect(refusal(() => negotiateOutput(refused, STORED)).status).toEqual({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
        reason: "NotAcceptable",
        code: 406,
      });
    }
  });

  it("lets the caller say a type has no Table (virtual types)", () => {
    const types = resourceTypes(kubernetes);
    expect(types.filter((type) => !hasTableRepresentation(type)).every((type) => type.virtual === true)).toBe(true);
    expect(hasTableRepresentation({ virtual: true })).toBe(false);
    expect(offerFor({}, kubernetes, { collection: true })).toEqual({ dialect: kubernetes, protobuf: true, table: true, collection: true });
    expect(refusal(() => negotiateOutput(kubernetes.tableMediaType, VIRTUAL)).code).toBe(406);
    expect(kindOf(`${kubernetes.tableMediaType},application/json`, VIRTUAL)).toBe("json");
  });

  it("ignores unknown parameters and honours pretty=1", () => {
    expect(kindOf("application/json;charset=utf-8")).toBe("json");
    expect(negotiateOutput("application/json;pretty=1", STORED).pretty).toBe(true);
    expect(kindOf("Application/JSON")).toBe("json");
  });

  it("takes stream=watch only on serializers that stream", () => {
    expect(kindOf("application/yaml;stream=watch, application/json")).toBe("json");
    expect(kindOf("application/json;stream=watch")).toBe("json");
    expect(kindOf("application/json;stream=other, application/yaml")).toBe("yaml");
  });

  it("streams watches in JSON or the binary envelope; YAML first is 406, as in Kubernetes", () => {
    expect(negotiateOutput("application/vnd.kubernetes.protobuf;stream=watch", WATCH)).toMatchObject({
      kind: "protobuf",
      contentType: "application/vnd.kubernetes.protobuf;stream=watch",
      watch: true,
    });
    expect(negotiateOutput("application/json;stream=watch", WATCH).contentType).toBe("application/json");
    expect(negotiateOutput(kubernetes.tableMediaType, WATCH)).toMatchObject({ kind: "table", contentType: "application/json", watch: true });
    for (const accept of ["application/yaml", "application/yaml, application/json", "application/yaml;as=Table;g=meta.k8s.io;v=v1"]) {
      expect(refusal(() => negotiateOutput(accept, WATCH)).status.message).toBe(
        "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
      );
    }
  });

  it("offers the binary envelope only when the caller does, with the dialect's media type", () => {
    const noProtobuf: MediaOffer = { ...LIST, protobuf: false };
    expect(refusal(() => negotiateOutput("application/vnd.kubernetes.protobuf", noProtobuf)).status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/json;stream=watch",
      reason: "NotAcceptable",
      details: {},
      code: 406,
    });
    expect(negotiateOutput("application/vnd.orb.protobuf", { dialect: orb, protobuf: true, table: true })).toMatchObject({ kind: "protobuf", contentType: "application/vnd.orb.protobuf" });
    expect(refusal(() => negotiateOutput("application/vnd.kubernetes.protobuf", { dialect: orb, protobuf: true, table: true })).code).toBe(406);
  });

  it("chooses PartialObjectMetadata only when offered", () => {
    const accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
    expect(refusal(() => negotiateOutput(accept, LIST)).code).toBe(406);
    expect(negotiateOutput(accept, { ...LIST, partialObjectMetadata: true })).toMatchObject({
      kind: "partial-object-metadata-list",
      serialization: "json",
      apiVersion: "meta.k8s.io/v1",
    });
    expect(negotiateOutput("application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1", { ...STORED, partialObjectMetadata: true })).toMatchObject({
      kind: "partial-object-metadata",
      serialization: "protobuf",
      contentType: "application/vnd.kubernetes.protobuf",
      apiVersion: "meta.k8s.io/v1beta1",
    });
  });
});

describe("media type lists", () => {
  it("lists what the server produces, per dialect", () => {
    expect(servedMediaTypes(STORED)).toEqual(["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"]);
    expect(servedMediaTypes({ dialect: orb, protobuf: true })).toEqual(["application/json", "application/yaml", "application/vnd.orb.protobuf"]);
    expect(streamMediaTypes({ dialect: orb, protobuf: true })).toEqual(["application/json;stream=watch", "application/vnd.orb.protobuf;stream=watch"]);
    expect(routeRepresentations(STORED)).toHaveLength(3);
    expect(routeRepresentations(LIST)).toHaveLength(5);
  });
});

describe("negotiateInput", () => {
  it("reads JSON by default, and JSON, YAML or the binary envelope by Content-Type", () => {
    expect(negotiateInput(undefined, STORED)).toBe("json");
    expect(negotiateInput("", STORED)).toBe("json");
    expect(negotiateInput("application/json; charset=utf-8", STORED)).toBe("json");
    expect(negotiateInput("application/yaml", STORED)).toBe("yaml");
    expect(negotiateInput("application/vnd.kubernetes.protobuf", STORED)).toBe("protobuf");
    expect(negotiateInput("APPLICATION/JSON;", STORED)).toBe("json");
  });

  it("answers 415 for anything else, or a malformed header", () => {
    for (const contentType of ["text/plain", "application/xml", "application/json; charset", "application/json;a=1;a=2", "json", "application/vnd.kubernetes.protobuf;x"]) {
      const error = refusal(() => negotiateInput(contentType, STORED));
      expect(error.code).toBe(415);
      expect(error.status.reason).toBe("UnsupportedMediaType");
    }
    expect(refusal(() => negotiateInput("application/vnd.kubernetes.protobuf", { dialect: kubernetes, protobuf: false })).status.message).toBe(
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml",
    );
  });
});
