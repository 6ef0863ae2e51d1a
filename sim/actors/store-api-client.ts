/**
 * `ControlPlaneClient` over a `StoreApi`, through the simulated network: the same latency,
 * partitions, drops, pauses and crashes as the HTTP-shaped transport, without HTTP messages.
 * Objects it returns are the store's frozen objects.
 */
import type { CallOutcome, Network } from "../faults/network.ts";
import type { ProcessClock } from "../faults/process-clock.ts";
import { ServerStream } from "../faults/server-stream.ts";
import type { CallOptions, ControlPlaneClient, NodeInformer } from "./api-client.ts";
import type { Lease, Node, Pod } from "./api-objects.ts";
import type { StoreApi } from "./store-api.ts";
import { StoreNodeInformer } from "./store-node-informer.ts";

const DEFAULT_TIMEOUT_MS = 10_000;

/** One process's client of a shared StoreApi. */
export class StoreApiClient implements ControlPlaneClient {
  readonly #api: StoreApi;
  readonly #network: Network;
  readonly #clock: ProcessClock;
  readonly #timeoutMs: number;

  /** A client for the process whose clock is `clock`. */
  constructor(api: StoreApi, network: Network, clock: ProcessClock, timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.#api = api;
    this.#network = network;
    this.#clock = clock;
    this.#timeoutMs = timeoutMs;
  }

  getLease(namespace: string, name: string, options?: CallOptions): Promise<Lease> {
    return this.#call(() => this.#api.getLease(namespace, name), options);
  }

  createLease(lease: Lease, options?: CallOptions): Promise<Lease> {
    return this.#call(() => this.#api.createLease(lease), options);
  }

  updateLease(lease: Lease, options?: CallOptions): Promise<Lease> {
    return this.#call(() => this.#api.updateLease(lease), options);
  }

  updateLeaseThen(lease: Lease, options: CallOptions, settle: CallOutcome): void {
    this.#network.call(this.#clock, withOnApplied(() => this.#api.updateLease(lease), options), options.timeoutMs ?? this.#timeoutMs, settle);
  }

  listLeases(namespace: string, options?: CallOptions): Promise<readonly Lease[]> {
    return this.#call(() => this.#api.listLeases(namespace), options);
  }

  getNode(name: string, options?: CallOptions): Promise<Node> {
    return this.#call(() => this.#api.getNode(name), options);
  }

  informNode(name: string): NodeInformer {
    const stream = new ServerStream(this.#network, this.#clock);
    return new StoreNodeInformer({ name, api: this.#api, stream, clock: this.#clock, relist: (options) => this.getNode(name, options) });
  }

  createNode(node: Node, options?: CallOptions): Promise<Node> {
    return this.#call(() => this.#api.createNode(node), options);
  }

  updateNode(node: Node, options?: CallOptions): Promise<Node> {
    return this.#call(() => this.#api.updateNode(node), options);
  }

  updateNodeStatus(node: Node, options?: CallOptions): Promise<Node> {
    return this.#call(() => this.#api.updateNodeStatus(node), options);
  }

  listNodes(options?: CallOptions): Promise<readonly Node[]> {
    return this.#call(() => this.#api.listNodes(), options);
  }

  createPod(pod: Pod, options?: CallOptions): Promise<Pod> {
    return this.#call(() => this.#api.createPod(pod), options);
  }

  listPodsOnNode(nodeName: string, options?: CallOptions): Promise<readonly Pod[]> {
    return this.#call(() => this.#api.listPodsOnNode(nodeName), options);
  }

  evictPod(namespace: string, name: string, options?: CallOptions): Promise<void> {
    return this.#call(() => this.#api.evictPod(namespace, name), options);
  }

  #call<T>(operation: () => T, options: CallOptions = {}): Promise<T> {
    return this.#network.roundTrip(this.#clock, withOnApplied(operation, options), options.timeoutMs ?? this.#timeoutMs);
  }
}

// `operation` followed, at the server, by the call's onApplied when it has one.
function withOnApplied<T>(operation: () => T, { onApplied }: CallOptions): () => T {
  if (onApplied === undefined) return operation;
  return () => {
    const result = operation();
    onApplied();
    return result;
  };
}
