/**
 * The kinds the HTTP fuzzer writes, all namespaced, all served by kube-apiserver 1.26 and the
 * embedded server: where their collection is, which subresources take writes, and the valid
 * baseline object each lane keeps of them (the state a write starts from, so that every write is
 * judged against a known object and a shrunk failure replays from the same state).
 *
 * Lane objects are recognized by their name prefix (`fz<lane>-`) and carry the label
 * `orb-fuzz-lane=<lane>`, which every collection delete is restricted to.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { PLACEHOLDERS } from "./fuzz-request.ts";

/** The label every lane object carries; collection deletes select on it. */
export const LANE_LABEL = "orb-fuzz-lane";

/** A kind the fuzzer writes. */
export interface FuzzKind {
  readonly resource: string;
  readonly kind: string;
  /** `v1` or `<group>/v1`. */
  readonly apiVersion: string;
  /** The path prefix before `/namespaces/…`: `/api/v1` or `/apis/<group>/v1`. */
  readonly root: string;
  /** Subresources that take PUT and PATCH (`eviction` takes POST). */
  readonly subresources: readonly string[];
  /** The message in sim/apiserver/protobuf's tables: the Go type, for wrong-type bodies. */
  readonly message: string;
  /** The `spec`-like content of a valid object (everything but kind, apiVersion and metadata). */
  readonly content: () => Record<string, unknown>;
}

const CONTAINER = { name: "c", image: "registry.k8s.io/pause:3.9" };

/** The kinds, with the coordination group of `dialect`. */
export function fuzzKinds(dialect: Pick<Dialect, "groups">): readonly FuzzKind[] {
  const core = (resource: string, kind: string, subresources: readonly string[], content: () => Record<string, unknown>): FuzzKind => ({
    resource,
    kind,
    apiVersion: "v1",
    root: "/api/v1",
    subresources,
    message: kind,
    content,
  });
  const group = (name: string, resource: string, kind: string, subresources: readonly string[], content: () => Record<string, unknown>): FuzzKind => ({
    resource,
    kind,
    apiVersion: `${name}/v1`,
    root: `/apis/${name}/v1`,
    subresources,
    message: kind,
    content,
  });
  return [
    core("configmaps", "ConfigMap", [], () => ({ data: { k: "v" } })),
    core("secrets", "Secret", [], () => ({ type: "Opaque", data: { k: "dg==" } })),
    core("services", "Service", ["status"], () => ({ spec: { ports: [{ port: 80, targetPort: 8080 }], selector: { app: "fz" } } })),
    core("pods", "Pod", ["status"], () => ({ spec: { containers: [CONTAINER] } })),
    core("events", "Event", [], () => ({
      involvedObject: { kind: "ConfigMap", namespace: PLACEHOLDERS.namespace, name: "fz" },
      reason: "Fuzz",
      message: "fuzz",
      type: "Normal",
    })),
    group(dialect.groups.coordination, "leases", "Lease", [], () => ({ spec: { holderIdentity: "fz" } })),
    group("apps", "deployments", "Deployment", ["status", "scale"], () => ({
      spec: { replicas: 1, selector: { matchLabels: { app: "fz" } }, template: { metadata: { labels: { app: "fz" } }, spec: { containers: [CONTAINER] } } },
    })),
  ];
}

/** The object names a lane owns: its writes name these (or a deliberately invalid variant). */
export function laneNames(lane: number): readonly string[] {
  return [`fz${lane}-a`, `fz${lane}-b`];
}

/** Whether `name` belongs to `lane`. */
export function isLaneObject(lane: number, name: unknown): boolean {
  return typeof name === "string" && name.startsWith(`fz${lane}-`);
}

/** The collection path of a kind in the fuzzer's namespace. */
export function collectionPath(kind: FuzzKind): string {
  return `${kind.root}/namespaces/${PLACEHOLDERS.namespace}/${kind.resource}`;
}

/** A lane's valid object of `kind` named `name`. */
export function baselineObject(kind: FuzzKind, lane: number, name: string): Record<string, unknown> {
  return { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name, labels: { [LANE_LABEL]: String(lane) } }, ...kind.content() };
}
