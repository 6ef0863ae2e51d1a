/**
 * Request bodies nested to an exact depth (issue #14): the ConfigMap creates and patches whose
 * answers from a real kube-apiserver 1.26 are recorded in
 * spec/reference/kube-apiserver-1.26/transcripts-nesting-depth.jsonl, built here so that the
 * recording, the test comparing the embedded server with it and the fuzzer send the same bytes.
 *
 * Depth counts as Go's encoding/json scanner does (and go-yaml for YAML): the outermost `{` is
 * level 1, so `{"data":{"k":"v"}}` has depth 2. Each shape puts the deep value either where a
 * ConfigMap field expects a string (`data`: the decoder refuses its type) or in a field
 * ConfigMap does not have (`extra`: dropped as unknown), because Kubernetes answers the two
 * differently below its bound.
 */

/** One deep request: its shape, the method, the path under the namespace and the body. */
export interface DeepRequest {
  /** The transcript id: `depth-<shape>-<depth>`. */
  readonly id: string;
  readonly shape: DeepShape;
  readonly depth: number;
  readonly method: "POST" | "PATCH";
  /** `configmaps` (create) or `configmaps/<target>` (patch), relative to `/api/v1/namespaces/<ns>/`. */
  readonly resourcePath: string;
  readonly contentType: string;
  readonly body: string;
  /** What the body holds, in words (the transcript's note). */
  readonly description: string;
}

/** The shapes recorded. */
export const DEEP_SHAPES = [
  "json-create-data",
  "json-create-unknown",
  "yaml-create-data",
  "yaml-create-unknown",
  "merge-patch-data",
  "merge-patch-unknown",
  "json-patch-data",
  "json-patch-unknown",
  "strategic-patch-data",
  "strategic-patch-unknown",
] as const;
export type DeepShape = (typeof DEEP_SHAPES)[number];

/** The depths recorded (Kubernetes' own bound, 10000, lies between the last two). */
export const RECORDED_DEPTHS = [1_000, 5_000, 20_000] as const;

/** The ConfigMap the patches are sent to (created first, with data {"k":"v"}). */
export const DEEP_PATCH_TARGET = "deep-target";

/** `m` JSON objects nested in one another, `{"a":{"a":...{"a":"v"}}}`: depth m. */
export function jsonObjects(m: number): string {
  return '{"a":'.repeat(m - 1) + '{"a":"v"}' + "}".repeat(m - 1);
}

/** `m` YAML flow mappings nested in one another, `{a: {a: ...{a: v}}}`: depth m. */
export function yamlFlowMappings(m: number): string {
  return "{a: ".repeat(m - 1) + "{a: v}" + "}".repeat(m - 1);
}

/** The request of one shape whose body nests exactly `depth` levels (depth ≥ 3). */
export function deepRequest(shape: DeepShape, depth: number): DeepRequest {
  const id = `depth-${shape}-${depth}`;
  const name = `deep-${shape.replace("-create", "")}-${depth}`;
  const head = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},`;
  const yamlHead = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
  const patchPath = `configmaps/${DEEP_PATCH_TARGET}`;
  const make = (method: "POST" | "PATCH", contentType: string, body: string, description: string): DeepRequest => ({
    id,
    shape,
    depth,
    method,
    resourcePath: method === "POST" ? "configmaps" : patchPath,
    contentType,
    body,
    description: `${description} (body depth ${depth})`,
  });
  switch (shape) {
    case "json-create-data":
      return make("POST", "application/json", `${head}"data":{"k":${jsonObjects(depth - 2)}}}`, `JSON ConfigMap create whose data.k is ${depth - 2} nested objects {"a":...}`);
    case "json-create-unknown":
      return make("POST", "application/json", `${head}"extra":${jsonObjects(depth - 1)}}`, `JSON ConfigMap create with an unknown field extra holding ${depth - 1} nested objects`);
    case "yaml-create-data":
      return make("POST", "application/yaml", `${yamlHead}data:\n  k: ${yamlFlowMappings(depth - 2)}\n`, `YAML ConfigMap create whose data.k is ${depth - 2} nested flow mappings {a: ...}`);
    case "yaml-create-unknown":
      return make("POST", "application/yaml", `${yamlHead}extra: ${yamlFlowMappings(depth - 1)}\n`, `YAML ConfigMap create with an unknown field extra holding ${depth - 1} nested flow mappings`);
    case "merge-patch-data":
      return make("PATCH", "application/merge-patch+json", `{"data":{"a":${jsonObjects(depth - 2)}}}`, `merge patch of ${DEEP_PATCH_TARGET} setting data.a to ${depth - 2} nested objects`);
    case "merge-patch-unknown":
      return make("PATCH", "application/merge-patch+json", `{"extra":${jsonObjects(depth - 1)}}`, `merge patch of ${DEEP_PATCH_TARGET} setting the unknown field extra to ${depth - 1} nested objects`);
    case "json-patch-data":
      return make("PATCH", "application/json-patch+json", `[{"op":"add","path":"/data/a","value":${jsonObjects(depth - 2)}}]`, `JSON patch of ${DEEP_PATCH_TARGET} adding /data/a as ${depth - 2} nested objects`);
    case "json-patch-unknown":
      return make("PATCH", "application/json-patch+json", `[{"op":"add","path":"/extra","value":${jsonObjects(depth - 2)}}]`, `JSON patch of ${DEEP_PATCH_TARGET} adding the unknown field /extra as ${depth - 2} nested objects`);
    case "strategic-patch-data":
      return make("PATCH", "application/strategic-merge-patch+json", `{"data":{"a":${jsonObjects(depth - 2)}}}`, `strategic merge patch of ${DEEP_PATCH_TARGET} setting data.a to ${depth - 2} nested objects`);
    case "strategic-patch-unknown":
      return make("PATCH", "application/strategic-merge-patch+json", `{"extra":${jsonObjects(depth - 1)}}`, `strategic merge patch of ${DEEP_PATCH_TARGET} setting the unknown field extra to ${depth - 1} nested objects`);
  }
}

/** Every recorded request: each depth, each shape. */
export function recordedDeepRequests(): DeepRequest[] {
  return RECORDED_DEPTHS.flatMap((depth) => DEEP_SHAPES.map((shape) => deepRequest(shape, depth)));
}
