/**
 * The default-ServiceAccount controller the server runs inside itself when asked to
 * (ApiServerOptions.defaultServiceAccounts), as kube-controller-manager's serviceaccounts
 * controller does on a real cluster: every namespace that exists and is not terminating holds a
 * ServiceAccount `default`, made right after the namespace and made again if it is deleted.
 * Clients rely on it: Pod admission refuses a Pod until its ServiceAccount exists, and clients
 * (the conformance suite, the Kubernetes E2E framework) wait for `default` before creating Pods.
 *
 * It acts in the watch loop itself, not on a timer: the ServiceAccount then exists before the
 * server reads its next request, so a client that creates a namespace and at once a Pod is not
 * refused (the real admission plugin hides that moment by retrying its lookup of `default` for
 * about a second). Only failures wait, for a retry.
 */
import type { TimerHandle } from "../../kernel/clock.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import type { Watch } from "../../store/watch.ts";
import { ApiError } from "../responses/api-error.ts";
import type { ServerContext } from "../server-context.ts";
import { storageKey, storagePrefix } from "../registry/stored-resource.ts";

/** The ServiceAccount every namespace gets (Kubernetes' serviceaccount.DefaultServiceAccountName). */
export const DEFAULT_SERVICE_ACCOUNT = "default";

/** How long a namespace whose ServiceAccount could not be made waits before another try. */
export const SERVICE_ACCOUNT_RETRY_MS = 1_000;

/**
 * The ServiceAccount as kube-controller-manager 1.26 creates it: a name and nothing else (no
 * token Secret since 1.24, no automount setting), recorded in recorded/default-service-account.kube-1.26.json.
 */
function defaultServiceAccount(): Record<string, unknown> {
  return { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: DEFAULT_SERVICE_ACCOUNT } };
}

/** Keeps a `default` ServiceAccount in every live namespace. */
export class ServiceAccountController {
  private readonly retries = new Map<string, TimerHandle>();
  private readonly watches: Watch[] = [];
  private stopped = false;

  constructor(private readonly context: ServerContext) {}

  /**
   * Looks at every namespace now (those made at start-up included: synchronously, so even a
   * request handled before any watch event is delivered finds their ServiceAccounts), then watches
   * new namespaces and deletions of `default` ServiceAccounts. A watch that overflowed reopens
   * both, which looks at every namespace again.
   */
  start(): void {
    const { registry, store } = this.context;
    const namespaceType = registry.find("", "v1", "namespaces")!;
    for (const namespace of store.list({ prefix: storagePrefix(namespaceType, undefined) }).items) this.reconcile(namespace.metadata.name);
    const namespaces = store.watch({ prefix: storagePrefix(namespaceType, undefined) });
    const accounts = store.watch({
      prefix: storagePrefix(registry.find("", "v1", "serviceaccounts")!, undefined),
      filter: (object) => object.metadata.name === DEFAULT_SERVICE_ACCOUNT,
    });
    this.watches.push(namespaces, accounts);
    this.follow(namespaces, (type, object) => (type === "ADDED" ? object.metadata.name : undefined));
    this.follow(accounts, (type, object) => (type === "DELETED" ? object.metadata.namespace : undefined));
  }

  /** Stops watching and all pending retries. */
  stop(): void {
    this.stopped = true;
    for (const watch of this.watches.splice(0)) watch.close();
    for (const timer of this.retries.values()) timer.cancel();
    this.retries.clear();
  }

  /** Reconciles the namespace each event names; reopens everything once a watch ends unasked. */
  private follow(watch: Watch, namespaceOf: (type: string, object: StoredObject) => string | undefined): void {
    void (async () => {
      for await (const event of watch) {
        if (event.type === "BOOKMARK") continue;
        const namespace = namespaceOf(event.type, event.object);
        if (namespace !== undefined) this.reconcile(namespace);
      }
      if (this.stopped || !this.watches.includes(watch)) return;
      for (const open of this.watches.splice(0)) open.close();
      this.start();
    })();
  }

  private reconcile(namespace: string): void {
    if (this.stopped) return;
    try {
      this.ensureDefault(namespace);
    } catch {
      // Never thrown out of a watch loop or timer (it would end the server): tried again later.
      this.retryLater(namespace);
    }
  }

  private ensureDefault(namespace: string): void {
    const { context } = this;
    const namespaceObject = context.store.get(storageKey(context.registry.find("", "v1", "namespaces")!, undefined, namespace));
    if (namespaceObject === undefined || namespaceObject.metadata["deletionTimestamp"] !== undefined) return;
    const type = context.registry.find("", "v1", "serviceaccounts")!;
    if (context.store.get(storageKey(type, namespace, DEFAULT_SERVICE_ACCOUNT)) !== undefined) return;
    try {
      // Recorded in managedFields as kube-controller-manager's write, as its User-Agent makes it.
      context.objects.create({ type, namespace }, defaultServiceAccount(), { dryRun: false, fieldManager: "kube-controller-manager" });
    } catch (error) {
      // Someone made it meanwhile (409), or the namespace began terminating or went (403, 404): nothing to do.
      if (error instanceof ApiError && [403, 404, 409].includes(error.status.code)) return;
      throw error;
    }
  }

  private retryLater(namespace: string): void {
    if (this.stopped || this.retries.has(namespace)) return;
    this.retries.set(
      namespace,
      this.context.clock.setTimer(SERVICE_ACCOUNT_RETRY_MS, () => {
        this.retries.delete(namespace);
        this.reconcile(namespace);
      }),
    );
  }
}
