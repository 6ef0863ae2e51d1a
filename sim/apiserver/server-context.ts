/** What every handler of the embedded API server shares, and the request it is handling. */
import type { Dialect } from "../../spec/dialects.ts";
import type { Clock } from "../kernel/clock.ts";
import type { Rng } from "../kernel/rng.ts";
import type { MvccStore } from "../store/mvcc-store.ts";
import type { AdmissionConfig } from "./admission/admission-chain.ts";
import type { DefectName } from "./defects.ts";
import type { AuthConfig, UserInfo } from "./auth/index.ts";
import type { HealthState } from "./health/index.ts";
import type { ResourceRegistry, ResourceType } from "./resource-types.ts";

/** The server's shared state. */
export interface ServerContext {
  readonly store: MvccStore;
  readonly clock: Clock;
  /** Generated values (uids, generateName suffixes, watch timeouts). */
  readonly rng: Rng;
  readonly dialect: Dialect;
  readonly registry: ResourceRegistry;
  /** How often watches that allow bookmarks get one. */
  readonly bookmarkIntervalMs: number;
  /** How long a read at a resourceVersion the store has not reached waits before 504 (doc 1 §7). */
  readonly tooLargeResourceVersionWaitMs: number;
  readonly admission: AdmissionConfig;
  /** Authentication and authorization; undefined when off (the embedded default). */
  readonly auth: AuthConfig | undefined;
  readonly health: HealthState;
  /** Bugs planted on purpose (defects.ts): empty unless `serve --defect` or the defects test asked for some. */
  readonly defects: ReadonlySet<DefectName>;
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
