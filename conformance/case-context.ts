/** What a case body gets from the runner. */
import type { Dialect } from "../spec/dialects.ts";
import type { ConformanceClient } from "./client/conformance-client.ts";

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
  /** The history window of the target, where known (embedded targets); undefined for real servers. */
  readonly historyWindowMs: number | undefined;
  /** Moves time on: the virtual clock of an embedded target, else a real wait (slow cases only). */
  advance(ms: number): Promise<void>;
  /** A name unique within the run, starting with `prefix`. */
  name(prefix: string): string;
  /** Ends the case as skipped, with the reason. */
  skip(reason: string): never;
}
