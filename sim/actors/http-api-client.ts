/**
 * `ControlPlaneClient` over HTTP-shaped requests (doc 1 paths, JSON bodies): runs against the
 * embedded server through the in-memory transport in virtual time, or against a real server
 * through `fetch`. Status responses become `ApiCallError`s.
 */
import type { Dialect } from "../../spec/dialects.ts";
import type { CallOutcome } from "../faults/network.ts";
import type { ObservedTransport, RequestOptions } from "../transport/in-memory-transport.ts";
import { ApiCallError, type CallOptions, type ControlPlaneClient, type NodeInformer } from "./api-client.ts";
import type { Lease, Node, Pod } from "./api-objects.ts";

const BASE_URL = "http://apiserver.local";

/** The actors' client over a fetch-shaped transport. */
export class HttpApiClient implements ControlPlaneClient {
  readonly #transport: ObservedTransport;
  readonly #leaseGroup: string;

  /** A client for `dialect`'s paths (the coordination group differs) over `transport`. */
  constructor(transport: ObservedTransport, dialect: Dialect) {
    this.#transport = transport;
    this.#leaseGroup = dialect.groups.coordination;
  }

  getLease(namespace: string, name: string, options?: CallOptions): Promise<Lease> {
    return this.#call("GET", this.#leasePath(namespace, name), undefined, options);
  }

  createLease(lease: Lease, options?: CallOptions): Promise<Lease> {
    return this.#call("POST", this.#leasePath(lease.metadata.namespace ?? "", undefined), this.#typed(lease, "Lease"), options);
  }

  updateLease(lease: Lease, options?: CallOptions): Promise<Lease> {
    return this.#call("PUT", this.#leasePath(lease.metadata.namespace ?? "", lease.metadata.name), this.#typed(lease, "Lease"), options);
  }

  updateLeaseThen(lease: Lease, options: CallOptions, settle: CallOutcome): void {
    this.updateLease(lease, options).then(
      (updated) => settle(true, updated),
      (error: unknown) => settle(false, error),
    );
  }

  async listLeases(namespace: string, options?: CallOptions): Promise<readonly Lease[]> {
    return (await this.#call<{ items: Lease[] }>("GET", this.#leasePath(namespace, undefined), undefined, options)).items;
  }

  getNode(name: string, options?: CallOptions): Promise<Node> {
    return this.#call("GET", `/api/v1/nodes/${name}`, undefined, options);
  }

  /**
   * Limit: no watch over this client (the transport carries one response per request), so every
   * read is a GET: an informer whose copy is never trusted, which sees changes sooner, not later.
   */
  informNode(name: string): NodeInformer {
    // No copy is kept, so there is never a change to tell of.
    return { get: (options) => this.getNode(name, options), cached: () => undefined, stop: () => {}, onChange: () => {} };
  }

  createNode(node: Node, options?: CallOptions): Promise<Node> {
    return this.#call("POST", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", ...node }, options);
  }

  updateNode(node: Node, options?: CallOptions): Promise<Node> {
    return this.#call("PUT", `/api/v1/nodes/${node.metadata.name}`, { apiVersion: "v1", kind: "Node", ...node }, options);
  }

  updateNodeStatus(node: Node, options?: CallOptions): Promise<Node> {
    return this.#call("PUT", `/api/v1/nodes/${node.metadata.name}/status`, { apiVersion: "v1", kind: "Node", ...node }, options);
  }

  async listNodes(options?: CallOptions): Promise<readonly Node[]> {
    return (await this.#call<{ items: Node[] }>("GET", "/api/v1/nodes", undefined, options)).items;
  }

  createPod(pod: Pod, options?: CallOptions): Promise<Pod> {
    return this.#call("POST", `/api/v1/namespaces/${pod.metadata.namespace ?? "default"}/pods`, { apiVersion: "v1", kind: "Pod", ...pod }, options);
  }

  async listPodsOnNode(nodeName: string, options?: CallOptions): Promise<readonly Pod[]> {
    const selector = encodeURIComponent(`spec.nodeName=${nodeName}`);
    return (await this.#call<{ items: Pod[] }>("GET", `/api/v1/pods?fieldSelector=${selector}`, undefined, options)).items;
  }

  async evictPod(namespace: string, name: string, options?: CallOptions): Promise<void> {
    const eviction = { apiVersion: "policy/v1", kind: "Eviction", metadata: { name, namespace } };
    await this.#call("POST", `/api/v1/namespaces/${namespace}/pods/${name}/eviction`, eviction, options);
  }

  #leasePath(namespace: string, name: string | undefined): string {
    const collection = `/apis/${this.#leaseGroup}/v1/namespaces/${namespace}/leases`;
    return name === undefined ? collection : `${collection}/${name}`;
  }

  #typed(object: Lease, kind: string): Record<string, unknown> {
    return { apiVersion: `${this.#leaseGroup}/v1`, kind, ...object };
  }

  async #call<T>(method: string, path: string, body: unknown, options: CallOptions = {}): Promise<T> {
    const init: RequestInit = { method, headers: { accept: "application/json" } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { accept: "application/json", "content-type": "application/json" };
    }
    const { onApplied, timeoutMs } = options;
    const requestOptions: RequestOptions = {
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(onApplied !== undefined && { onApplied: (response: Response) => response.ok && onApplied() }),
    };
    const response = await this.#transport(new Request(`${BASE_URL}${path}`, init), requestOptions);
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) {
      throw new ApiCallError(String(json["reason"] ?? "Unknown"), response.status, String(json["message"] ?? `HTTP ${response.status}`));
    }
    return json as T;
  }
}
