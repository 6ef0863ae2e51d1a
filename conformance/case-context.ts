/** What a case body gets from the runner. */
import type { Dialect } from "../spec/dialects.ts";
import type { Poll, PollOutcome } from "./case-waits.ts";
import type { ConformanceClient } from "./client/conformance-client.ts";
import type { Retention } from "./retention.ts";

/** The context of one case run. */
export interface CaseContext {
  /** The client of the run's identity. */
  readonly client: ConformanceClient;
  /** The client of the second, restricted identity; undefined unless the case needs it and one was given. */
  readonly restricted: ConformanceClient | undefined;
  /** A namespace the run created for this case (mutating cases), else the dialect's default namespace. */
  readonly namespace: string;
  readonly dialect: Dialect;
  /** True when time is virtual: `advance` costs nothing and the server's windows are short. */
  readonly virtualTime: boolean;
  /**
   * The history window of an embedded target, which serves watches from that history only;
   * undefined for real servers, whose watch cache may hold old versions longer (doc 1 §7: "cache
   * dependent").
   */
  readonly historyWindowMs: number | undefined;
  /** Moves time on: the virtual clock of an embedded target, else a real wait that Ctrl-C cuts short. */
  advance(ms: number): Promise<void>;
  /**
   * Probes with backoff until `probe` gives a value or `withinMs` passes (case-waits.ts), in the
   * target's time; the progress line names the case, what it awaits and the deadline. The wait
   * does not count against the case's timeout.
   */
  pollUntil<T>(poll: Poll<T>): Promise<PollOutcome<T>>;
  /** How long the target keeps old versions: known from the target, or measured once per run. */
  retention(): Promise<Retention>;
  /** A name unique within the run, starting with `prefix`. */
  name(prefix: string): string;
  /** Ends the case as skipped, with the reason. */
  skip(reason: string): never;
}
