/**
 * Request paths (issue #14: "valid, truncated, doubled slashes, encoded characters and slashes,
 * `..`, unknown groups and versions, very long"). Reads may go anywhere; writes get only the
 * mutations that cannot move them out of the lane's objects in the fuzzer's namespace: never a
 * dot segment (a URL parser resolves `x/..` to the collection, and `configmaps/..` to the
 * namespace itself) and never a truncation.
 */
import fc from "fast-check";
import { collectionPath, laneNames, type FuzzKind } from "./fuzz-kinds.ts";
import { PLACEHOLDERS } from "./fuzz-request.ts";

const NS = PLACEHOLDERS.namespace;

/** Names that are not valid object names, or that name nothing. */
const ODD_NAMES = ["UPPER", "a_b", "-a", "a.", "..", ".", "%00", "%2e%2e", "a%2Fb", "%ff", "é", "x".repeat(254), "%20", "a%3Fb", "*"];

/** A path for a read: anything the server might be asked. */
export function readPathArbitrary(kinds: readonly FuzzKind[], lane: number): fc.Arbitrary<string> {
  const kind = fc.constantFrom(...kinds);
  const name = fc.oneof(fc.constantFrom(...laneNames(lane)), fc.constantFrom(...ODD_NAMES), fc.webSegment());
  const namespace = fc.constantFrom(NS, NS, "default", "kube-system", "no-such-namespace", "", "UPPER", "%00");
  const resourcePath = fc.oneof(
    kind.map((k) => collectionPath(k)),
    fc.tuple(kind, name).map(([k, n]) => `${collectionPath(k)}/${n}`),
    fc.tuple(kind, name, fc.constantFrom("status", "scale", "eviction", "log", "nope", "")).map(([k, n, sub]) => `${collectionPath(k)}/${n}/${sub}`),
    fc.tuple(kind, namespace).map(([k, ns]) => `${k.root}/namespaces/${ns}/${k.resource}`),
    kind.map((k) => `${k.root}/${k.resource}`),
  );
  const fixedPaths = fc.constantFrom(
    "/",
    "/api",
    "/api/v1",
    "/apis",
    "/apis/apps",
    "/apis/apps/v1",
    "/apis/apps/v2",
    "/apis/no.such.group/v1/things",
    "/apis/no.such.group",
    "/api/v2/configmaps",
    "/api/v1/nosuchthings",
    "/api/v1/namespaces",
    `/api/v1/namespaces/${NS}`,
    `/api/v1/namespaces/${NS}/status`,
    `/api/v1/namespaces/${NS}/finalize`,
    "/api/v1/nodes",
    "/api/v1/nodes/no-such-node",
    "/version",
    "/version/x",
    "/openapi/v2",
    "/openapi/v3",
    "/openapi/v3/api/v1",
    "/healthz",
    "/livez",
    "/readyz",
    "/readyz/etcd",
    "/livez/ping",
    "/readyz/no-such-check",
    "/healthz/log",
    "/metrics",
    "/logs",
    "/.well-known/openid-configuration",
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
  );
  return fc.oneof({ weight: 3, arbitrary: resourcePath }, { weight: 2, arbitrary: fixedPaths }).chain((path) => mutatedPath(path, "read"));
}

/** The path of a write on `kind` in the fuzzer's namespace: the collection, or an object (and subresource). */
export function writePath(kind: FuzzKind, name: string | undefined, subresource?: string): string {
  const base = collectionPath(kind);
  if (name === undefined) return base;
  return subresource === undefined ? `${base}/${name}` : `${base}/${name}/${subresource}`;
}

/**
 * `path` as sent: usually unchanged. Reads get every mutation; writes only those that keep them on
 * the same object or on nothing at all.
 */
export function mutatedPath(path: string, use: "read" | "write"): fc.Arbitrary<string> {
  const safe: Array<fc.WeightedArbitrary<string>> = [
    { weight: 12, arbitrary: fc.constant(path) },
    { weight: 1, arbitrary: fc.nat().map((seed) => doubleASlash(path, seed)) },
    { weight: 1, arbitrary: fc.nat().map((seed) => percentEncodeOne(path, seed, use === "write")) },
    { weight: 1, arbitrary: fc.nat().map((seed) => encodeASlash(path, seed)) },
    { weight: 1, arbitrary: fc.constant(`${path}/`) },
    { weight: 1, arbitrary: fc.constantFrom("v2", "v1beta1", "V1", "").map((version) => path.replace(/\/v1(\/|$)/, `/${version}$1`)) },
    { weight: 1, arbitrary: fc.constantFrom("/apis/no.such.group/v1", "/apis/APPS/v1", "/apis/apps.k8s.io/v1").map((root) => path.replace(/^\/apis?\/[^/]+(\/v1)?/, root)) },
    { weight: 1, arbitrary: fc.constantFrom("/extra", "/status/extra", "/x/y/z").map((tail) => `${path}${tail}`) },
  ];
  if (use === "write") return fc.oneof(...safe);
  return fc.oneof(
    ...safe,
    { weight: 1, arbitrary: fc.nat().map((seed) => path.slice(0, seed % (path.length + 1)) || "/") },
    { weight: 1, arbitrary: fc.constantFrom("/..", "/.", "/../..", "/%2e%2e", "/./x/..").map((dots) => `${path}${dots}`) },
    { weight: 1, arbitrary: fc.constantFrom("%zz", "%", "%2", "%C3%28", "%00", "%ff", "é", " ", "\t", "?", "#").map((odd) => `${path}${odd}`) },
    { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 40_000 }).map((length) => `${path}/${"a".repeat(length)}`) },
    { weight: 1, arbitrary: fc.constant(path.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom("*", "api/v1", "//api/v1", "http://example.com/api/v1").map((target) => target) },
  );
}

function doubleASlash(path: string, seed: number): string {
  const slashes = [...path].flatMap((char, index) => (char === "/" ? [index] : []));
  if (slashes.length === 0) return path;
  const at = slashes[seed % slashes.length]!;
  return `${path.slice(0, at)}/${path.slice(at)}`;
}

// One character of a segment percent-encoded. A write never gets an encoded dot: `%2e` segments
// are dot segments to a URL parser.
function percentEncodeOne(path: string, seed: number, write: boolean): string {
  const placeholders = [...path.matchAll(/\$[A-Z_]+\$/g)].map((match) => [match.index, match.index + match[0].length] as const);
  const inPlaceholder = (index: number) => placeholders.some(([start, end]) => index >= start && index < end);
  const candidates = [...path].flatMap((char, index) => ((/[a-z0-9\-]/i.test(char) || (!write && char === ".")) && !inPlaceholder(index) ? [index] : []));
  if (candidates.length === 0) return path;
  const at = candidates[seed % candidates.length]!;
  const hex = path.charCodeAt(at).toString(16).toUpperCase().padStart(2, "0");
  return `${path.slice(0, at)}%${seed % 2 === 0 ? hex : hex.toLowerCase()}${path.slice(at + 1)}`;
}

function encodeASlash(path: string, seed: number): string {
  const slashes = [...path].flatMap((char, index) => (char === "/" && index > 0 ? [index] : []));
  if (slashes.length === 0) return path;
  const at = slashes[seed % slashes.length]!;
  return `${path.slice(0, at)}%2${seed % 2 === 0 ? "F" : "f"}${path.slice(at + 1)}`;
}
