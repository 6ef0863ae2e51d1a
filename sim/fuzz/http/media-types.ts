/**
 * Media types for Accept and Content-Type headers (issue #14: "Accept and Content-Type
 * combinations, ~100 media types"): the ones Kubernetes serves, with and without their
 * parameters (Table, PartialObjectMetadata, watch streams, pretty), the patch types, types no
 * server offers, and malformed ones.
 */
import fc from "fast-check";
import type { Dialect } from "../../../spec/dialects.ts";

const PATCH_TYPES = ["application/merge-patch+json", "application/json-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"];

/** Every media type the fuzzer sends, for `dialect` (its Protobuf type and meta group first). */
export function mediaTypes(dialect: Pick<Dialect, "protobufMediaType" | "metaGroup">): readonly string[] {
  const served = ["application/json", "application/yaml", dialect.protobufMediaType];
  const meta = dialect.metaGroup;
  const asParams = [
    `as=Table;g=${meta};v=v1`,
    `as=Table;g=${meta};v=v1beta1`,
    `as=Table;g=${meta};v=v2`,
    `as=Table;g=wrong.example.io;v=v1`,
    `as=Table`,
    `as=PartialObjectMetadata;g=${meta};v=v1`,
    `as=PartialObjectMetadataList;g=${meta};v=v1`,
    `as=PartialObjectMetadata;g=${meta};v=v1beta1`,
    `as=Unknown;g=${meta};v=v1`,
  ];
  const otherParams = ["stream=watch", "pretty=1", "pretty=0", "charset=utf-8", "charset=latin1", "q=0", "q=0.5", "q=1.5", "q=abc", "v=v1", "=", "a=b=c", ";"];
  return [
    ...served,
    ...served.flatMap((type) => asParams.map((params) => `${type};${params}`)),
    ...served.flatMap((type) => otherParams.map((params) => `${type};${params}`)),
    `application/json;stream=watch;${asParams[0]}`,
    ...PATCH_TYPES,
    ...PATCH_TYPES.map((type) => `${type}; charset=utf-8`),
    "application/vnd.kubernetes.protobuf",
    "application/vnd.orb.protobuf",
    "application/vnd.kubernetes.protobuf;stream=watch",
    "APPLICATION/JSON",
    "Application/Yaml",
    "application/JSON;AS=TABLE;G=META.K8S.IO;V=V1",
    "*/*",
    "application/*",
    "*",
    "*/json",
    "text/plain",
    "text/html",
    "text/yaml",
    "application/x-yaml",
    "application/xml",
    "application/cbor",
    "application/octet-stream",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "image/png",
    "application/json-seq",
    "application/problem+json",
    "",
    " ",
    "application",
    "application/",
    "/json",
    "application/json;",
    "application/json;;;",
    "application/json, application/yaml;q=0.5",
    `application/json;q=0, ${dialect.protobufMediaType};q=0.9`,
    "text/plain;q=1, */*;q=0.1",
    "application/json\u00e9",
    `application/${"x".repeat(4096)}`,
  ];
}

/** An Accept header: one to three media types, or none. */
export function acceptArbitrary(types: readonly string[]): fc.Arbitrary<string | undefined> {
  return fc.option(
    fc.array(fc.constantFrom(...types), { minLength: 1, maxLength: 3 }).map((chosen) => chosen.join(", ")),
    { nil: undefined, freq: 3 },
  );
}

/** A Content-Type for an object body: mostly the one it is written in, sometimes anything. */
export function contentTypeArbitrary(written: string, types: readonly string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(written) },
    { weight: 3, arbitrary: fc.constantFrom(...types) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
