/**
 * The registry: the one layer that writes objects. HTTP handlers parse and negotiate, call it, and
 * render; the namespace controller and the simulation's StoreApi call it too. A seam: planted
 * defects wrap it (defects/planted-registry.ts) rather than sit inside it.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { applyObject, type ApplyOptions, type ApplyOutcome } from "./apply.ts";
import { createObject } from "./create.ts";
import { deleteObject, type DeleteOutcome } from "./delete.ts";
import type { CollectionAddress, CreateOptions, ObjectAddress, RegistryContext } from "./registry-context.ts";
import { updateObject, type UpdateOptions } from "./update.ts";
import { withCustomResourceDefinitions } from "../apiextensions/definition-lifecycle.ts";

/** Every write of objects but apply (which writes through these: ApplyingRegistry). */
export interface ObjectRegistry {
  /** Stores a new object (dry run: computes it only); returns it as stored. */
  create(address: CollectionAddress, object: Record<string, unknown>, options: CreateOptions): StoredObject;
  /**
   * Writes `requested` over `current`, as the caller read it; returns what the store holds
   * afterwards. For the scale subresource `requested` is the Scale (scale-subresource.ts).
   */
  update(address: ObjectAddress, current: StoredObject, requested: StoredObject, options: UpdateOptions): StoredObject;
  /** Deletes `current`, or marks it for finalization. */
  delete(address: ObjectAddress, current: StoredObject, options: { readonly dryRun: boolean }): DeleteOutcome;
}

/** Every write of objects, server-side apply included. */
export interface ApplyingRegistry extends ObjectRegistry {
  /**
   * Server-side apply of `configuration` to `current` (undefined: the object does not exist and
   * is created from it); 409 on a conflict with another manager unless forced. It writes through
   * the registry's create and update, so what wraps those (the CustomResourceDefinition
   * lifecycle) sees an apply as the create or update it is.
   */
  apply(address: ObjectAddress, current: StoredObject | undefined, configuration: Record<string, unknown>, options: ApplyOptions): ApplyOutcome;
}

/** The registry over `context`'s store, CustomResourceDefinitions' lifecycle included (apiextensions/definition-lifecycle.ts). */
export function objectRegistry(context: RegistryContext): ApplyingRegistry {
  const base: ObjectRegistry = {
    create: (address, object, options) => createObject(context, address, object, options),
    update: (address, current, requested, options) => updateObject(context, address, current, requested, options),
    delete: (address, current, options) => deleteObject(context, address, current, options),
  };
  const writes = withCustomResourceDefinitions(base, context);
  return { ...writes, apply: (address, current, configuration, options) => applyObject(context, writes, address, current, configuration, options) };
}
