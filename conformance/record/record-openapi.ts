/**
 * Records a real kube-apiserver's OpenAPI documents and keeps what the embedded server needs to
 * serve its own (sim/apiserver/discovery/openapi-data/README.md says what and why).
 *
 *   npx tsx conformance/record/record-openapi.ts --kube-assets DIR [--out DIR] [--raw DIR]
 *
 * It starts a control plane from the binaries in DIR (envtest's KUBEBUILDER_ASSETS layout:
 * conformance/control-plane/kube-control-plane.ts; default profile, plus APISERVER_FLAGS), reads `/openapi/v2` (JSON), `/openapi/v3` and
 * every group/version document it lists, the answers of both endpoints to the Accept headers
 * clients send, and the documents of two sample custom resource definitions it creates; then it
 * stops the control plane and removes its scratch directory, on error too. It writes:
 *
 * - `<out>/kube-apiserver-1.26.json.gz`: the component schemas of the types the embedded server
 *   serves (resource-types.ts, in the `kubernetes` dialect; their List kinds, the kinds of their
 *   subresources, the meta types their operations name), with everything they reference, from the
 *   v3 documents (one shared pool, and per group/version the names its document holds) and the v2
 *   definitions of the same names;
 * - `<out>/negotiation.json`: status, Content-Type and body size per path and Accept header;
 * - `<out>/v2-protobuf-samples.json`: a few definitions and a path item of `/openapi/v2` as
 *   Protobuf, to check the embedded server's encoding byte for byte;
 * - `<out>/custom-resources.json`: the recorded v3 schemas of the sample custom resources (and
 *   the names of the other schemas their document held) and their PATCH request bodies, a fixture
 *   for openapi.test.ts.
 *
 * `--raw DIR` also keeps the whole documents as they came (several MB; never commit them).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Agent, fetch } from "undici";
import { dialectByName } from "../../spec/dialects.ts";
import type { KubeControlPlane } from "../control-plane/kube-control-plane.ts";
import { runIfMain } from "./recorder-main.ts";
import { subresourceKind } from "../../sim/apiserver/discovery/discovery.ts";
import { openApiGroupVersionPath } from "../../sim/apiserver/discovery/openapi.ts";
import { ResourceRegistry } from "../../sim/apiserver/routing/resource-types.ts";
import { schemaReferences } from "../../sim/apiserver/discovery/openapi-schemas.ts";

type Json = any;

/** The Accept headers whose answers are recorded (what kubectl and client-go send, and neighbours). */
export const NEGOTIATED_ACCEPTS: readonly (string | null)[] = [
  null,
  "application/json",
  "*/*",
  "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
  "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
  "application/yaml",
  "text/plain",
];

/**
 * What the recorded server enables beyond its defaults: the group/versions the embedded server
 * serves that 1.26 has behind a gate (SelfSubjectReview, authentication.k8s.io/v1alpha1, as the
 * scale-and-reviews transcripts were recorded).
 */
export const APISERVER_FLAGS: readonly string[] = ["--feature-gates=APISelfSubjectReview=true", "--runtime-config=authentication.k8s.io/v1alpha1=true"];

/** The meta kinds a group/version keeps when its document has them: what the operations of served types name. */
export const META_SCHEMAS: readonly string[] = [
  "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
  "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
  "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
  "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
];

/** The sample definitions recorded: one that keeps any field (as sample-custom-resource.ts), one with a typed schema. */
const SAMPLE_DEFINITIONS: readonly Json[] = [
  {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.io" },
    spec: {
      group: "example.io",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
    },
  },
  {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.example.io" },
    spec: {
      group: "example.io",
      scope: "Cluster",
      names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: "object",
              description: "A Gadget is a sample.",
              properties: {
                spec: { type: "object", properties: { size: { type: "integer", description: "How big." }, color: { type: "string" } }, required: ["size"] },
                status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              },
            },
          },
        },
      ],
    },
  },
];

/** One group/version's served kinds, as the recorder looks them up in the real documents. */
export interface ServedKinds {
  /** "api/v1", "apis/apps/v1" */
  readonly apiPath: string;
  readonly kinds: ReadonlyArray<{ group: string; version: string; kind: string }>;
}

/** The kinds the embedded server serves per group/version (the `kubernetes` dialect's tables). */
export function servedKinds(): ServedKinds[] {
  const registry = new ResourceRegistry(dialectByName("kubernetes"));
  const byPath = new Map<string, Array<{ group: string; version: string; kind: string }>>();
  for (const type of registry.types) {
    const apiPath = openApiGroupVersionPath(type.group, type.version);
    const kinds = byPath.get(apiPath) ?? [];
    byPath.set(apiPath, kinds);
    kinds.push({ group: type.group, version: type.version, kind: type.kind });
    if (type.verbs.includes("list")) kinds.push({ group: type.group, version: type.version, kind: `${type.kind}List` });
    for (const subresource of Object.keys(type.subresources)) kinds.push({ ...subresourceKind(type, subresource) });
  }
  return [...byPath].map(([apiPath, kinds]) => ({ apiPath, kinds }));
}

/** The data file's shape (read by sim/apiserver/discovery/openapi-schemas.ts). */
export interface RecordedOpenApiData {
  readonly source: {
    readonly gitVersion: string;
    readonly recorded: string;
    readonly recorder: string;
    /** Served kinds the recorded server has no schema of (its group/version is not enabled there): the embedded server describes them as it does custom resources without a schema. */
    readonly missing: readonly string[];
  };
  readonly v3: {
    /** Every kept schema by name, as the v3 documents give it. */
    readonly schemas: Readonly<Record<string, Json>>;
    /** Per group/version document, the names of the schemas it holds for the served kinds, sorted. */
    readonly groupVersions: Readonly<Record<string, readonly string[]>>;
  };
  /** The same names as `/openapi/v2` defines them. */
  readonly v2: { readonly definitions: Readonly<Record<string, Json>> };
}

/** `seeds` and every schema they reach through `$ref`, within `schemas`. Throws on a dangling reference. */
export function schemaClosure(schemas: Readonly<Record<string, Json>>, seeds: Iterable<string>, prefix: string): string[] {
  const kept = new Set<string>();
  const pending = [...seeds];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (kept.has(name)) continue;
    const schema = schemas[name];
    if (schema === undefined) throw new Error(`schema ${name} is referenced but not defined`);
    kept.add(name);
    pending.push(...schemaReferences(schema, prefix));
  }
  return [...kept].sort();
}

/** The schema names tagged with one of `kinds` (x-kubernetes-group-version-kind). */
export function schemasOfKinds(schemas: Readonly<Record<string, Json>>, kinds: ServedKinds["kinds"]): string[] {
  const wanted = new Set(kinds.map((kind) => `${kind.group}/${kind.version}/${kind.kind}`));
  return Object.entries(schemas)
    .filter(([, schema]) => ((schema?.["x-kubernetes-group-version-kind"] ?? []) as Json[]).some((gvk) => wanted.has(`${gvk.group}/${gvk.version}/${gvk.kind}`)))
    .map(([name]) => name);
}

/** Keeps, from recorded documents, what the data file holds (`source.missing` names the served kinds they lack). Throws when one name has two shapes. */
export function extractServedSchemas(v3Documents: Readonly<Record<string, Json>>, v2: Json, served: readonly ServedKinds[], gitVersion: string, recorded: string): RecordedOpenApiData {
  const pool: Record<string, Json> = {};
  const groupVersions: Record<string, string[]> = {};
  const missing: string[] = [];
  for (const { apiPath, kinds } of served) {
    const document = v3Documents[apiPath];
    if (document === undefined) {
      missing.push(...kinds.map((kind) => `${kind.group}/${kind.version} ${kind.kind}`));
      continue;
    }
    const schemas: Record<string, Json> = document.components?.schemas ?? {};
    const seeds = schemasOfKinds(schemas, kinds);
    for (const kind of kinds) {
      if (!seeds.some((name) => (schemas[name]["x-kubernetes-group-version-kind"] as Json[]).some((gvk) => gvk.kind === kind.kind && gvk.group === kind.group && gvk.version === kind.version))) {
        missing.push(`${kind.group}/${kind.version} ${kind.kind}`);
      }
    }
    if (seeds.length === 0) continue;
    // A document names the meta types its operations use (no WatchEvent where nothing is watched).
    const names = schemaClosure(schemas, [...seeds, ...META_SCHEMAS.filter((name) => schemas[name] !== undefined)], "#/components/schemas/");
    for (const name of names) {
      const previous = pool[name];
      if (previous !== undefined && JSON.stringify(previous) !== JSON.stringify(schemas[name])) throw new Error(`schema ${name} differs between group/versions`);
      pool[name] = schemas[name];
    }
    groupVersions[apiPath] = names;
  }
  const v2Names = schemaClosure(v2.definitions, Object.keys(pool), "#/definitions/");
  const sortedPool = Object.fromEntries(Object.keys(pool).sort().map((name) => [name, pool[name]]));
  return {
    source: { gitVersion, recorded, recorder: "conformance/record/record-openapi.ts", missing },
    v3: { schemas: sortedPool, groupVersions },
    v2: { definitions: Object.fromEntries(v2Names.map((name) => [name, v2.definitions[name]])) },
  };
}

/** The definitions and path items whose Protobuf bytes v2-protobuf-samples.json keeps (the JSON of each is in the data file or kept beside). */
export const V2_PROTOBUF_SAMPLES = {
  definitions: [
    "io.k8s.api.core.v1.ConfigMap",
    "io.k8s.api.core.v1.ServicePort",
    "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
  ],
  paths: ["/api/v1/namespaces/{namespace}/configmaps/{name}"],
} as const;

/**
 * Samples of kube-apiserver's `/openapi/v2` Protobuf (gnostic's openapi.v2.Document): the bytes
 * of a few definitions' Schema messages and path items' PathItem messages, cut out of the whole
 * document at the wire level (Document.paths = 8 holds NamedPathItem at 2, Document.definitions
 * = 9 holds NamedSchema at 1; each named entry is name = 1, value = 2), with the path items' JSON.
 */
export function v2ProtobufSamples(v2: Json, protobuf: Uint8Array): Json {
  const document = wireFields(protobuf);
  const named = (message: Uint8Array, field: number) => {
    const entries = new Map<string, Uint8Array>();
    for (const entry of wireFields(message).filter((f) => f.field === field)) {
      const parts = wireFields(entry.bytes);
      entries.set(new TextDecoder().decode(parts.find((f) => f.field === 1)!.bytes), parts.find((f) => f.field === 2)!.bytes);
    }
    return entries;
  };
  const definitions = named(document.find((f) => f.field === 9)!.bytes, 1);
  const paths = named(document.find((f) => f.field === 8)!.bytes, 2);
  const base64 = (bytes: Uint8Array | undefined, what: string) => {
    if (bytes === undefined) throw new Error(`the Protobuf document has no ${what}`);
    return Buffer.from(bytes).toString("base64");
  };
  return {
    note: "Schema and PathItem messages of kube-apiserver's /openapi/v2 Protobuf, base64; the definitions' JSON is the data file's v2.definitions",
    definitions: Object.fromEntries(V2_PROTOBUF_SAMPLES.definitions.map((name) => [name, base64(definitions.get(name), name)])),
    paths: Object.fromEntries(V2_PROTOBUF_SAMPLES.paths.map((path) => [path, { json: v2.paths[path], protobuf: base64(paths.get(path), path) }])),
  };
}

// The length-delimited fields of a Protobuf message (other wire types skipped).
function wireFields(bytes: Uint8Array): Array<{ field: number; bytes: Uint8Array }> {
  const fields: Array<{ field: number; bytes: Uint8Array }> = [];
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.byteLength) {
    const key = varint();
    const wireType = key % 8;
    const field = Math.floor(key / 8);
    if (wireType === 0) varint();
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = varint();
      fields.push({ field, bytes: bytes.subarray(at, at + length) });
      at += length;
    } else throw new Error(`wire type ${wireType} at byte ${at}`);
  }
  return fields;
}

/** What a server answered to one path and Accept header. */
export interface NegotiationAnswer {
  readonly path: string;
  readonly accept: string | null;
  readonly status: number;
  readonly contentType: string | null;
  readonly etag: boolean;
  readonly location: string | null;
  readonly bodyBytes: number;
}

interface Recorded {
  readonly gitVersion: string;
  readonly v2: Json;
  readonly v2Protobuf: Uint8Array;
  readonly v3Index: Json;
  readonly v3Documents: Record<string, Json>;
  readonly negotiation: NegotiationAnswer[];
  readonly customResources: Json;
}

async function record(plane: KubeControlPlane, log: (line: string) => void): Promise<Recorded> {
  const agent = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
  try {
    const request = async (path: string, init: { method?: string; accept?: string | null; body?: string; contentType?: string } = {}) => {
      const headers: Record<string, string> = { authorization: `Bearer ${plane.adminToken}` };
      if (init.accept !== undefined && init.accept !== null) headers["accept"] = init.accept;
      if (init.contentType !== undefined) headers["content-type"] = init.contentType;
      const response = await fetch(`${plane.url}${path}`, { method: init.method ?? "GET", headers, body: init.body, dispatcher: agent, redirect: "manual" });
      return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
    };
    const getJson = async (path: string): Promise<Json> => {
      const { response, bytes } = await request(path, { accept: "application/json" });
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
      return JSON.parse(new TextDecoder().decode(bytes));
    };
    const gitVersion = (await getJson("/version")).gitVersion as string;
    log(`recording the OpenAPI documents of kube-apiserver ${gitVersion}`);
    const v2 = await getJson("/openapi/v2");
    const v2Protobuf = await request("/openapi/v2", { accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" });
    if (v2Protobuf.response.status !== 200) throw new Error(`GET /openapi/v2 as Protobuf: ${v2Protobuf.response.status}`);
    const v3Index = await getJson("/openapi/v3");
    const v3Documents: Record<string, Json> = {};
    for (const [apiPath, entry] of Object.entries(v3Index.paths as Record<string, { serverRelativeURL: string }>)) {
      v3Documents[apiPath] = await getJson(entry.serverRelativeURL);
    }
    const coreUrl = (v3Index.paths["api/v1"] as { serverRelativeURL: string }).serverRelativeURL;
    const negotiation: NegotiationAnswer[] = [];
    for (const path of ["/openapi/v2", "/openapi/v3", "/openapi/v3/api/v1", coreUrl, "/openapi/v3/api/v1?hash=0", "/openapi/v3/apis/no.such.group/v1", "/openapi/v2/x", "/swagger-2.0.0.pb-v1"]) {
      for (const accept of NEGOTIATED_ACCEPTS) {
        const { response, bytes } = await request(path, { accept });
        negotiation.push({
          path: path === coreUrl ? "/openapi/v3/api/v1?hash=<its hash>" : path,
          accept,
          status: response.status,
          contentType: response.headers.get("content-type"),
          etag: response.headers.has("etag"),
          location: response.headers.get("location")?.replace(/hash=[0-9A-F]+/, "hash=<its hash>") ?? null,
          bodyBytes: bytes.byteLength,
        });
      }
    }
    const customResources = await recordCustomResources(request, getJson, log);
    return { gitVersion, v2, v2Protobuf: v2Protobuf.bytes, v3Index, v3Documents, negotiation, customResources };
  } finally {
    await agent.close();
  }
}

type Requester = (path: string, init?: { method?: string; accept?: string | null; body?: string; contentType?: string }) => Promise<{ response: { status: number }; bytes: Uint8Array }>;

// Creates the sample definitions, waits for their group's document, keeps its schemas and the
// PATCH request body of each type, and deletes the definitions again.
async function recordCustomResources(request: Requester, getJson: (path: string) => Promise<Json>, log: (line: string) => void): Promise<Json> {
  const definitionsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  for (const definition of SAMPLE_DEFINITIONS) {
    const { response, bytes } = await request(definitionsPath, { method: "POST", body: JSON.stringify(definition), contentType: "application/json" });
    if (response.status !== 201) throw new Error(`creating ${definition.metadata.name}: ${response.status} ${new TextDecoder().decode(bytes)}`);
  }
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const index = await getJson("/openapi/v3");
      const entry = index.paths["apis/example.io/v1"] as { serverRelativeURL: string } | undefined;
      if (entry !== undefined) {
        const document = await getJson(entry.serverRelativeURL);
        const schemas: Record<string, Json> = document.components?.schemas ?? {};
        if (schemas["io.example.v1.Widget"] !== undefined && schemas["io.example.v1.Gadget"] !== undefined) {
          const patches = Object.fromEntries(
            Object.entries(document.paths as Record<string, Json>)
              .filter(([, item]) => item.patch !== undefined)
              .map(([path, item]) => [path, { requestBody: item.patch.requestBody, parameters: (item.patch.parameters as Json[]).map((parameter) => parameter.name) }]),
          );
          // The definitions' own schemas; the meta schemas they refer to are in the data file already.
          const own = Object.fromEntries(Object.entries(schemas).filter(([name]) => name.startsWith("io.example.")));
          const referenced = Object.keys(schemas).filter((name) => !name.startsWith("io.example."));
          return { note: "the sample definitions of record-openapi.ts, as /openapi/v3/apis/example.io/v1 showed them", definitions: SAMPLE_DEFINITIONS, schemas: own, otherSchemas: referenced, patches };
        }
      }
      if (Date.now() > deadline) throw new Error("the custom resources never appeared in /openapi/v3");
      log("waiting for the custom resources' OpenAPI document");
      await new Promise((done) => setTimeout(done, 1_000));
    }
  } finally {
    for (const definition of SAMPLE_DEFINITIONS) await request(`${definitionsPath}/${definition.metadata.name}`, { method: "DELETE" });
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

runIfMain(import.meta.url, {
  script: "conformance/record/record-openapi.ts",
  otherFlags: "[--raw DIR]",
  defaultOut: new URL("../../sim/apiserver/discovery/openapi-data/", import.meta.url),
  apiserverFlags: APISERVER_FLAGS,
  async record({ plane, out, flag, log }) {
    const recorded = await record(plane, log);
    const raw = flag("--raw");
    const today = new Date().toISOString().slice(0, 10);
    if (raw !== undefined) {
      mkdirSync(raw, { recursive: true });
      writeFileSync(join(raw, "openapi-v2.json"), JSON.stringify(recorded.v2));
      writeFileSync(join(raw, "openapi-v3.json"), JSON.stringify(recorded.v3Index));
      for (const [apiPath, document] of Object.entries(recorded.v3Documents)) writeFileSync(join(raw, `openapi-v3-${apiPath.replaceAll("/", "_")}.json`), JSON.stringify(document));
      log(`raw documents in ${raw}`);
    }
    const data = extractServedSchemas(recorded.v3Documents, recorded.v2, servedKinds(), recorded.gitVersion, today);
    mkdirSync(out, { recursive: true });
    // Fixed gzip header (no time stamp, no name): the same recording gives the same bytes.
    const compressed = gzipSync(JSON.stringify(data), { level: 9 });
    writeFileSync(join(out, "kube-apiserver-1.26.json.gz"), compressed);
    writeFileSync(join(out, "negotiation.json"), `${JSON.stringify({ gitVersion: recorded.gitVersion, recorded: today, answers: recorded.negotiation }, null, 1)}\n`);
    writeFileSync(join(out, "v2-protobuf-samples.json"), `${JSON.stringify({ gitVersion: recorded.gitVersion, recorded: today, ...v2ProtobufSamples(recorded.v2, recorded.v2Protobuf) }, null, 1)}\n`);
    writeFileSync(join(out, "custom-resources.json"), `${JSON.stringify({ gitVersion: recorded.gitVersion, recorded: today, ...recorded.customResources }, null, 1)}\n`);
    for (const kind of data.source.missing) log(`warning: the recorded server has no schema of ${kind}; the embedded server describes it as a custom resource without a schema`);
    log(
      `kept ${Object.keys(data.v3.schemas).length} v3 schemas (${Object.keys(data.v3.groupVersions).join(", ")}) and ${Object.keys(data.v2.definitions).length} v2 definitions: ` +
        `${formatSize(compressed.byteLength)} compressed (${formatSize(JSON.stringify(data).length)} of JSON) in ${out}`,
    );
  },
});
