/**
 * The in-memory transport: the web-standard `(Request) => Promise<Response>` of a client,
 * carried to an API handler (the embedded server's `handle`) through the simulated network, in
 * virtual time (docs/ARCHITECTURE.md, "Transports"). Latency, partitions and dropped responses come from the
 * `Network`; pauses and crashes of the calling process from its `ProcessClock`.
 */
import type { Network } from "../faults/network.ts";
import type { ProcessClock } from "../faults/process-clock.ts";

/** A fetch-shaped handler: what a server exposes and what clients call. */
export type Transport = (request: Request) => Promise<Response>;

/** Per-request options of an `ObservedTransport`. */
export interface RequestOptions {
  /** Runs at the server once it has answered (server time), even if the response is then lost. */
  readonly onApplied?: (response: Response) => void;
  /** The client's timeout for this request, ms of its own clock (a deadline's remainder). */
  readonly timeoutMs?: number;
}

/** A transport that can also tell when the server applied a request, and take a per-request timeout. */
export type ObservedTransport = (request: Request, options?: RequestOptions) => Promise<Response>;

/** How one process reaches the server. */
export interface InMemoryTransportOptions {
  /** The calling process: its name selects its latency, partitions and drops. */
  readonly clock: ProcessClock;
  readonly network: Network;
  /** The server's handler, e.g. `server.handle`. */
  readonly handler: Transport;
  /** The client's own timeout per request, ms of the process's clock (default 10 s). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A transport for one process. A request's `onApplied` runs at the server, when the handler has
 * answered, before the response travels back (even if the response is then dropped): the moment a
 * write took effect, which is what the invariants' histories record.
 */
export function inMemoryTransport(options: InMemoryTransportOptions): ObservedTransport {
  const { clock, network, handler } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return (request, requestOptions = {}) => {
    const apply = async (): Promise<Response> => {
      const response = await handler(request);
      requestOptions.onApplied?.(response);
      return response;
    };
    return network.roundTrip(clock, apply, requestOptions.timeoutMs ?? timeoutMs);
  };
}
