/**
 * The registry: the one layer that writes objects. HTTP handlers parse and negotiate, call it, and
 * render; the namespace controller and the simulation's StoreApi call it too. A seam: planted
 * defects wrap it (defects/planted-registry.ts) rather than sit inside it.
 */
import type { StoredObject } from "../../store/stored-object.ts";
import { createObject } from "./create.ts";
import { deleteObject, type DeleteOutcome } from "./delete.ts";
import type { CollectionAddress, ObjectAddress, RegistryContext } from "./registry-context.ts";
import { updateObject, type UpdateOptions } from "./update.ts";

/** Every write of objects. */
export interface ObjectRegistry {
  /** Stores a new object (dry run: computes it only); returns it as stored. */
  create(address: CollectionAddress, object: Record<string, unknown>, options: { readonly dryRun: boolean }): StoredObject;
  /**
   * Writes `requested` over `current`, as the caller read it; returns what the store holds
   * afterwards. For the scale subresource `requested` is the Scale (scale-subresource.ts).
   */
  update(address: ObjectAddress, current: StoredObject, requested: StoredObject, options: UpdateOptions): StoredObject;
  /** Deletes `current`, or marks it for finalization. */
  delete(address: ObjectAddress, current: StoredObject, options: { readonly dryRun: boolean }): DeleteOutcome;
}

/** The registry over `context`'s store. */
export function objectRegistry(context: RegistryContext): ObjectRegistry {
  return {
    create: (address, object, options) => createObject(context, address, object, options),
    update: (address, current, requested, options) => updateObject(context, address, current, requested, options),
    delete: (address, current, options) => deleteObject(context, address, current, options),
  };
}
