/**
 * The small typed client the control-plane actors speak (issue #6, "Actors"): the seam between
 * actor code and how requests travel. Two implementations: `HttpApiClient` (HTTP-shaped requests
 * over a transport: the embedded server in virtual time, or a real server) and `StoreApiClient`
 * (the same operations against the store directly, for clusters of thousands of nodes).
 */
import type { CallOutcome } from "../faults/network.ts";
import type { Lease, Node, Pod } from "./api-objects.ts";

/** Per-call options. */
export interface CallOptions {
  /** The client's timeout for this call, ms of the caller's clock (e.g. a renew deadline's remainder). */
  readonly timeoutMs?: number;
  /** Runs at the server when a write took effect (server time), even if the response is then lost. */
  readonly onApplied?: () => void;
}

/** A failure the server answered with (a Status): reason and HTTP code. */
export class ApiCallError extends Error {
  override readonly name = "ApiCallError";
  constructor(
    readonly reason: string,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `error` is the server's 409 Conflict (a stale resourceVersion). */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiCallError && error.reason === "Conflict";
}

/** Whether `error` is the server's 404. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiCallError && error.code === 404;
}

/** Whether `error` is the server's 409 AlreadyExists. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof ApiCallError && error.reason === "AlreadyExists";
}

/**
 * One Node as an informer holds it: what a watch of that Node (field selector metadata.name)
 * last delivered. Kubelet reads its own Node this way before each status update (the first try
 * of tryUpdateNodeStatus reads its node lister; retries GET from the server).
 */
export interface NodeInformer {
  /** The Node: the watch's latest copy, or a fresh read (a relist) when it has none or its watch broke. */
  get(options?: CallOptions): Promise<Node>;
  /** The watch's latest copy, without a request; undefined when it has none (`get` then reads). */
  cached(): Node | undefined;
  /** Ends the watch. */
  stop(): void;
  /** Calls `listener` whenever `cached()` changes: a newer copy, or none after the watch broke (one listener: a later call replaces it). */
  onChange(listener: () => void): void;
}

/** What the actors ask of the API server. Writes with a resourceVersion fail with Conflict when stale. */
export interface ControlPlaneClient {
  getLease(namespace: string, name: string, options?: CallOptions): Promise<Lease>;
  createLease(lease: Lease, options?: CallOptions): Promise<Lease>;
  updateLease(lease: Lease, options?: CallOptions): Promise<Lease>;
  /** `updateLease` with the outcome (the Lease, or the error) handed to `settle`: no promise per node renewal. */
  updateLeaseThen(lease: Lease, options: CallOptions, settle: CallOutcome): void;
  listLeases(namespace: string, options?: CallOptions): Promise<readonly Lease[]>;
  getNode(name: string, options?: CallOptions): Promise<Node>;
  /** An informer of Node `name`. */
  informNode(name: string): NodeInformer;
  createNode(node: Node, options?: CallOptions): Promise<Node>;
  /** PUT of the node: spec and metadata (taints); status is left alone. */
  updateNode(node: Node, options?: CallOptions): Promise<Node>;
  /** PUT of the status subresource: status only. */
  updateNodeStatus(node: Node, options?: CallOptions): Promise<Node>;
  listNodes(options?: CallOptions): Promise<readonly Node[]>;
  createPod(pod: Pod, options?: CallOptions): Promise<Pod>;
  /** Pods bound to `nodeName`, in every namespace (field selector spec.nodeName). */
  listPodsOnNode(nodeName: string, options?: CallOptions): Promise<readonly Pod[]>;
  /** POST of an Eviction to the pod's eviction subresource. */
  evictPod(namespace: string, name: string, options?: CallOptions): Promise<void>;
}
