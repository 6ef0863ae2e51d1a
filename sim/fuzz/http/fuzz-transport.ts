/**
 * What the HTTP fuzzer needs from the network, as a parameter: sim/ stays free of sockets and
 * clocks (docs/ARCHITECTURE.md, determinism contract); conformance/fuzz-http/ implements it on a
 * real socket with real timeouts.
 */
import type { Outcome } from "./answer-oracle.ts";

/** A request exactly as it goes on the wire (placeholders filled in). */
export interface WireRequest {
  readonly method: string;
  /** Path and query. */
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Uint8Array;
  /** A Content-Length other than the body's length. */
  readonly declaredLength?: number;
}

/** How the transport should wait for an answer. */
export interface SendHints {
  /** A watch may stream: read what comes in a short window, then cut it. */
  readonly streaming: boolean;
  /** The server is expected to wait (a Content-Length longer than the body): give up soon. */
  readonly expectsNoAnswer: boolean;
}

/** Sends requests to the server under test, with its credentials. */
export interface FuzzTransport {
  send(request: WireRequest, hints: SendHints): Promise<Outcome>;
}
