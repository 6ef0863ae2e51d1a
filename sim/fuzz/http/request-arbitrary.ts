/**
 * One lane's generated request: a read anywhere, or a write (create, update, patch, delete, a
 * subresource, an odd method) aimed only at the lane's objects in the fuzzer's namespace; then
 * the headers every request may carry (Accept, noise, a Content-Length that lies).
 */
import fc from "fast-check";
import type { Dialect } from "../../../spec/dialects.ts";
import { objectBodyArbitrary, type GeneratedBody } from "./body-arbitraries.ts";
import { baselineObject, fuzzKinds, laneNames, type FuzzKind } from "./fuzz-kinds.ts";
import { printable, type FuzzRequest, type Precondition } from "./fuzz-request.ts";
import { acceptArbitrary, contentTypeArbitrary, mediaTypes } from "./media-types.ts";
import { patchBodyArbitrary } from "./patch-arbitraries.ts";
import { mutatedPath, readPathArbitrary, writePath } from "./path-arbitraries.ts";
import { deleteQueryArbitrary, readQueryArbitrary, writeQueryArbitrary } from "./query-arbitraries.ts";
import { formatFieldPath, withRawNumbers, withValueAt, wrongValueArbitrary } from "./wrong-types.ts";

/** A request before the shared headers: method, path, query, body and its media type. */
interface Core {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly generated?: GeneratedBody;
  readonly contentType?: string;
  readonly write?: FuzzRequest["write"];
  readonly intent: string;
}

/** Everything a request generator needs to know about the server. */
export interface GeneratorContext {
  readonly dialect: Pick<Dialect, "protobufMediaType" | "metaGroup" | "groups">;
}

/** The requests of one lane. */
export function laneRequestArbitrary(context: GeneratorContext, lane: number): fc.Arbitrary<FuzzRequest> {
  const kinds = fuzzKinds(context.dialect);
  const types = mediaTypes(context.dialect);
  const protobufType = context.dialect.protobufMediaType;
  const core = fc.oneof(
    { weight: 30, arbitrary: readCore(kinds, lane) },
    { weight: 20, arbitrary: createCore(kinds, lane, types, protobufType) },
    { weight: 12, arbitrary: updateCore(kinds, lane, types, protobufType) },
    { weight: 20, arbitrary: patchCore(kinds, lane) },
    { weight: 8, arbitrary: deleteCore(kinds, lane) },
    { weight: 6, arbitrary: subresourceCore(kinds, lane, types) },
    { weight: 4, arbitrary: oddMethodCore(kinds, lane) },
  );
  return fc.tuple(core, acceptArbitrary(types), noiseArbitrary(), lieArbitrary()).map(([c, accept, noise, lie]) => {
    const headers: Array<[string, string]> = [];
    if (accept !== undefined) headers.push(["Accept", accept]);
    if (c.contentType !== undefined) headers.push(["Content-Type", c.contentType]);
    if (noise !== undefined) headers.push(noise);
    const body = c.generated?.body;
    // A lie needs a body to lie about.
    const lengthLie = body === undefined ? undefined : lie;
    const intent = [c.intent, c.generated?.intent, noise === undefined ? undefined : `header ${noise[0]}`, lengthLie === undefined ? undefined : `Content-Length ${lengthLie}`].filter((part) => part !== undefined).join("; ");
    return printable({
      lane,
      method: c.method,
      path: c.path,
      query: c.query,
      headers,
      ...(body !== undefined && { body }),
      ...(lengthLie !== undefined && { lengthLie }),
      ...(c.write !== undefined && { write: c.write }),
      intent,
    });
  });
}

function readCore(kinds: readonly FuzzKind[], lane: number): fc.Arbitrary<Core> {
  return fc.tuple(fc.constantFrom("GET", "GET", "GET", "GET", "HEAD", "OPTIONS"), readPathArbitrary(kinds, lane), readQueryArbitrary()).map(([method, path, query]) => ({ method, path, query, intent: "read" }));
}

const kindArbitrary = (kinds: readonly FuzzKind[]) => fc.constantFrom(...kinds);

function nameArbitrary(lane: number): fc.Arbitrary<string> {
  return fc.constantFrom(...laneNames(lane));
}

function preconditionArbitrary(usual: Precondition): fc.Arbitrary<Precondition> {
  return fc.oneof({ weight: 8, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom<Precondition>("present", "absent", "any") });
}

function withContentType(generated: GeneratedBody, types: readonly string[]): fc.Arbitrary<{ generated: GeneratedBody; contentType: string | undefined }> {
  return contentTypeArbitrary(generated.writtenAs, types).map((contentType) => ({ generated, contentType }));
}

function createCore(kinds: readonly FuzzKind[], lane: number, types: readonly string[], protobufType: string): fc.Arbitrary<Core> {
  return fc.tuple(kindArbitrary(kinds), nameArbitrary(lane)).chain(([kind, name]) =>
    fc
      .tuple(
        mutatedPath(writePath(kind, undefined), "write"),
        writeQueryArbitrary(),
        objectBodyArbitrary(kind, lane, name, protobufType).chain((generated) => withContentType(generated, types)),
        preconditionArbitrary("absent"),
      )
      .map(([path, query, { generated, contentType }, precondition]) => ({
        method: "POST",
        path,
        query,
        generated,
        ...(contentType !== undefined && { contentType }),
        write: { resource: kind.resource, name, precondition },
        intent: `create ${kind.kind} ${name}`,
      })),
  );
}

function updateCore(kinds: readonly FuzzKind[], lane: number, types: readonly string[], protobufType: string): fc.Arbitrary<Core> {
  return fc.tuple(kindArbitrary(kinds), nameArbitrary(lane)).chain(([kind, name]) =>
    fc
      .tuple(
        mutatedPath(writePath(kind, name), "write"),
        writeQueryArbitrary(),
        objectBodyArbitrary(kind, lane, name, protobufType).chain((generated) => withContentType(generated, types)),
        preconditionArbitrary("present"),
      )
      .map(([path, query, { generated, contentType }, precondition]) => ({
        method: "PUT",
        path,
        query,
        generated,
        ...(contentType !== undefined && { contentType }),
        write: { resource: kind.resource, name, precondition },
        intent: `update ${kind.kind} ${name}`,
      })),
  );
}

function patchCore(kinds: readonly FuzzKind[], lane: number): fc.Arbitrary<Core> {
  return fc.tuple(kindArbitrary(kinds), nameArbitrary(lane)).chain(([kind, name]) =>
    fc.tuple(mutatedPath(writePath(kind, name), "write"), writeQueryArbitrary(), patchBodyArbitrary(kind, lane), preconditionArbitrary("present")).map(([path, query, generated, precondition]) => ({
      method: "PATCH",
      path,
      query,
      generated,
      contentType: generated.writtenAs,
      write: { resource: kind.resource, name, precondition },
      intent: `patch ${kind.kind} ${name}`,
    })),
  );
}

function deleteCore(kinds: readonly FuzzKind[], lane: number): fc.Arbitrary<Core> {
  const options = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom<unknown>(
          { gracePeriodSeconds: 0 },
          { gracePeriodSeconds: -1 },
          { gracePeriodSeconds: "0" },
          { propagationPolicy: "Bogus" },
          { propagationPolicy: "Foreground" },
          { dryRun: ["All"] },
          { dryRun: ["Bogus"] },
          { dryRun: "All" },
          { preconditions: { uid: "$UID$" } },
          { preconditions: { uid: "0b3c1a9e-0000-4000-8000-000000000000" } },
          { preconditions: { resourceVersion: "1" } },
          { preconditions: { resourceVersion: "$RV$" } },
          { kind: "DeleteOptions", apiVersion: "v1", orphanDependents: true, propagationPolicy: "Background" },
          { kind: "Pod", apiVersion: "v1" },
          { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v2" },
          [],
          "x",
        )
        .map((document): GeneratedBody => ({ body: { text: JSON.stringify(document) }, writtenAs: "application/json", intent: `DeleteOptions ${JSON.stringify(document)}` })),
    },
    { weight: 1, arbitrary: fc.constantFrom("{", "null", "{\"gracePeriodSeconds\":1e400}", "\u00ff").map((text): GeneratedBody => ({ body: { text }, writtenAs: "application/json", intent: `DeleteOptions ${JSON.stringify(text)}` })) },
  );
  return fc.tuple(kindArbitrary(kinds), fc.option(nameArbitrary(lane), { nil: undefined, freq: 5 })).chain(([kind, name]) =>
    fc.tuple(mutatedPath(writePath(kind, name), "write"), deleteQueryArbitrary(lane), options, preconditionArbitrary("present")).map(([path, query, generated, precondition]) => ({
      method: "DELETE",
      path,
      query,
      ...(generated !== undefined && { generated, contentType: "application/json" }),
      write: { resource: kind.resource, ...(name !== undefined && { name }), precondition: name === undefined ? "any" : precondition },
      intent: name === undefined ? `delete the lane's ${kind.resource}` : `delete ${kind.kind} ${name}`,
    })),
  );
}

function subresourceCore(kinds: readonly FuzzKind[], lane: number, types: readonly string[]): fc.Arbitrary<Core> {
  const withSubresources = kinds.filter((kind) => kind.subresources.length > 0);
  return fc.tuple(fc.constantFrom(...withSubresources), nameArbitrary(lane)).chain(([kind, name]) => {
    const subresources = kind.kind === "Pod" ? [...kind.subresources, "eviction"] : kind.subresources;
    return fc.constantFrom(...subresources).chain((subresource) =>
      fc
        .tuple(mutatedPath(writePath(kind, name, subresource), "write"), writeQueryArbitrary(), subresourceBodyArbitrary(kind, lane, name, subresource), fc.constantFrom("PUT", "PATCH", "POST"))
        .chain(([path, query, generated, method]) =>
          contentTypeArbitrary(method === "PATCH" ? "application/merge-patch+json" : generated.writtenAs, types).map((contentType) => ({
            method: subresource === "eviction" ? "POST" : method === "POST" ? "PUT" : method,
            path,
            query,
            generated,
            ...(contentType !== undefined && { contentType }),
            // An eviction deletes the Pod: the lane's pods are what it may change.
            write: { resource: kind.resource, name, precondition: "present" as const },
            intent: `${subresource} of ${kind.kind} ${name}`,
          })),
        ),
    );
  });
}

function subresourceBodyArbitrary(kind: FuzzKind, lane: number, name: string, subresource: string): fc.Arbitrary<GeneratedBody> {
  const json = (document: unknown, intent: string): GeneratedBody => ({ body: { text: withRawNumbers(JSON.stringify(document)) }, writtenAs: "application/json", intent });
  if (subresource === "scale") {
    return fc
      .constantFrom<unknown>(2, 0, -1, "2", 1.5, 2 ** 31, null)
      .map((replicas) => json({ apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name }, spec: { replicas } }, `Scale replicas ${JSON.stringify(replicas)}`));
  }
  if (subresource === "eviction") {
    return fc
      .constantFrom<unknown>({}, { gracePeriodSeconds: 0 }, { dryRun: ["All"] }, { dryRun: ["Bogus"] }, { preconditions: { uid: "0b3c1a9e-0000-4000-8000-000000000000" } }, { gracePeriodSeconds: "x" })
      .chain((deleteOptions) =>
        fc.constantFrom(name, `fz${lane}-b`, "").map((evictedName) => json({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name: evictedName }, deleteOptions }, `Eviction of ${JSON.stringify(evictedName)} with ${JSON.stringify(deleteOptions)}`)),
      );
  }
  const status = wrongValueArbitrary(kind.message).map((wrong) => {
    const object = withValueAt(baselineObject(kind, lane, name), ["status", ...wrong.path.slice(wrong.path[0] === "status" ? 1 : 0)], wrong.value);
    return json(object, `status with a wrong type at ${formatFieldPath(wrong.path)}`);
  });
  return fc.oneof(
    status,
    fc.constantFrom<unknown>({ phase: "Running" }, { phase: "Bogus" }, { conditions: [{ type: "Ready", status: "Maybe" }] }, { replicas: -1 }, { loadBalancer: { ingress: [{ ip: "not-an-ip" }] } }, null, "x").map((value) =>
      json({ ...baselineObject(kind, lane, name), status: value }, `status ${JSON.stringify(value)}`),
    ),
  );
}

function oddMethodCore(kinds: readonly FuzzKind[], lane: number): fc.Arbitrary<Core> {
  const method = fc.constantFrom("FOO", "get", "post", "put", "patch", "delete", "Patch", "PROPFIND", "MKCOL", "PURGE", "QUERY", "LOCK", "M-SEARCH", "CONNECT", "TRACE", "TRACK", "OPTIONS", "HEAD", "G@T", "LINK");
  return fc.tuple(method, kindArbitrary(kinds), fc.option(nameArbitrary(lane), { nil: undefined })).chain(([m, kind, name]) =>
    mutatedPath(writePath(kind, name), "write").map((path) => ({
      method: m,
      path,
      query: "",
      generated: { body: { text: JSON.stringify(baselineObject(kind, lane, name ?? laneNames(lane)[0]!)) }, writtenAs: "application/json", intent: "a valid object" },
      contentType: "application/json",
      write: { resource: kind.resource, ...(name !== undefined && { name }), precondition: "any" as const },
      intent: `method ${m} on ${kind.resource}`,
    })),
  );
}

/** Now and then a header no request needs. */
function noiseArbitrary(): fc.Arbitrary<[string, string] | undefined> {
  return fc.oneof(
    { weight: 11, arbitrary: fc.constant(undefined) },
    fc.constantFrom<[string, string] | undefined>(
      ["X-Fuzz", "1"],
      ["X-Long", "x".repeat(100_000)],
      ["X-Latin1", "caf\u00e9 \u00ff"],
      ["Content-Encoding", "gzip"],
      ["Content-Encoding", "bogus"],
      ["Accept-Encoding", "gzip"],
      ["Impersonate-User", "fz-nobody"],
      ["Impersonate-Group", "system:masters"],
      ["X-HTTP-Method-Override", "DELETE"],
      ["Range", "bytes=0-10"],
      ["If-None-Match", "*"],
    ),
  );
}

/** Rarely a Content-Length that lies: fewer bytes declared than sent, or more. */
function lieArbitrary(): fc.Arbitrary<"short" | "long" | undefined> {
  return fc.oneof({ weight: 60, arbitrary: fc.constant(undefined) }, fc.constantFrom<"short" | "long" | undefined>("short", "short", "long"));
}
