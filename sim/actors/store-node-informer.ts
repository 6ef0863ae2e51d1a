/**
 * The `NodeInformer` of the store-level client: a watch of one Node fed by the StoreApi's writes
 * and carried to the process over a `ServerStream` (latency, in order, lost to partitions). A lost
 * event means the watch broke: the copy is dropped and the next `get` relists (a GET), as a
 * reflector relists after its watch fails. The watch ends with `stop` or with the process.
 */
import type { ServerStream } from "../faults/server-stream.ts";
import type { ProcessClock } from "../faults/process-clock.ts";
import type { CallOptions, NodeInformer } from "./api-client.ts";
import type { Node } from "./api-objects.ts";
import type { StoreApi } from "./store-api.ts";

/** How a store node informer is wired. */
export interface StoreNodeInformerOptions {
  readonly name: string;
  readonly api: StoreApi;
  readonly stream: ServerStream;
  readonly clock: ProcessClock;
  /** A fresh read of the Node from the server, through the network. */
  readonly relist: (options?: CallOptions) => Promise<Node>;
}

/** A watch-fed copy of one Node. */
export class StoreNodeInformer implements NodeInformer {
  readonly #options: StoreNodeInformerOptions;
  readonly #stopWatch: () => void;
  #node: Node | undefined;
  #onChange: (() => void) | undefined;
  #sent = 0;
  // Events sent up to this one arrive after a lost one: older than what was lost, never used.
  #lostThrough = 0;

  constructor(options: StoreNodeInformerOptions) {
    this.#options = options;
    this.#stopWatch = options.api.watchNode(options.name, (node) => this.#onEvent(node));
  }

  async get(options?: CallOptions): Promise<Node> {
    if (this.#node !== undefined) return this.#node;
    const node = await this.#options.relist(options);
    this.#keepNewer(node);
    return this.#node ?? node;
  }

  cached(): Node | undefined {
    return this.#node;
  }

  stop(): void {
    this.#stopWatch();
  }

  onChange(listener: () => void): void {
    this.#onChange = listener;
  }

  // At the server, when the Node was written.
  #onEvent(node: Node): void {
    if (!this.#options.clock.alive) return this.stop(); // the process crashed: its watch is gone
    const sequence = ++this.#sent;
    this.#options.stream.send(
      () => {
        if (sequence > this.#lostThrough) this.#keepNewer(node);
      },
      () => {
        this.#lostThrough = Math.max(this.#lostThrough, sequence);
        this.#set(undefined);
      },
    );
  }

  // A relist's answer and an event in flight can cross: the newer resourceVersion wins.
  #keepNewer(node: Node): void {
    if (this.#node === undefined || this.#options.api.isNewer(node, this.#node)) this.#set(node);
  }

  #set(node: Node | undefined): void {
    if (node === this.#node) return;
    this.#node = node;
    this.#onChange?.();
  }
}
