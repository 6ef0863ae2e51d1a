/**
 * A node agent's Lease loop (doc 3 §2.4; Kubernetes' node lease controller): each tick renews the
 * node's Lease from the cached copy, with `nodeLeaseDurationSeconds` set on it; when that fails,
 * it reads the Lease (or creates it) and tries once more.
 *
 * It is an object of its own, holding what a renewal reads, rather than a part of NodeAgent
 * reached through closures: 5,000 agents renew every 10 s, and each renewal's reads are first
 * touches of memory last used 10 s earlier (see ScheduledTicks in tick-on-schedule.ts).
 */
import type { ActorClock } from "./actor-clock.ts";
import { isNotFound, type CallOptions, type ControlPlaneClient } from "./api-client.ts";
import type { Lease } from "./api-objects.ts";
import type { HistoryRecorder } from "./history-recorder.ts";
import { microTime } from "./micro-time.ts";
import type { TickEnd, Ticker } from "./tick-on-schedule.ts";

/** What the loop of one node's Lease needs. */
export interface NodeLeaseRenewalOptions {
  /** The node's name: the Lease's name and holder. */
  readonly name: string;
  /** The namespace of node Leases (the dialect's). */
  readonly namespace: string;
  readonly durationSeconds: number;
  readonly client: ControlPlaneClient;
  readonly clock: ActorClock;
  readonly recorder: HistoryRecorder;
}

/** The Lease loop of one node; give it to `tickOnScheduleWithDone`. */
export class NodeLeaseRenewal implements Ticker {
  readonly #options: NodeLeaseRenewalOptions;
  // Made once: objects made per heartbeat (5,000 nodes, every 10 s) are what a large run allocates.
  readonly #callOptions: CallOptions;
  #lease: Lease | undefined;

  constructor(options: NodeLeaseRenewalOptions) {
    this.#options = options;
    this.#callOptions = { onApplied: options.recorder.leaseHeartbeatOf(options.name) };
  }

  // The usual case, one update from the cached Lease, runs on callbacks: no promise per renewal.
  tick(end: TickEnd): void {
    const lease = this.#lease;
    if (lease === undefined) {
      this.#recover().then(() => end.done(), (error: unknown) => end.fail(error));
      return;
    }
    this.#options.client.updateLeaseThen(this.#renewed(lease), this.#callOptions, (ok, outcome) => {
      if (ok) {
        this.#lease = outcome as Lease;
        end.done();
        return;
      }
      this.#lease = undefined;
      this.#recover().then(() => end.done(), (error: unknown) => end.fail(error));
    });
  }

  async #recover(): Promise<void> {
    const lease = await this.#ensureLease();
    if (lease === undefined) return;
    try {
      this.#lease = await this.#options.client.updateLease(this.#renewed(lease), this.#callOptions);
    } catch {
      this.#lease = undefined;
    }
  }

  // `lease` renewed now: the same object but for renewTime.
  #renewed(lease: Lease): Lease {
    return { metadata: lease.metadata, spec: { ...lease.spec, renewTime: microTime(this.#options.clock.nowMs()) } };
  }

  async #ensureLease(): Promise<Lease | undefined> {
    const { client, clock, name, namespace, durationSeconds } = this.#options;
    try {
      return await client.getLease(namespace, name);
    } catch (error) {
      if (!isNotFound(error)) return undefined;
    }
    const lease: Lease = {
      metadata: { name, namespace },
      spec: { holderIdentity: name, leaseDurationSeconds: durationSeconds, renewTime: microTime(clock.nowMs()) },
    };
    try {
      this.#lease = await client.createLease(lease, this.#callOptions);
    } catch {
      // Created by an earlier incarnation, or unreachable: the next tick reads it.
    }
    return undefined;
  }
}
