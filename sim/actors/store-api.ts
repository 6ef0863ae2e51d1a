/**
 * The actors' operations applied to the API server directly: the server side of
 * `StoreApiClient`. Its writes go through the server's registry, as the HTTP handlers' do (same
 * keys, stamping, defaults, admission, status merge and preconditions), without building and
 * parsing HTTP messages, which a 5,000-node cluster renewing leases every 10 s cannot afford (see
 * sim/transport/in-memory-transport.bench.ts).
 *
 * Reads of Nodes and Leases are served from a cache of the latest objects, as kube-apiserver
 * serves them from its watch cache (listing 5,000 nodes from the MVCC store every 5 s would cost
 * more than the nodes' heartbeats). It also keeps the index of pods by node an informer's indexer
 * would (the taint manager's lookup, doc 2 §2.4).
 *
 * Limit: the cache and the index see only writes made through this class; scenarios that use it
 * write Nodes, Leases and Pods through nothing else.
 */
import type { Rng } from "../kernel/rng.ts";
import type { ApiServer } from "../apiserver/api-server.ts";
import type { ObjectRegistry } from "../apiserver/registry/object-registry.ts";
import type { ObjectAddress } from "../apiserver/registry/registry-context.ts";
import { ApiError } from "../apiserver/responses/api-error.ts";
import { ResourceRegistry, type ResourceType } from "../apiserver/routing/resource-types.ts";
import { encodedStorageKey, storageKey } from "../apiserver/registry/stored-resource.ts";
import type { ObjectKey } from "../store/object-key.ts";
import type { StoredObject } from "../store/stored-object.ts";
import { ApiCallError } from "./api-client.ts";
import type { Lease, Node, Pod } from "./api-objects.ts";

/** What a StoreApi writes into. */
export interface StoreApiOptions {
  readonly server: ApiServer;
  /** Uids (a stream of its own, apart from the server's). */
  readonly rng: Rng;
}

/** Synchronous, server-side versions of the `ControlPlaneClient` operations. */
export class StoreApi {
  readonly #server: ApiServer;
  readonly #objects: ObjectRegistry;
  readonly #leases: ResourceType;
  readonly #nodes: ResourceType;
  readonly #pods: ResourceType;
  readonly #podsByNode = new Map<string, Map<string, ObjectKey>>();
  // Latest Node and Lease objects by name, in creation order (the watch cache).
  readonly #nodeCache = new Map<string, CacheEntry>();
  readonly #leaseCache = new Map<string, Map<string, CacheEntry>>();
  // Watches of single Nodes (informers), by node name.
  readonly #nodeWatchers = new Map<string, Set<(node: Node) => void>>();

  /** Operations over `options.store`, with the types of `options.dialect`. */
  constructor(options: StoreApiOptions) {
    this.#server = options.server;
    this.#objects = options.server.objectRegistry(options.rng);
    const { dialect } = options.server;
    const registry = new ResourceRegistry(dialect);
    this.#leases = registry.find(dialect.groups.coordination, "v1", "leases")!;
    this.#nodes = registry.find("", "v1", "nodes")!;
    this.#pods = registry.find("", "v1", "pods")!;
  }

  getLease(namespace: string, name: string): Lease {
    return this.#cached(this.#leaseCacheOf(namespace), this.#leases, name) as unknown as Lease;
  }

  createLease(lease: Lease): Lease {
    const namespace = lease.metadata.namespace ?? "";
    return this.#cacheCreated(this.#leaseCacheOf(namespace), this.#create(this.#leases, namespace, lease)) as unknown as Lease;
  }

  updateLease(lease: Lease): Lease {
    const namespace = lease.metadata.namespace ?? "";
    const cache = this.#leaseCacheOf(namespace);
    return this.#update(this.#leases, lease, undefined, cache.get(lease.metadata.name)) as unknown as Lease;
  }

  listLeases(namespace: string): readonly Lease[] {
    return objectsOf(this.#leaseCacheOf(namespace)) as unknown as Lease[];
  }

  getNode(name: string): Node {
    return this.#cached(this.#nodeCache, this.#nodes, name) as unknown as Node;
  }

  createNode(node: Node): Node {
    return this.#nodeWritten(this.#cacheCreated(this.#nodeCache, this.#create(this.#nodes, undefined, node)));
  }

  /** The main resource: status is carried over from the stored object (Kubernetes). */
  updateNode(node: Node): Node {
    return this.#updateNode(node, undefined);
  }

  /** The status subresource: only status changes. */
  updateNodeStatus(node: Node): Node {
    return this.#updateNode(node, "status");
  }

  /** Whether `a` was written after `b` (this store's resourceVersions are revisions: they compare). */
  isNewer(a: Node, b: Node): boolean {
    const { resourceVersions } = this.#server.store;
    return (resourceVersions.parse(a.metadata.resourceVersion ?? "") ?? 0) > (resourceVersions.parse(b.metadata.resourceVersion ?? "") ?? 0);
  }

  /**
   * Calls `onChange` with each state of Node `name` written from now on, at server time, in
   * order: the server side of a watch with field selector metadata.name. Returns its stop.
   */
  watchNode(name: string, onChange: (node: Node) => void): () => void {
    let watchers = this.#nodeWatchers.get(name);
    if (watchers === undefined) {
      watchers = new Set();
      this.#nodeWatchers.set(name, watchers);
    }
    watchers.add(onChange);
    return () => void watchers.delete(onChange);
  }

  listNodes(): readonly Node[] {
    return objectsOf(this.#nodeCache) as unknown as Node[];
  }

  createPod(pod: Pod): Pod {
    const namespace = pod.metadata.namespace ?? this.#server.dialect.namespaces.default;
    const { object, key } = this.#create(this.#pods, namespace, pod);
    const created = object as unknown as Pod;
    const nodeName = created.spec.nodeName;
    if (nodeName !== undefined) this.#podIndex(nodeName).set(`${namespace}/${created.metadata.name}`, key);
    return created;
  }

  listPodsOnNode(nodeName: string): readonly Pod[] {
    const pods: Pod[] = [];
    for (const key of this.#podsByNode.get(nodeName)?.values() ?? []) {
      const pod = this.#server.store.get(key);
      if (pod !== undefined) pods.push(pod as unknown as Pod);
    }
    return pods;
  }

  /** Eviction of a pod without a disruption budget: the pod is deleted (transcript eviction). */
  evictPod(namespace: string, name: string): void {
    const current = this.#get(this.#pods, namespace, name);
    const pod = current as unknown as Pod;
    try {
      this.#objects.delete({ type: this.#pods, namespace, name }, current, { dryRun: false });
    } catch (error) {
      throw asApiError(error);
    }
    const nodeName = pod.spec.nodeName;
    if (nodeName !== undefined) this.#podsByNode.get(nodeName)?.delete(`${namespace}/${name}`);
  }

  #leaseCacheOf(namespace: string): Map<string, CacheEntry> {
    return innerMap(this.#leaseCache, namespace);
  }

  #cacheCreated(cache: Map<string, CacheEntry>, created: CacheEntry): StoredObject {
    cache.set(created.object.metadata.name, created);
    return created.object;
  }

  #updateNode(node: Node, subresource: "status" | undefined): Node {
    return this.#nodeWritten(this.#update(this.#nodes, node, subresource, this.#nodeCache.get(node.metadata.name)));
  }

  // Tells the Node's watchers (informers) of its new state.
  #nodeWritten(object: StoredObject): Node {
    const node = object as unknown as Node;
    const watchers = this.#nodeWatchers.get(node.metadata.name);
    if (watchers !== undefined) for (const onChange of watchers) onChange(node);
    return node;
  }

  #cached(cache: Map<string, CacheEntry>, type: ResourceType, name: string): StoredObject {
    const entry = cache.get(name);
    if (entry === undefined) throw new ApiCallError("NotFound", 404, `${type.resource} "${name}" not found`);
    return entry.object;
  }

  #podIndex(nodeName: string): Map<string, ObjectKey> {
    return innerMap(this.#podsByNode, nodeName);
  }

  #get(type: ResourceType, namespace: string | undefined, name: string): StoredObject {
    const object = this.#server.store.get(storageKey(type, namespace, name));
    if (object === undefined) throw new ApiCallError("NotFound", 404, `${type.resource} "${name}" not found`);
    return object;
  }

  // The key is the one the store files the object under (the same string: map lookups then
  // compare by identity).
  #create(type: ResourceType, namespace: string | undefined, object: { metadata: { name: string } }): CacheEntry {
    const { store } = this.#server;
    try {
      const created = this.#objects.create({ type, namespace }, object as unknown as Record<string, unknown>, { dryRun: false });
      return { object: created, key: encodedStorageKey(type, namespace, created.metadata.name), revision: store.revision };
    } catch (error) {
      throw asApiError(error);
    }
  }

  // `cached`: the cache entry of the object (latest object and key), updated with the write.
  #update(type: ResourceType, object: { metadata: { name: string; namespace?: string; resourceVersion?: string } }, subresource: "status" | undefined, cached?: CacheEntry): StoredObject {
    const { store } = this.#server;
    const namespace = type.namespaced ? object.metadata.namespace : undefined;
    const current = cached?.object ?? this.#get(type, namespace, object.metadata.name);
    const resourceVersion = object.metadata.resourceVersion;
    // The usual writer sends back the version it read, the cached one: the same string names the
    // same revision, known without parsing it.
    const expectedRevision =
      resourceVersion === undefined || resourceVersion === ""
        ? undefined
        : cached !== undefined && resourceVersion === cached.object.metadata.resourceVersion
          ? cached.revision
          : store.resourceVersions.parse(resourceVersion);
    if (resourceVersion !== undefined && resourceVersion !== "" && expectedRevision === undefined) {
      throw new ApiCallError("BadRequest", 400, `invalid resourceVersion ${resourceVersion}`);
    }
    let written: StoredObject;
    try {
      // A cached object's address is made once per subresource, with its encoded store key: the
      // same Lease is renewed every 10 s.
      const address =
        cached === undefined
          ? { type, namespace, name: object.metadata.name, subresource }
          : subresource === undefined
            ? (cached.address ??= { type, namespace, name: object.metadata.name, subresource, storageKey: cached.key })
            : (cached.statusAddress ??= { type, namespace, name: object.metadata.name, subresource, storageKey: cached.key });
      written = this.#objects.update(address, current, object as unknown as StoredObject, { expectedRevision, dryRun: false });
    } catch (error) {
      throw asApiError(error);
    }
    if (cached !== undefined) {
      cached.object = written;
      cached.revision = store.revision;
    }
    return written;
  }
}

/** A cached object, its revision, and its store key (encoded once: the same keys are written every 10 s). */
interface CacheEntry {
  object: StoredObject;
  revision: number;
  readonly key: ObjectKey;
  /** Its registry address, and that of its status subresource, once written through them. */
  address?: ObjectAddress;
  statusAddress?: ObjectAddress;
}

// A plain loop: Array.from over a map iterator made an object per element.
function objectsOf(cache: Map<string, CacheEntry>): StoredObject[] {
  const objects = new Array<StoredObject>(cache.size);
  let index = 0;
  for (const entry of cache.values()) objects[index++] = entry.object;
  return objects;
}

// The map kept under `key` in a map of maps, made empty on first use.
function innerMap<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}

// The registry's failure as a client sees it (the Status's reason and code).
function asApiError(error: unknown): unknown {
  return error instanceof ApiError ? new ApiCallError(error.status.reason ?? "", error.code, error.status.message ?? "") : error;
}
