/**
 * The fields a create's Update entry owns, kept by the shape of what is created: every field the
 * object sets (updateManagers with nothing before it and no managers yet). Objects made from one
 * template (a Deployment's Pods, a test's ConfigMaps) have one shape, and working the set out
 * again for each was about 45 µs of a Pod create's 245 µs in `orb-harness serve` (issue #20:
 * 5,239–5,280 creates/s with it skipped outright, against 4,180–4,372). With this cache, whose
 * key is a walk of its own (about 3 µs for a Pod), `serve` made 4,462–4,773 creates/s against
 * 4,298–4,407, interleaved.
 */
import { deepFreeze } from "../../store/stored-object.ts";
import { tracked, updateManagers, type TrackedType } from "./field-manager.ts";
import type { FieldSet } from "./field-set.ts";
import { wholeShapeKey } from "./field-walks.ts";
import type { TypeNode } from "./type-structure.ts";

type Json = Record<string, unknown>;

/** A create's fields as managedFields carries them (frozen: one object serves every create of its shape), or undefined when it owns none. */
export type CreatedFieldsV1 = Readonly<Record<string, unknown>> | undefined;

// A shape whose create owns nothing: kept as this rather than undefined, so that one lookup of the
// key (a text of about 500 characters for a Pod) tells a known shape from a new one.
const OWNS_NOTHING = Object.freeze({});
// By type structure, then by the fields a write does not own (its subresource), then by shape.
const byNode = new WeakMap<TypeNode, WeakMap<FieldSet, Map<string, Readonly<Record<string, unknown>>>>>();
// Shapes kept per type and subresource; past this the cache starts over (a client that creates
// objects of ever new shapes must not grow the server without bound).
const MAX_SHAPES = 1_000;
// updateManagers needs a writer; the fields it takes do not depend on who it is.
const ANY_WRITER = { manager: "", operation: "Update", apiVersion: "" } as const;

/** The FieldsV1 of the Update entry that creating `object` (a `type`) leaves: the same object for every create of the same shape. */
export function createdFieldsV1(type: TrackedType, object: Json): CreatedFieldsV1 {
  const key = wholeShapeKey(tracked(object, type.node), type.node);
  const shapes = shapesOf(type);
  let fieldsV1 = shapes.get(key);
  if (fieldsV1 === undefined) {
    const [entry] = updateManagers(type, undefined, object, [], ANY_WRITER, undefined);
    fieldsV1 = entry === undefined ? OWNS_NOTHING : deepFreeze(entry.fields.toFieldsV1());
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(key, fieldsV1);
  }
  return fieldsV1 === OWNS_NOTHING ? undefined : fieldsV1;
}

function shapesOf(type: TrackedType): Map<string, Readonly<Record<string, unknown>>> {
  let byIgnored = byNode.get(type.node);
  if (byIgnored === undefined) byNode.set(type.node, (byIgnored = new WeakMap()));
  let shapes = byIgnored.get(type.ignored);
  if (shapes === undefined) byIgnored.set(type.ignored, (shapes = new Map()));
  return shapes;
}
