/**
 * What the registry (the layer that owns every write, as Kubernetes' registry/rest and its generic
 * store do) needs of the server, and how a write names its object: typed arguments, not an HTTP
 * request, so the handlers, the namespace controller and the simulation's StoreApi all call it.
 */
import type { ObjectKey } from "../../store/object-key.ts";
import type { ResourceType } from "../routing/resource-types.ts";
import type { ServerContext } from "../server-context.ts";

/** The server state a write touches: store, time, randomness (uids, names), types, admission, planted defects, whether managedFields are kept. */
export type RegistryContext = Pick<ServerContext, "store" | "clock" | "rng" | "dialect" | "registry" | "admission" | "defects" | "trackManagedFields">;

/** How a create is made. */
export interface CreateOptions {
  readonly dryRun: boolean;
  /**
   * The manager whose Update entry records the write in metadata.managedFields, when the server
   * keeps them (ServerContext.trackManagedFields); undefined: the managedFields are left as they come.
   */
  readonly fieldManager?: string | undefined;
}

/** A collection objects are created in. */
export interface CollectionAddress {
  readonly type: ResourceType;
  /** Undefined for a cluster-scoped type. */
  readonly namespace?: string | undefined;
}

/** One object, or one of its subresources. */
export interface ObjectAddress extends CollectionAddress {
  readonly name: string;
  /** "status" or "scale" for those subresources; undefined for the object itself. */
  readonly subresource?: string | undefined;
  /**
   * The object's store key (stored-resource.ts `storageKey` of type, namespace and name), when the
   * caller keeps it encoded (the simulation's StoreApi, which writes the same Leases every 10 s):
   * the store then goes straight to the key's history (EncodedObjectKey), where building the key
   * string anew and looking it up among every key took an eighth of a 5,000-node run (issue #20).
   */
  readonly storageKey?: ObjectKey | undefined;
}
