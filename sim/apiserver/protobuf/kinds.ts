/**
 * Which kinds have a Protobuf form, and the message of each: the kinds recorded with their
 * messages (recorded-messages.ts: the built-in kinds the server served when recorded, their lists,
 * their subresources' kinds, Status and DeleteOptions). Custom resources are JSON only (issue #4):
 * they are not here, and `supportsProtobuf` says so, for the server's 415. The groups a dialect
 * renames (coordination, authorization, RBAC, meta) are registered under each dialect's name.
 */
import { dialectByName, dialects, type Dialect } from "../../../spec/dialects.ts";
import { recordedKinds } from "./recorded-messages.ts";

/** A kind with a Protobuf form. */
export interface ProtobufKind {
  readonly apiVersion: string;
  readonly kind: string;
  /** The key of its message in the schema (schema.ts). */
  readonly message: string;
}

const kubernetes = dialectByName("kubernetes");

/** The names of a recorded (kubernetes dialect) group/version in every dialect. */
function aliases(groupVersion: string): string[] {
  const [group, version] = groupVersion.includes("/") ? groupVersion.split("/") : ["", groupVersion];
  if (group === kubernetes.metaGroup) return dialects.map((dialect) => `${dialect.metaGroup}/${version}`);
  const role = (Object.keys(kubernetes.groups) as Array<keyof Dialect["groups"]>).find((name) => kubernetes.groups[name] === group);
  if (role === undefined) return [groupVersion];
  return dialects.map((dialect) => `${dialect.groups[role]}/${version}`);
}

function registry(): Map<string, ProtobufKind> {
  const byKey = new Map<string, ProtobufKind>();
  for (const { apiVersion: recorded, kind, message } of recordedKinds()) {
    for (const apiVersion of new Set([recorded, ...aliases(recorded)])) byKey.set(`${apiVersion} ${kind}`, { apiVersion, kind, message });
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
