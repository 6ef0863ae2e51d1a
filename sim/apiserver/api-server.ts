/**
 * The embedded API server: doc 1 as one handler of the web-standard shape
 * `(Request) => Promise<Response>` over the MVCC store. It takes a Clock, so the same code serves
 * real clients behind a socket (real time) and actors inside a simulation (virtual time).
 */
import { dialectByName, type Dialect } from "../../spec/dialects.ts";
import { compactionIntervalMs as defaultCompactionIntervalMs, tooLargeResourceVersionWaitMs, watchBookmarkIntervalMs } from "../../spec/doc1/limits.ts";
import type { Clock, TimerHandle } from "../kernel/clock.ts";
import type { Rng } from "../kernel/rng.ts";
import { startCompactor } from "../store/compactor.ts";
import { MvccStore } from "../store/mvcc-store.ts";
import { decimalResourceVersions, opaqueResourceVersions } from "../store/resource-version.ts";
import { ApiError, failure } from "./responses/api-error.ts";
import { plainInternalErrorResponse, PlainInternalError } from "./responses/plain-internal-error.ts";
import { routeRequest } from "./routing/request-router.ts";
import { NamespaceController } from "./controllers/namespace-controller.ts";
import { ServiceAccountController } from "./controllers/service-account-controller.ts";
import { ResourceRegistry } from "./routing/resource-types.ts";
import { EncodedEventCache } from "./watch/encoded-event-cache.ts";
import { WatchBroadcasts } from "./watch/watch-broadcast.ts";
import { customResourceDefinitionsType, type CustomResourceDefinition } from "./routing/custom-resources.ts";
import type { ServerContext } from "./server-context.ts";
import { storageKey } from "./registry/stored-resource.ts";
import { withCreateDefaults } from "./registry/type-defaults.ts";
import { rfc3339 } from "./registry/object-stamping.ts";
import { errorResponse } from "./responses/http-response.ts";
import { negotiatedErrorResponse } from "./responses/representation.ts";
import type { BuildInfo } from "./discovery/server-version.ts";
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseIpv4Cidr } from "./admission/service-allocation.ts";
import type { SideEffectPlugin } from "./admission/side-effect-plugins.ts";
import { createRbacBootstrapPolicy, rbacTypes, storeRbacObjects, withRbacAuthorizer, type AuthConfig } from "./auth/index.ts";
import { HealthState, type HealthStateOptions } from "./health/index.ts";
import { isDefectName, NO_DEFECTS, type DefectName } from "./defects/defects.ts";
import { WritePipeline } from "./defects/write-pipeline.ts";
import { withPlantedRegistryDefects } from "./defects/planted-registry.ts";
import { withPlantedListDefects } from "./defects/planted-lister.ts";
import { objectLister } from "./registry/object-lister.ts";
import { withPlantedWatchDefects } from "./defects/planted-watches.ts";
import { withPlantedResponseDefects } from "./defects/planted-responses.ts";
import { storeWatchSource } from "./watch/watch-source.ts";
import { objectRegistry, type ApplyingRegistry } from "./registry/object-registry.ts";

/**
 * The flush interval of watch streams `serve` sets: with 1,000 watchers, a socket write per watcher
 * at most every 50 ms instead of one per event (with events encoded once for all watchers) took
 * writes from 19/s to 160–460/s (`orb-harness load`, issue #14), for at most 50 ms more latency.
 */
export const SOCKET_WATCH_FLUSH_INTERVAL_MS = 50;

/** How an embedded server is set up. */
export interface ApiServerOptions {
  readonly clock: Clock;
  /** Source of uids, generated names and watch timeouts: the run's Rng in a simulation. */
  readonly rng: Rng;
  /** Continue-token signing key: real randomness when serving real clients (see MvccStoreOptions). */
  readonly tokenKey: Uint8Array;
  readonly dialect?: Dialect;
  /** History kept for watches and Exact reads (doc 1 §8; default 5 minutes). */
  readonly historyWindowMs?: number;
  /** How often history is compacted (default 5 minutes, as kube-apiserver). */
  readonly compactionIntervalMs?: number;
  /** Bookmark interval for watches that allow them (default 1 minute). */
  readonly bookmarkIntervalMs?: number;
  /**
   * Least time between two writes to one watch stream; events arriving meanwhile are sent together
   * (default 0: each event at once, as the simulations expect; `serve` sets SOCKET_WATCH_FLUSH_INTERVAL_MS).
   */
  readonly watchFlushIntervalMs?: number;
  /** Events a watcher may leave unread before it is cut off (default WATCH_BUFFER_CAPACITY, 1,000). */
  readonly watchBufferCapacity?: number;
  /** Emit non-numeric resourceVersions, to catch clients that parse them (doc 1 §4.7). */
  readonly opaqueResourceVersions?: boolean;
  /** How long a read at a resourceVersion not yet reached waits before 504 (default 3 s). */
  readonly tooLargeResourceVersionWaitMs?: number;
  /** Where Service cluster IPs come from (default 10.0.0.0/24, as kube-apiserver). */
  readonly serviceClusterIpRange?: string;
  /** Admission plugins with declared side effects, which dry runs may not reach (doc 1 §4.4.5). */
  readonly sideEffectPlugins?: readonly SideEffectPlugin[];
  /** Static tokens, policy rules, RBAC mode (doc 1 §5); authentication and authorization are off without them. */
  readonly auth?: AuthConfig;
  /** Checks that fail on purpose (`--fail-check`), the livez grace period, the shutdown delay (doc 1 §4.5). */
  readonly health?: Omit<HealthStateOptions, "dialect" | "clock">;
  /** Custom resource types to serve (`--crd FILE`), JSON only (doc 1 §4.3.2). */
  readonly customResourceDefinitions?: readonly CustomResourceDefinition[];
  /** Prometheus text lines the host adds to `/metrics` (`serve`: process memory, connections, timers). */
  readonly hostMetrics?: () => readonly string[];
  /** What /version reports about the build. */
  readonly build: BuildInfo;
  /**
   * Bugs to plant on purpose (defects.ts), to show the conformance suite catches them; none by
   * default. Only `serve --defect` and conformance/defects.test.ts set this.
   */
  readonly defects?: ReadonlySet<DefectName>;
  /**
   * Run kube-controller-manager's default-ServiceAccount controller and the ServiceAccount
   * admission lookup (a Pod naming a missing ServiceAccount is refused), as a real cluster does.
   * Off by default: simulations must keep their trace hashes; `serve`, the library and the
   * conformance target, where real clients wait for `default` before creating Pods, turn it on.
   */
  readonly defaultServiceAccounts?: boolean;
  /**
   * Keep metadata.managedFields on every write (an Update entry per writer, as kube-apiserver's
   * field manager does; registry/managed-fields-tracking.ts). Off by default: simulations must keep
   * their trace hashes; `serve`, the library, the conformance target and the safety run's observed
   * server turn it on. Server-side apply keeps managedFields either way.
   */
  readonly trackManagedFields?: boolean;
}

/** An embedded API server over its own store. */
export class ApiServer {
  readonly store: MvccStore;
  readonly dialect: Dialect;
  private readonly context: ServerContext;
  private readonly compactor: TimerHandle;
  private readonly namespaces: NamespaceController;
  private readonly serviceAccounts: ServiceAccountController | undefined;

  constructor(private readonly options: ApiServerOptions) {
    this.dialect = options.dialect ?? dialectByName("orb");
    const defects = plantedDefects(options.defects);
    // Undefined unless a planted concurrency defect needs writes to wait for storage (write-pipeline.ts).
    const writePipeline = WritePipeline.forDefects(defects, options.clock);
    this.store = new MvccStore({
      clock: options.clock,
      tokenKey: options.tokenKey,
      ...(options.historyWindowMs !== undefined && { historyWindowMs: options.historyWindowMs }),
      ...(options.watchBufferCapacity !== undefined && { watchCapacity: options.watchBufferCapacity }),
      resourceVersions: options.opaqueResourceVersions === true ? opaqueResourceVersions : decimalResourceVersions,
      ...(writePipeline !== undefined && { plantedDefects: writePipeline.storeDefects }),
    });
    // Custom types are served once their definitions are created (storeCustomResourceDefinitions).
    const registry = new ResourceRegistry(this.dialect);
    // RBAC mode: Roles, ClusterRoles and bindings in this store authorize (auth/rbac-authorizer.ts).
    const rbac = options.auth?.authorizationMode === "RBAC" ? rbacTypes(registry, this.dialect) : undefined;
    const context = {
      store: this.store,
      clock: options.clock,
      rng: options.rng,
      dialect: this.dialect,
      registry,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? watchBookmarkIntervalMs,
      watchFlushIntervalMs: options.watchFlushIntervalMs ?? 0,
      watchEncodings: new EncodedEventCache(),
      watchBroadcasts: new WatchBroadcasts(),
      tooLargeResourceVersionWaitMs: options.tooLargeResourceVersionWaitMs ?? tooLargeResourceVersionWaitMs,
      admission: {
        serviceRange: parseIpv4Cidr(options.serviceClusterIpRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE),
        sideEffectPlugins: options.sideEffectPlugins ?? [],
        serviceAccountLookup: options.defaultServiceAccounts === true,
      },
      auth: rbac === undefined || options.auth === undefined ? options.auth : withRbacAuthorizer(options.auth, storeRbacObjects(this.store, rbac)),
      health: new HealthState({ dialect: this.dialect, clock: options.clock, ...options.health }),
      defects,
      trackManagedFields: options.trackManagedFields === true,
      writePipeline,
      hostMetrics: options.hostMetrics,
    };
    this.context = {
      ...context,
      objects: withPlantedRegistryDefects(objectRegistry(context), defects),
      lists: withPlantedListDefects(objectLister(context), defects, context),
      watches: withPlantedWatchDefects(storeWatchSource(context), defects, context),
    };
    this.handle = withPlantedResponseDefects(this.answer, defects, this.dialect);
    this.createSystemNamespaces();
    // As kube-apiserver's rbac/bootstrap-roles hook: the bootstrap policy exists once the server serves.
    if (rbac !== undefined) createRbacBootstrapPolicy(this.store, rbac, options, new Set(Object.values(this.dialect.namespaces)));
    this.storeCustomResourceDefinitions();
    this.compactor = startCompactor(this.store, options.clock, options.compactionIntervalMs ?? defaultCompactionIntervalMs);
    this.namespaces = new NamespaceController(this.context);
    this.namespaces.start();
    this.serviceAccounts = options.defaultServiceAccounts === true ? new ServiceAccountController(this.context) : undefined;
    this.serviceAccounts?.start();
  }

  /**
   * A registry over this server's store, as its handlers write through, drawing generated values
   * (uids) from `rng`: the simulation's StoreApi keeps a random stream of its own.
   */
  objectRegistry(rng: Rng): ApplyingRegistry {
    return withPlantedRegistryDefects(objectRegistry({ ...this.context, rng }), this.context.defects);
  }

  /** Answers one request (with the planted response defects around it). Never throws: every failure is a Status response. */
  readonly handle: (request: Request) => Promise<Response>;

  /** Answers one request. Never throws: every failure is a Status response. */
  private readonly answer = async (request: Request): Promise<Response> => {
    try {
      return await routeRequest(this.context, this.options.build, request);
    } catch (error) {
      // Some filter errors are plain text in Kubernetes, not a Status (impersonation without a user).
      if (error instanceof PlainInternalError) return plainInternalErrorResponse(request, error);
      // In the representation the Accept header asks for where Kubernetes honours it (Protobuf), else JSON.
      if (error instanceof ApiError) return negotiatedErrorResponse(error, request, this.dialect);
      // Anything else is a bug of ours: still a Status, never a stack trace on the wire.
      return errorResponse(failure("InternalError", `internal error: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  /**
   * Begins a graceful shutdown (SIGTERM): /readyz fails at once while requests are still served,
   * and `close` runs after the shutdown delay (doc 1 §4.5 `--shutdown-delay-duration`).
   */
  beginShutdown(close: () => void): void {
    this.context.health.beginShutdown(close);
  }

  /** Stops background work (compaction, the namespace and ServiceAccount controllers). Open watches end. */
  close(): void {
    this.compactor.cancel();
    this.namespaces.stop();
    this.serviceAccounts?.stop();
    this.store.closeAllWatches();
  }

  // `serve --crd FILE`: the same create as over the API (apiextensions/definition-lifecycle.ts), at start-up.
  private storeCustomResourceDefinitions(): void {
    for (const { object } of this.options.customResourceDefinitions ?? []) {
      this.context.objects.create({ type: customResourceDefinitionsType }, object, { dryRun: false });
    }
  }

  // Doc 1 §2.1; issue #3: default, the dialect's system, public and node-lease namespaces exist at start.
  private createSystemNamespaces(): void {
    const type = this.context.registry.find("", "v1", "namespaces")!;
    const { namespaces } = this.dialect;
    for (const name of [namespaces.default, namespaces.system, namespaces.public, namespaces.nodeLease]) {
      const object = withCreateDefaults(type, {
        metadata: { name, uid: this.options.rng.uuid(), creationTimestamp: rfc3339(this.options.clock) },
      });
      this.store.create(storageKey(type, undefined, name), object);
    }
  }
}

/** The defects to plant, checked against the catalog (an unknown name is a bug of the caller). */
function plantedDefects(requested: ReadonlySet<DefectName> | undefined): ReadonlySet<DefectName> {
  if (requested === undefined || requested.size === 0) return NO_DEFECTS;
  for (const name of requested) if (!isDefectName(name)) throw new Error(`unknown defect "${String(name)}" (see sim/apiserver/defects/defects.ts)`);
  return new Set(requested);
}
