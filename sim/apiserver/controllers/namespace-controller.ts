/**
 * The namespace controller the server runs inside itself (doc 1 §2.1.5: a namespace-scoped
 * resource is deleted when its namespace is deleted; §3 finalization): for each terminating
 * namespace it deletes the contents, waits for objects held by finalizers, then drops the
 * namespace's own finalizer, which removes it. It writes through the registry, as the handlers do.
 */
import type { TimerHandle } from "../../kernel/clock.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import type { Watch } from "../../store/watch.ts";
import type { ServerContext } from "../server-context.ts";
import { storageKey, storagePrefix } from "../registry/stored-resource.ts";
import { NAMESPACE_FINALIZER } from "../registry/type-defaults.ts";

/** How often a namespace whose contents wait on finalizers is looked at again. */
export const NAMESPACE_RESYNC_MS = 1_000;

/** Empties and removes terminating namespaces. */
export class NamespaceController {
  private readonly timers = new Map<string, TimerHandle>();
  private stopped = false;
  private watch: Watch | undefined;

  constructor(private readonly context: ServerContext) {}

  /**
   * Starts watching namespaces, as a controller in the control plane would: every namespace
   * that has (or gets) a deletionTimestamp is enqueued.
   */
  start(): void {
    const type = this.context.registry.find("", "v1", "namespaces")!;
    const terminating = (object: StoredObject) => object.metadata["deletionTimestamp"] !== undefined;
    const watch = this.context.store.watch({ prefix: storagePrefix(type, undefined), initialState: true, filter: terminating });
    this.watch = watch;
    void (async () => {
      for await (const event of watch) {
        if (event.type === "ADDED" || event.type === "MODIFIED") this.enqueue(event.object.metadata.name);
      }
      // A watch that overflowed is reopened from the current state; one closed by stop() is not.
      if (!this.stopped) this.start();
    })();
  }

  /** Schedules a look at namespace `name` (call after it is marked for deletion). */
  enqueue(name: string, delayMs = 0): void {
    if (this.stopped || this.timers.has(name)) return;
    this.timers.set(
      name,
      this.context.clock.setTimer(delayMs, () => {
        this.timers.delete(name);
        try {
          this.reconcile(name);
        } catch {
          // A timer callback that throws would take the whole server down (doc 1's server answers
          // every input; it never crashes on one). Whatever refused this round is tried again later.
          this.enqueue(name, NAMESPACE_RESYNC_MS);
        }
      }),
    );
  }

  /** Stops all pending work. */
  stop(): void {
    this.stopped = true;
    this.watch?.close();
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  private reconcile(name: string): void {
    const { context } = this;
    const namespaceType = context.registry.find("", "v1", "namespaces")!;
    const namespace = context.store.get(storageKey(namespaceType, undefined, name));
    if (namespace === undefined || namespace.metadata["deletionTimestamp"] === undefined) return;
    let remaining = 0;
    for (const type of context.registry.types) {
      if (!type.namespaced) continue;
      for (const object of context.store.list({ prefix: storagePrefix(type, name) }).items) {
        if (!context.objects.delete({ type, namespace: name, name: object.metadata.name }, object, { dryRun: false }).removed) remaining++;
      }
    }
    if (remaining > 0) {
      this.enqueue(name, NAMESPACE_RESYNC_MS);
      return;
    }
    const spec = (namespace["spec"] ?? {}) as { finalizers?: string[] };
    const released: StoredObject = {
      ...namespace,
      spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((finalizer) => finalizer !== NAMESPACE_FINALIZER) },
    };
    context.objects.update({ type: namespaceType, name }, namespace, released, { dryRun: false });
  }
}
