/** What every handler of the embedded API server shares, and the request it is handling. */
import type { Dialect } from "../../spec/dialects.ts";
import type { Clock } from "../kernel/clock.ts";
import type { Rng } from "../kernel/rng.ts";
import type { MvccStore } from "../store/mvcc-store.ts";
import type { AdmissionConfig } from "./admission/admission-chain.ts";
import type { DefectName } from "./defects/defects.ts";
import type { WritePipeline } from "./defects/write-pipeline.ts";
import type { EncodedEventCache } from "./watch/encoded-event-cache.ts";
import type { AuthConfig, UserInfo } from "./auth/index.ts";
import type { HealthState } from "./health/index.ts";
import type { ResourceRegistry, ResourceType } from "./routing/resource-types.ts";
import type { WatchBroadcasts } from "./watch/watch-broadcast.ts";
import type { ApplyingRegistry } from "./registry/object-registry.ts";
import type { ObjectLister } from "./registry/object-lister.ts";
import type { WatchSource } from "./watch/watch-source.ts";

/** The server's shared state. */
export interface ServerContext {
  readonly store: MvccStore;
  readonly clock: Clock;
  /** Generated values (uids, generateName suffixes, watch timeouts). */
  readonly rng: Rng;
  readonly dialect: Dialect;
  /** The served types. */
  readonly registry: ResourceRegistry;
  /** Every write of objects goes through it (registry/object-registry.ts), with the planted write defects around it. */
  readonly objects: ApplyingRegistry;
  /** Every list read goes through it (registry/object-lister.ts), with the planted list defects around it. */
  readonly lists: ObjectLister;
  /** Every client watch opens through it (watch/watch-source.ts), with the planted watch defects around it. */
  readonly watches: WatchSource;
  /** How often watches that allow bookmarks get one. */
  readonly bookmarkIntervalMs: number;
  /**
   * Least time between two writes to one watch stream (0: each event as it comes). Events that
   * arrive meanwhile go out together, so a thousand watchers cost a socket write each per
   * interval, not per event (watch-stream.ts).
   */
  readonly watchFlushIntervalMs: number;
  /** Watch events encoded once for every watcher that sends them in the same representation. */
  readonly watchEncodings: EncodedEventCache;
  /** Watchers of a whole collection behind a socket share one stream of bytes (watch-broadcast.ts). */
  readonly watchBroadcasts: WatchBroadcasts;
  /** How long a read at a resourceVersion the store has not reached waits before 504 (doc 1 §7). */
  readonly tooLargeResourceVersionWaitMs: number;
  readonly admission: AdmissionConfig;
  /** Authentication and authorization; undefined when off (the embedded default). */
  readonly auth: AuthConfig | undefined;
  readonly health: HealthState;
  /** Metric lines the host process adds to `/metrics` (memory, connections); none inside a simulation. */
  readonly hostMetrics: (() => readonly string[]) | undefined;
  /** Bugs planted on purpose (defects.ts): empty unless `serve --defect` or the defects test asked for some. */
  readonly defects: ReadonlySet<DefectName>;
  /**
   * Whether writes keep metadata.managedFields (an Update entry per writer; registry/managed-fields-tracking.ts).
   * Apply keeps them whatever this says, since ownership is what it computes.
   */
  readonly trackManagedFields: boolean;
  /** Writes waiting for storage: only with a planted concurrency defect that needs it (write-pipeline.ts), else undefined. */
  readonly writePipeline: WritePipeline | undefined;
}

/** A request on one resource type, after routing. */
export interface ResourceRequest {
  readonly request: Request;
  readonly query: URLSearchParams;
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  /** The authenticated user, when authentication is on (self reviews answer for them). */
  readonly user?: UserInfo;
}
