/**
 * Runs conformance cases against a target: selection (focus, skip, read-only, slow), one
 * namespace per mutating case (`orb-conformance-<run>-<n>`, deleted afterwards), a timeout per
 * case, N cases at a time, and a result per case with its transcript.
 */
import { randomBytes } from "node:crypto";
import { CaseDeadline } from "./case-deadline.ts";
import { CaseFailure, CaseInterrupted, CaseSkipped } from "./case-outcome.ts";
import type { ConformanceCase } from "./case-definition.ts";
import type { CaseContext } from "./case-context.ts";
import { abortableSleep, pollUntil, type Poll } from "./case-waits.ts";
import { ConformanceClient, type Transport } from "./client/conformance-client.ts";
import { ExchangeRecorder } from "./client/exchange-recorder.ts";
import { recordOf } from "./client/json-fields.ts";
import { provisionImpersonatedIdentity } from "./client/impersonated-identity.ts";
import { InterlockError, MutationInterlock } from "./client/mutation-interlock.ts";
import type { CaseResult, CaseStatus } from "./results.ts";
import { measureRetention } from "./retention-measurement.ts";
import { retentionOfEmbeddedServer, type Retention } from "./retention.ts";
import type { Target, VirtualTimeServer } from "./targets/target.ts";

/** How to run. */
export interface RunnerOptions {
  readonly focus?: RegExp;
  readonly skip?: RegExp;
  /** Only cases that do not write. */
  readonly readOnly: boolean;
  /** Run slow cases (real waits) against real servers. */
  readonly slow: boolean;
  readonly parallel: number;
  /** How long a case may take, not counting its deliberate real-time waits (case-deadline.ts). */
  readonly caseTimeoutMs: number;
  readonly keepNamespaces: boolean;
  /** Told when each case starts and ends (progress). */
  readonly onCaseStart?: (testCase: ConformanceCase) => void;
  readonly onCaseEnd?: (result: CaseResult) => void;
  /** Told when a case starts waiting for the server (time-dependent cases): what, and for how long at most. */
  readonly onCaseWaiting?: (testCase: ConformanceCase, what: string, withinMs: number) => void;
  /** Told what the user must know but is no case's result: a namespace the run could not delete. */
  readonly onWarning?: (message: string) => void;
}

/** The cases `options` selects, in order. */
export function selectCases(cases: readonly ConformanceCase[], options: Pick<RunnerOptions, "focus" | "skip">): ConformanceCase[] {
  return cases.filter((testCase) => (options.focus === undefined || options.focus.test(testCase.id)) && !(options.skip?.test(testCase.id) ?? false));
}

/**
 * A run in progress; `abort()` (Ctrl-C) stops starting cases and ends the running ones at once,
 * mid-wait or mid-request: they are reported skipped ("interrupted") and their namespaces deleted.
 */
export class ConformanceRun {
  private readonly interruption = new AbortController();
  private readonly interrupted: Promise<never>;
  private readonly runId = randomBytes(3).toString("hex");
  private readonly interlock = new MutationInterlock();
  private caseNumber = 0;
  /** The target's retention as measured by the first case that needed it (real servers that did not say). */
  private measuredRetention: Promise<Retention> | undefined;

  constructor(
    private readonly target: Target,
    private readonly options: RunnerOptions,
  ) {
    this.interrupted = new Promise<never>((_, reject) => {
      this.interruption.signal.addEventListener("abort", () => reject(new CaseInterrupted("interrupted (Ctrl-C) while it ran")), { once: true });
    });
    this.interrupted.catch(() => undefined);
  }

  /** Stops scheduling cases (unstarted ones are reported skipped) and interrupts the running ones. */
  abort(): void {
    this.interruption.abort();
  }

  private get aborted(): boolean {
    return this.interruption.signal.aborted;
  }

  /** Runs `cases`, at most `parallel` at once; resolves to their results in case order. */
  async run(cases: readonly ConformanceCase[]): Promise<CaseResult[]> {
    const results: CaseResult[] = new Array(cases.length);
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const testCase = cases[index]!;
        this.options.onCaseStart?.(testCase);
        results[index] = this.aborted ? outcome(testCase, "skip", "interrupted before it started", 0, []) : await this.runCase(testCase);
        this.options.onCaseEnd?.(results[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.parallel) }, worker));
    return results;
  }

  private async runCase(testCase: ConformanceCase): Promise<CaseResult> {
    const started = performance.now();
    const recorder = new ExchangeRecorder(this.target.secrets);
    // A message may quote what a server or a case saw: the run's secrets go before anyone prints it.
    const finish = (status: CaseStatus, message: string) => outcome(testCase, status, recorder.redact(message), performance.now() - started, recorder.exchanges);
    const precondition = this.skipReason(testCase);
    if (precondition !== undefined) return finish("skip", precondition);
    const virtual = testCase.tags.includes("virtual-time") ? this.target.virtualTimeServer?.() : undefined;
    const baseUrl = virtual?.baseUrl ?? this.target.url;
    const transport = virtual?.transport ?? this.target.identity.transport;
    const client = new ConformanceClient(transport, baseUrl, recorder, this.interlock, this.target.identity.authHeaders);
    let restricted =
      this.target.restricted === undefined
        ? undefined
        : new ConformanceClient(virtual?.transport ?? this.target.restricted.transport, baseUrl, recorder, this.interlock, this.target.restricted.authHeaders);
    let namespace = this.target.dialect.namespaces.default;
    const deadline = new CaseDeadline(this.options.caseTimeoutMs);
    // Without a second credential, the case acts as a ServiceAccount made in a namespace of its own.
    const impersonating = restricted === undefined && testCase.tags.includes("needs-second-identity");
    const ownNamespace = testCase.tags.includes("mutating") || impersonating;
    try {
      if (ownNamespace) namespace = await this.createNamespace(client);
      if (impersonating) restricted = await this.impersonatedClient(client, namespace, transport, baseUrl, recorder);
      const context = this.context(testCase, client, restricted, namespace, virtual, deadline);
      await deadline.race(Promise.race([testCase.run(context), this.interrupted]));
      return finish("pass", "");
    } catch (error) {
      return finish(...classify(error));
    } finally {
      deadline.dispose();
      if (ownNamespace && namespace !== this.target.dialect.namespaces.default && !this.options.keepNamespaces) {
        await this.deleteNamespace(client, namespace, (text) => recorder.redact(text));
      }
      virtual?.close();
    }
  }

  // A namespace left behind on a real cluster is the user's to remove: say so, never silently.
  private async deleteNamespace(client: ConformanceClient, namespace: string, redact: (text: string) => string): Promise<void> {
    const why = await client.delete(`/api/v1/namespaces/${namespace}`).then(
      // 404: gone already (a case deleted it); 409: already terminating ("The system is ensuring all
      // content is removed from this namespace"), so it will go by itself.
      (response) => (response.status < 300 || response.status === 404 || response.status === 409 ? undefined : `HTTP ${response.status} ${String(recordOf(response.json).message ?? "")}`.trim()),
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (why === undefined) return;
    this.options.onWarning?.(redact(`could not delete namespace ${namespace} (${why}); remove it with: kubectl delete namespace ${namespace}`));
  }

  /**
   * The restricted identity of a case on a real server given no second credential: a
   * ServiceAccount in the case's namespace, impersonated (client/impersonated-identity.ts).
   * Skips the case, saying why, where the server or the main identity does not allow it.
   */
  private async impersonatedClient(client: ConformanceClient, namespace: string, transport: Transport, baseUrl: string, recorder: ExchangeRecorder): Promise<ConformanceClient> {
    const identity = await provisionImpersonatedIdentity(client, namespace, this.target.dialect);
    if ("unavailable" in identity) {
      throw new CaseSkipped(`needs a second identity: give --restricted-token or --restricted-kubeconfig (${identity.unavailable}, so none could be made by impersonation)`);
    }
    return new ConformanceClient(transport, baseUrl, recorder, this.interlock, { ...this.target.identity.authHeaders, ...identity.headers });
  }

  private skipReason(testCase: ConformanceCase): string | undefined {
    const { tags } = testCase;
    if (this.options.readOnly && tags.includes("mutating")) return "mutating case, and the run is --read-only";
    // Without a second credential, a real server may still allow impersonating one (impersonatedClient).
    if (tags.includes("needs-second-identity") && this.target.restricted === undefined) {
      if (this.target.kind === "embedded") return "needs a second identity: give --restricted-token or --restricted-kubeconfig";
      if (this.options.readOnly) return "needs a second identity: give --restricted-token or --restricted-kubeconfig (a --read-only run makes none by impersonation)";
    }
    const needsTime = tags.includes("virtual-time") || tags.includes("slow");
    if (needsTime && this.target.virtualTimeServer === undefined && !this.options.slow) {
      return "waits in real time against a real server (minutes): run with --slow";
    }
    return undefined;
  }

  private async createNamespace(client: ConformanceClient): Promise<string> {
    const name = `orb-conformance-${this.runId}-${this.caseNumber++}`;
    this.interlock.claimNamespace(name);
    const created = await client.post("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    if (created.status !== 201 && created.status !== 200) {
      throw new Error(`could not create the case's namespace ${name}: HTTP ${created.status} ${String(recordOf(created.json).message ?? "")}`);
    }
    return name;
  }

  private context(
    testCase: ConformanceCase,
    client: ConformanceClient,
    restricted: ConformanceClient | undefined,
    namespace: string,
    virtual: VirtualTimeServer | undefined,
    deadline: CaseDeadline,
  ): CaseContext {
    let names = 0;
    let virtualElapsedMs = 0;
    const signal = this.interruption.signal;
    // A real wait is part of the case's design, not a hang: it moves the deadline on (slow cases).
    const advance = async (ms: number) => {
      if (virtual !== undefined) {
        virtualElapsedMs += ms;
        return virtual.advance(ms);
      }
      deadline.extend(ms);
      return abortableSleep(ms, signal);
    };
    const elapsedMs = () => (virtual !== undefined ? virtualElapsedMs : performance.now());
    const context: CaseContext = {
      client,
      restricted,
      namespace,
      dialect: this.target.dialect,
      virtualTime: virtual !== undefined,
      historyWindowMs: virtual?.historyWindowMs,
      advance,
      pollUntil: <T>(poll: Poll<T>) => {
        this.options.onCaseWaiting?.(testCase, poll.what, poll.withinMs);
        // The probes' own time is part of the wait too: each one moves the deadline on by what it took.
        const probe = async () => {
          const started = performance.now();
          try {
            return await poll.probe();
          } finally {
            deadline.extend(performance.now() - started);
          }
        };
        return pollUntil({ ...poll, probe }, advance, elapsedMs);
      },
      retention: () => this.retention(virtual, context, deadline),
      name: (prefix) => `${prefix}-${this.runId}-${names++}`,
      skip: (reason) => {
        throw new CaseSkipped(reason);
      },
    };
    return context;
  }

  /** The retention of the server a case talks to: an embedded server's, the target's, or measured once per run. */
  private retention(virtual: VirtualTimeServer | undefined, context: CaseContext, deadline: CaseDeadline): Promise<Retention> {
    if (virtual !== undefined) return Promise.resolve(retentionOfEmbeddedServer(virtual.historyWindowMs, virtual.compactionIntervalMs));
    if (this.target.retention !== undefined) return Promise.resolve(this.target.retention);
    if (this.measuredRetention === undefined) {
      // The measuring case's own probes move its deadline on (pollUntil).
      this.measuredRetention = measureRetention(context);
      return this.measuredRetention;
    }
    // Another case measures (up to minutes): that wait is not this case's to count.
    return deadline.waitOutside(this.measuredRetention);
  }
}

function classify(error: unknown): [CaseStatus, string] {
  if (error instanceof CaseFailure) return ["fail", error.message];
  if (error instanceof CaseSkipped) return ["skip", error.message];
  if (error instanceof CaseInterrupted) return ["skip", error.message];
  if (error instanceof InterlockError) return ["error", `stopped by the safety interlock: ${error.message}`];
  return ["error", error instanceof Error ? `${error.name}: ${error.message}` : String(error)];
}

function outcome(testCase: ConformanceCase, status: CaseStatus, message: string, durationMs: number, transcript: CaseResult["transcript"]): CaseResult {
  return { id: testCase.id, area: testCase.area, clauses: testCase.clauses, tags: testCase.tags, status, durationMs: Math.round(durationMs), message, transcript };
}
