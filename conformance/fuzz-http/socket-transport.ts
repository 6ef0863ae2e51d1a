/**
 * The HTTP fuzzer's transport on a real socket (sim/fuzz/http/fuzz-transport.ts): each request on
 * its own connection through raw-http-client.ts, with the run's bearer token added and real
 * timeouts: a watch is read for a short window and cut, a request whose Content-Length promises
 * more than it sends is given up on soon (the server is right to wait).
 */
import type { Outcome } from "../../sim/fuzz/http/answer-oracle.ts";
import type { FuzzTransport, SendHints, WireRequest } from "../../sim/fuzz/http/fuzz-transport.ts";
import { sendRaw, type RawEndpoint } from "./raw-http-client.ts";

/** Timeouts in milliseconds. */
export const FUZZ_TIMEOUTS = {
  /** For an answer's head: generous, a loaded server is slow, not broken. */
  headMs: 30_000,
  /** For the rest of a body once the head is in. */
  bodyMs: 5_000,
  /** How long a watch is read before it is cut. */
  streamMs: 300,
  /** How long to wait on a request whose body is shorter than declared. */
  lieMs: 1_000,
} as const;

/** A transport to `endpoint`, sending `token` (if any) as a bearer token. */
export function socketTransport(endpoint: RawEndpoint, token: string | undefined): FuzzTransport {
  return {
    async send(request: WireRequest, hints: SendHints): Promise<Outcome> {
      const headers = token === undefined ? request.headers : [["Authorization", `Bearer ${token}`] as const, ...request.headers];
      const outcome = await sendRaw(
        endpoint,
        { method: request.method, target: request.target, headers, ...(request.body !== undefined && { body: request.body }), ...(request.declaredLength !== undefined && { declaredLength: request.declaredLength }) },
        { headMs: hints.expectsNoAnswer ? FUZZ_TIMEOUTS.lieMs : FUZZ_TIMEOUTS.headMs, bodyMs: hints.streaming ? FUZZ_TIMEOUTS.streamMs : FUZZ_TIMEOUTS.bodyMs },
      );
      return outcome.kind === "answer" ? { kind: "answer", status: outcome.status, headers: outcome.headers, body: outcome.body, cut: outcome.cut } : outcome;
    },
  };
}
