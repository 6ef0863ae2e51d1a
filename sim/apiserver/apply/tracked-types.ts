/**
 * What field ownership needs to know of a served type: its structure (type-structure.ts, by its
 * Kubernetes group, so the orb dialect's Lease reads coordination.k8s.io's schema), and which
 * fields a write of one of its subresources does not own: a write of the object itself does not
 * own status when the type has a status subresource (Kubernetes' ResetFields strategies).
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { kubernetesGroupOf } from "../discovery/openapi-schemas.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import { FieldSet, fieldElement } from "./field-set.ts";
import type { TrackedType } from "./field-manager.ts";
import { DEDUCED, typeStructure } from "./type-structure.ts";

const NOTHING = new FieldSet();
const STATUS = new FieldSet();
STATUS.insert([fieldElement("status")]);

/** The tracking of writes of `type` (its `subresource`, if any). */
export function trackedType(type: ResourceType, dialect: Dialect, subresource: string | undefined): TrackedType {
  // A custom resource's structure is its definition's; without one the server deduces it, as structured-merge-diff does.
  const node = type.custom !== undefined ? DEDUCED : typeStructure(kubernetesGroupOf(type.group, dialect), type.version, type.kind);
  const ignored = subresource === undefined && type.subresources["status"] !== undefined ? STATUS : NOTHING;
  return { node, ignored };
}
