/**
 * A leader election candidate (doc 2 §2.2), the algorithm of client-go's LeaderElector over a
 * Lease lock:
 *
 * - Acquire: try every retry period. A try reads the lock; when the record differs from the last
 *   one seen, the candidate notes the time on its OWN (monotonic) clock. It takes over only when
 *   the lease duration has passed on its clock since the record last changed. Writes carry the
 *   read's resourceVersion, so of two racing candidates one gets 409 Conflict.
 * - Renew: the leader renews every retry period; each renewal window lasts the renew deadline,
 *   polling every retry period; when a window ends without a successful renewal, it stops leading
 *   (client-go then exits the process; here the candidate goes back to acquiring).
 * - leaseTransitions counts changes of holder.
 *
 * Like client-go 1.28+, a leader whose lease is still valid on its clock renews from its cached
 * Lease without reading first ("fast path"), falling back to read-then-write on failure.
 * Unlike client-go, the acquire loop has no jitter: doc 2 says "every retry period".
 */
import type { ActorClock } from "./actor-clock.ts";
import { isNotFound, type ControlPlaneClient } from "./api-client.ts";
import type { Lease } from "./api-objects.ts";
import type { HistoryRecorder } from "./history-recorder.ts";
import { rawRecord, recordOf, withRecord, type ElectionRecord } from "./leader-election-record.ts";
import { microTime } from "./micro-time.ts";

/** Leader election timing (doc 2 §2.2 `--leader-elect-*`), ms. */
export interface LeaderElectionTiming {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** How a candidate is set up. */
export interface CandidateOptions {
  /** The process (trace actor, fault target), e.g. `candidate-0`. */
  readonly process: string;
  /** The identity written as holder; a restarted process gets a new one, as with client-go's host_uuid ids. */
  readonly identity: string;
  readonly client: ControlPlaneClient;
  readonly clock: ActorClock;
  /** The lock object (doc 2 `--leader-elect-resource-name` / `-namespace`). */
  readonly lock: { readonly namespace: string; readonly name: string };
  readonly timing: LeaderElectionTiming;
  readonly recorder: HistoryRecorder;
}

/** One candidate; `run` never returns (a crash stops it through its clock). */
export class LeaderElectionCandidate {
  readonly #options: CandidateOptions;
  #observed: ElectionRecord | undefined;
  #observedRaw = "";
  #observedAtMs = Number.NEGATIVE_INFINITY;
  #lease: Lease | undefined;
  #leading = false;

  constructor(options: CandidateOptions) {
    this.#options = options;
  }

  /** Whether the candidate acts as leader now (from acquisition until its renew window fails). */
  get leading(): boolean {
    return this.#leading;
  }

  /** Acquire, lead while renewals succeed, stop, and again. */
  async run(): Promise<void> {
    const { recorder, process, identity } = this.#options;
    for (;;) {
      await this.#acquire();
      this.#leading = true;
      recorder.leadership({ candidate: process, identity, change: "start" });
      await this.#renew();
      this.#leading = false;
      recorder.leadership({ candidate: process, identity, change: "stop", reason: "renew-deadline" });
    }
  }

  async #acquire(): Promise<void> {
    const { clock, timing } = this.#options;
    for (;;) {
      // With no deadline, a request may take up to the renew deadline (client-go: the client's timeout).
      if (await this.#tryAcquireOrRenew(clock.monotonicMs() + timing.renewDeadlineMs)) return;
      await clock.sleep(timing.retryPeriodMs);
    }
  }

  // client-go renew(): wait.Until(retryPeriod) of PollImmediateUntil(retryPeriod, try, renewDeadline).
  async #renew(): Promise<void> {
    const { clock, timing } = this.#options;
    for (;;) {
      const windowEndMs = clock.monotonicMs() + timing.renewDeadlineMs;
      let renewed = false;
      while (!renewed && clock.monotonicMs() < windowEndMs) {
        renewed = await this.#tryAcquireOrRenew(windowEndMs);
        if (!renewed) await clock.sleep(Math.min(timing.retryPeriodMs, Math.max(0, windowEndMs - clock.monotonicMs())));
      }
      if (!renewed) return;
      await clock.sleep(timing.retryPeriodMs);
    }
  }

  async #tryAcquireOrRenew(deadlineMs: number): Promise<boolean> {
    const { clock, identity, timing } = this.#options;
    const nowMs = clock.monotonicMs();
    const wall = microTime(clock.nowMs());
    const desired: ElectionRecord = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.floor(timing.leaseDurationMs / 1000),
      acquireTime: wall,
      renewTime: wall,
      leaseTransitions: 0,
    };
    if (this.#isLeader() && this.#isLeaseValid(nowMs) && this.#lease !== undefined) {
      if (await this.#write(this.#lease, this.#renewal(desired, this.#observed!), deadlineMs)) return true;
    }
    const lease = await this.#read(deadlineMs);
    if (lease === "missing") return this.#create(desired, deadlineMs);
    if (lease === undefined) return false;
    const current = recordOf(lease);
    this.#observe(current, lease);
    if (current.holderIdentity !== "" && this.#isLeaseValid(nowMs) && !this.#isLeader()) return false;
    const next = this.#isLeader() ? this.#renewal(desired, current) : { ...desired, leaseTransitions: current.leaseTransitions + 1 };
    return this.#write(lease, next, deadlineMs);
  }

  // A renewal keeps the acquisition time and the transition count.
  #renewal(desired: ElectionRecord, current: ElectionRecord): ElectionRecord {
    return { ...desired, acquireTime: current.acquireTime, leaseTransitions: current.leaseTransitions };
  }

  async #read(deadlineMs: number): Promise<Lease | "missing" | undefined> {
    const { client, lock } = this.#options;
    try {
      return await client.getLease(lock.namespace, lock.name, { timeoutMs: this.#remaining(deadlineMs) });
    } catch (error) {
      return isNotFound(error) ? "missing" : undefined;
    }
  }

  async #create(record: ElectionRecord, deadlineMs: number): Promise<boolean> {
    const { client, lock, recorder } = this.#options;
    const lease: Lease = { metadata: { name: lock.name, namespace: lock.namespace }, spec: { ...record } };
    try {
      const created = await client.createLease(lease, {
        timeoutMs: this.#remaining(deadlineMs),
        onApplied: () => recorder.leaseTransition(record.holderIdentity, record.leaseTransitions),
      });
      this.#observe(record, created);
      return true;
    } catch {
      return false;
    }
  }

  async #write(lease: Lease, record: ElectionRecord, deadlineMs: number): Promise<boolean> {
    const { client, recorder } = this.#options;
    const takesOver = recordOf(lease).holderIdentity !== record.holderIdentity;
    try {
      const updated = await client.updateLease(withRecord(lease, record), {
        timeoutMs: this.#remaining(deadlineMs),
        ...(takesOver && { onApplied: () => recorder.leaseTransition(record.holderIdentity, record.leaseTransitions) }),
      });
      this.#observe(record, updated);
      return true;
    } catch {
      return false;
    }
  }

  // client-go setObservedRecord: the record, and the time this candidate saw it change.
  #observe(record: ElectionRecord, lease: Lease): void {
    this.#lease = lease;
    const raw = rawRecord(record);
    if (raw === this.#observedRaw) return;
    this.#observed = record;
    this.#observedRaw = raw;
    this.#observedAtMs = this.#options.clock.monotonicMs();
  }

  #isLeader(): boolean {
    return this.#observed?.holderIdentity === this.#options.identity;
  }

  // Valid while the record's lease duration has not passed, on this candidate's clock, since it changed.
  #isLeaseValid(nowMs: number): boolean {
    return this.#observedAtMs + (this.#observed?.leaseDurationSeconds ?? 0) * 1000 > nowMs;
  }

  #remaining(deadlineMs: number): number {
    return Math.max(1, deadlineMs - this.#options.clock.monotonicMs());
  }
}
