/**
 * Which kinds have a Protobuf form, and the message of each: the built-in kinds the server serves
 * (resource-types.ts), their lists, Status, DeleteOptions and Eviction. Custom resources are JSON
 * only (issue #4): they are not here, and `supportsProtobuf` says so, for the server's 415.
 * The coordination, authorization and meta groups are registered under each dialect's name for them.
 */
import { dialects } from "../../../spec/dialects.ts";
import { PACKAGES } from "./schema.ts";

/** A kind with a Protobuf form. */
export interface ProtobufKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** The short name of its message in the schema. */
  readonly message: string;
}

/** Other names of a group/version, per dialect. */
function aliases(groupVersion: string): string[] {
  if (groupVersion === "coordination.k8s.io/v1") return dialects.map((dialect) => `${dialect.groups.coordination}/v1`);
  if (groupVersion === "meta.k8s.io/v1") return dialects.map((dialect) => `${dialect.metaGroup}/v1`);
  if (groupVersion === "authorization.k8s.io/v1") return dialects.map((dialect) => `${dialect.groups.authorization}/v1`);
  return [groupVersion];
}

function registry(): Map<string, ProtobufKind> {
  const byKey = new Map<string, ProtobufKind>();
  for (const pkg of PACKAGES) {
    for (const groupVersion of pkg.kinds?.groupVersions ?? []) {
      for (const apiVersion of new Set([groupVersion, ...aliases(groupVersion)])) {
        for (const kind of pkg.kinds?.names ?? []) byKey.set(`${apiVersion} ${kind}`, { apiVersion, kind, message: kind });
      }
    }
  }
  return byKey;
}

const REGISTRY = registry();

/** The Protobuf form of `apiVersion`/`kind`, or undefined when it has none (custom resources). */
export function protobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  return REGISTRY.get(`${apiVersion} ${kind}`);
}

/** Whether objects of `apiVersion`/`kind` can be sent and received as Protobuf. */
export function supportsProtobuf(apiVersion: string, kind: string): boolean {
  return REGISTRY.has(`${apiVersion} ${kind}`);
}

/** Every kind with a Protobuf form. */
export function protobufKinds(): readonly ProtobufKind[] {
  return [...REGISTRY.values()];
}

/** The message names that are API kinds (their JSON may carry `kind` and `apiVersion`). */
export const KIND_MESSAGES: ReadonlySet<string> = new Set([...REGISTRY.values()].map((entry) => entry.message));
