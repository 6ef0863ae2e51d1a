/** What the runner needs of a server under test, however it is reached. */
import type { Dialect } from "../../spec/dialects.ts";
import type { Transport } from "../client/conformance-client.ts";
import type { RunResults } from "../results.ts";
import type { Retention } from "../retention.ts";

/** A server in virtual time for one case (embedded targets only). */
export interface VirtualTimeServer {
  readonly transport: Transport;
  readonly baseUrl: string;
  readonly historyWindowMs: number;
  readonly compactionIntervalMs: number;
  advance(ms: number): Promise<void>;
  close(): void;
}

/** An identity to send requests as. */
export interface Identity {
  readonly transport: Transport;
  /** Headers every request carries (Authorization); never recorded. */
  readonly authHeaders: Readonly<Record<string, string>>;
}

/** A server under test. */
export interface Target {
  readonly kind: RunResults["target"]["kind"];
  readonly url: string;
  readonly dialect: Dialect;
  readonly serverVersion: string;
  readonly identity: Identity;
  /** The second identity, for authorization cases. */
  readonly restricted: Identity | undefined;
  /** Strings that must never appear in any output (tokens, keys). */
  readonly secrets: readonly string[];
  /** How long the server keeps old versions, when known (a profile, a flag); else the suite measures it. */
  readonly retention?: Retention | undefined;
  /** A fresh embedded server in virtual time; undefined for real servers. */
  readonly virtualTimeServer: (() => VirtualTimeServer) | undefined;
  close(): Promise<void>;
}
