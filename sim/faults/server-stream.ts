/**
 * A connection on which the server sends one process messages (a watch's events): each after a
 * one-way latency of the process, never before the message sent ahead of it (one connection
 * delivers in order, as TCP does), and lost while a partition cuts the process off, when it is sent
 * or when it would arrive. Arrivals reach the process through its clock (deferred while paused,
 * dropped once it crashed).
 */
import type { Network } from "./network.ts";
import type { ProcessClock } from "./process-clock.ts";

/** One server-to-process connection. */
export class ServerStream {
  readonly #network: Network;
  readonly #clock: ProcessClock;
  #lastArrivalMs = Number.NEGATIVE_INFINITY;

  /** A connection to the process whose clock is `clock`. */
  constructor(network: Network, clock: ProcessClock) {
    this.#network = network;
    this.#clock = clock;
  }

  /** Sends one message: `deliver` runs in the process when it arrives; `lost` runs instead, server side, when a partition takes it. */
  send(deliver: () => void, lost: () => void): void {
    const network = this.#network;
    const process = this.#clock.name;
    if (network.isPartitioned(process)) return lost();
    const nowMs = network.nowMs();
    const arrivalMs = Math.max(nowMs + network.oneWayMs(process), this.#lastArrivalMs);
    this.#lastArrivalMs = arrivalMs;
    network.after(arrivalMs - nowMs, () => (network.isPartitioned(process) ? lost() : this.#clock.deliver(deliver)));
  }
}
