/**
 * Sends the reference requests (reference-requests.ts) to a server and writes its answers as
 * transcript lines. The run works in namespaces of its own: it refuses to start when one of them
 * exists, every write goes through the conformance client's interlock (which refuses anything
 * outside them), and the namespace it created is deleted at the end, on error and on interrupt too.
 * Credentials never reach a line or a message: they are sent as headers no line shows, and the
 * run's secret strings are removed from every line and message all the same.
 */
import { randomBytes } from "node:crypto";
import { redactSecrets } from "../../reports/redaction.ts";
import { InterlockError, MutationInterlock } from "../client/mutation-interlock.ts";
import type { Identity } from "../targets/target.ts";
import { Interrupted, sleepUnlessInterrupted, within } from "./bounded-wait.ts";
import { capturedValues, NAMESPACE_CREATE_ID, RECORD_STEPS, type IdentityName, type RecordStep, type RecordValues, type RequestTemplate, type SetupRequest } from "./reference-requests.ts";
import { lineRequest, lineResponse, renderRequest, type TranscriptLine } from "./transcript-line.ts";
import { openWatch, type WatchCapture } from "./watch-capture.ts";

/** A server to record, and who to be there. */
export interface RecordTarget {
  readonly url: string;
  readonly admin: Identity;
  /** The second identity; without it, the restricted user's requests are skipped. */
  readonly restricted: Identity | undefined;
  /** No credentials at all (no token, no client certificate). */
  readonly anonymous: Identity;
  /** A bearer token the server does not know. */
  readonly unknownToken: Identity;
  /** Strings that must never appear in any output. */
  readonly secrets: readonly string[];
}

/** How to record. */
export interface RecordOptions {
  readonly target: RecordTarget;
  /** Receives each line (JSON, no newline), in the reference's order. */
  writeLine(line: string): Promise<void>;
  /** Receives warnings: skipped requests, unexpected setup answers, cleanup problems. */
  warn(message: string): void;
  /** How long the three short watches stay open. */
  readonly watchHoldMs: number;
  /** How long watch-from-rv stays open (the reference: 70 s, to catch a bookmark). */
  readonly bookmarkHoldMs: number;
  /** Per request, body included. */
  readonly requestTimeoutMs: number;
  /** Aborts the run (Ctrl-C): no further request is sent; the namespace is still deleted. */
  readonly signal?: AbortSignal;
  /** The namespace to create (default `orb-record-<random>`). */
  readonly namespace?: string;
}

/** What a recording did. */
export interface RecordSummary {
  readonly namespace: string;
  readonly recorded: number;
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
  /** Requests that got no answer (connection error, timeout): no line for them. */
  readonly failed: readonly { readonly id: string; readonly reason: string }[];
  readonly interrupted: boolean;
  /** What became of the run's namespace: "left behind" when it could not be deleted (a warning says so). */
  readonly namespaceOutcome: "deleted" | "never created" | "left behind";
}

/** The recording cannot start or go on (a namespace exists, the namespace was not created): one line, exit 2. */
export class RecordError extends Error {}

/** Runs every step and deletes the namespace it created, whatever happens. */
export async function recordReferenceRequests(options: RecordOptions): Promise<RecordSummary> {
  const run = new RecordingRun(options);
  try {
    await run.checkNamespacesAbsent();
    for (const step of RECORD_STEPS) {
      if (options.signal?.aborted) break;
      await run.perform(step);
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    await run.cleanUp();
  }
  return run.summary();
}

class RecordingRun {
  private readonly values: { -readonly [K in keyof RecordValues]: RecordValues[K] };
  private readonly interlock = new MutationInterlock();
  private readonly watches = new Map<string, { template: RequestTemplate; capture: WatchCapture }>();
  private readonly skipped: { id: string; reason: string }[] = [];
  private readonly failed: { id: string; reason: string }[] = [];
  private recorded = 0;
  private namespaceCreated = false;
  private namespaceLeft = false;

  constructor(private readonly options: RecordOptions) {
    const namespace = options.namespace ?? `orb-record-${randomBytes(4).toString("hex")}`;
    this.values = {
      namespace,
      absentNamespace: `${namespace}-absent`,
      otherNamespace: `${namespace}-other`,
      createdResourceVersion: "",
      listResourceVersion: "",
      firstContinue: "",
      secondContinue: "",
      watchResourceVersion: "",
    };
    // The two absent namespaces are claimed too: writes into them must reach the server (which
    // refuses them), and they are ours by name, checked absent before anything is sent.
    for (const name of [namespace, this.values.absentNamespace, this.values.otherNamespace]) this.interlock.claimNamespace(name);
  }

  /** Refuses to run when a namespace the run would use already exists: it would not be ours. */
  async checkNamespacesAbsent(): Promise<void> {
    for (const name of [this.values.namespace, this.values.absentNamespace, this.values.otherNamespace]) {
      const answer = await this.exchange(this.options.target.admin, "GET", `/api/v1/namespaces/${name}`, {}, undefined);
      if (answer.status === 404) continue;
      if (answer.status === 200) throw new RecordError(`namespace ${name} already exists; record only works in namespaces it creates`);
      throw new RecordError(`cannot check that namespace ${name} is absent: HTTP ${answer.status}`);
    }
  }

  async perform(step: RecordStep): Promise<void> {
    switch (step.kind) {
      case "send":
        return this.send(step.request);
      case "setup":
        return this.setup(step.request);
      case "open-watch":
        return this.open(step.request);
      case "close-watch":
        return this.close(step.id, step.hold === "short" ? this.options.watchHoldMs : this.options.bookmarkHoldMs);
    }
  }

  private async send(template: RequestTemplate): Promise<void> {
    const identity = this.identityFor(template);
    if (identity === undefined) return;
    const { path, body } = renderRequest(template, this.values);
    let answer: Answer;
    try {
      answer = await this.exchange(identity, template.method, path, template.headers ?? {}, body);
    } catch (error) {
      if (isFatal(error)) throw error;
      if (!(error instanceof Interrupted)) this.fail(template.id, error);
      return;
    }
    await this.writeLine(template, answer);
    this.capture(template, answer);
    if (template.id === NAMESPACE_CREATE_ID) {
      if (answer.status !== 201) throw new RecordError(`the server answered HTTP ${answer.status} to creating namespace ${this.values.namespace}; nothing else was sent`);
      this.namespaceCreated = true;
    }
  }

  private async setup(request: SetupRequest): Promise<void> {
    const { what, method, path, body, contentType } = request;
    const headers: Record<string, string> = contentType === undefined ? {} : { "content-type": contentType };
    const sentBody = body === undefined ? undefined : JSON.stringify(body(this.values));
    try {
      const answer = await this.exchange(this.options.target.admin, method, path(this.values), headers, sentBody);
      if (answer.status >= 300) this.warn(`setup step "${what}" answered HTTP ${answer.status}; later answers may differ from the reference's`);
    } catch (error) {
      if (isFatal(error)) throw error;
      if (!(error instanceof Interrupted)) this.warn(`setup step "${what}" got no answer: ${(error as Error).message}`);
    }
  }

  private async open(template: RequestTemplate): Promise<void> {
    const identity = this.identityFor(template);
    if (identity === undefined) return;
    const request = this.buildRequest(identity, template.method, template.path(this.values), template.headers ?? {}, undefined);
    try {
      this.watches.set(template.id, { template, capture: await within(openWatch(identity.transport, request), this.options.requestTimeoutMs, this.options.signal) });
    } catch (error) {
      if (isFatal(error)) throw error;
      if (!(error instanceof Interrupted)) this.fail(template.id, error);
    }
  }

  private async close(id: string, holdMs: number): Promise<void> {
    const watch = this.watches.get(id);
    if (watch === undefined) return; // it failed to open, and that was reported
    await sleepUnlessInterrupted(watch.capture.openedAtMs + holdMs - performance.now(), this.options.signal);
    this.watches.delete(id);
    const captured = await watch.capture.close();
    await this.writeLine(watch.template, captured);
  }

  /** The identity a template asks for, or undefined (and the skip noted) when it is not sent. */
  private identityFor(template: RequestTemplate): Identity | undefined {
    if (template.neverSent !== undefined) return this.skip(template.id, template.neverSent);
    const identity = this.identity(template.identity ?? "admin");
    return identity ?? this.skip(template.id, "no restricted identity was given (--restricted-token)");
  }

  private identity(name: IdentityName): Identity | undefined {
    const target = this.options.target;
    return { admin: target.admin, "restricted user": target.restricted, "unknown token": target.unknownToken, anonymous: target.anonymous }[name];
  }

  private skip(id: string, reason: string): undefined {
    this.skipped.push({ id, reason });
    return undefined;
  }

  private fail(id: string, error: unknown): void {
    const reason = this.redact((error as Error).message);
    this.failed.push({ id, reason });
    this.warn(`${id}: no answer (${reason}); no line written for it`);
  }

  private capture(template: RequestTemplate, answer: Answer): void {
    if (template.capture === undefined) return;
    const { values, missing } = capturedValues(template, parseJson(answer.bytes));
    Object.assign(this.values, values);
    for (const field of missing) this.warn(`${template.id}: the answer has no ${field}; the requests that use it send an empty value`);
  }

  private async writeLine(template: RequestTemplate, answer: Answer): Promise<void> {
    const line: TranscriptLine = {
      id: template.id,
      note: template.note,
      request: lineRequest(template, this.values),
      response: lineResponse(answer.status, answer.headers, answer.bytes),
    };
    await this.options.writeLine(this.redact(JSON.stringify(line)));
    this.recorded++;
  }

  /** Sends one request and reads the whole answer, within the request timeout; an interrupt cuts it short unless `abortable` is false. */
  private async exchange(
    identity: Identity,
    method: string,
    path: string,
    headers: Readonly<Record<string, string>>,
    body: string | undefined,
    abortable = true,
  ): Promise<Answer> {
    const request = this.buildRequest(identity, method, path, headers, body);
    const answer = (async () => {
      const response = await identity.transport(request);
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
    })();
    return within(answer, this.options.requestTimeoutMs, abortable ? this.options.signal : undefined);
  }

  private buildRequest(identity: Identity, method: string, path: string, headers: Readonly<Record<string, string>>, body: string | undefined): Request {
    // Throws InterlockError for a write outside the run's namespaces: a bug in the table, never sent.
    const bodyName = body === undefined ? undefined : (parseJson(new TextEncoder().encode(body))?.metadata?.name as string | undefined);
    this.interlock.checkRequest(method, path, typeof bodyName === "string" ? bodyName : undefined);
    const sent = new Headers({ accept: "application/json", ...headers, ...identity.authHeaders });
    if (body !== undefined && !sent.has("content-type")) sent.set("content-type", "application/json");
    return new Request(`${this.options.target.url}${path}`, { method, headers: sent, ...(body !== undefined && { body }) });
  }

  /** Closes open watches unrecorded and deletes the namespace the run created. */
  async cleanUp(): Promise<void> {
    await Promise.all([...this.watches.values()].map((watch) => watch.capture.close()));
    this.watches.clear();
    if (!this.namespaceCreated) return;
    const path = `/api/v1/namespaces/${this.values.namespace}`;
    try {
      const answer = await this.exchange(this.options.target.admin, "DELETE", path, {}, undefined, false);
      // 404: already gone; 409: already being deleted (the recording deletes it itself near the end).
      if ([200, 202, 404, 409].includes(answer.status)) return;
      this.namespaceLeft = true;
      this.warn(`could not delete namespace ${this.values.namespace}: HTTP ${answer.status}; delete it by hand`);
    } catch (error) {
      this.namespaceLeft = true;
      this.warn(`could not delete namespace ${this.values.namespace}: ${(error as Error).message}; delete it by hand`);
    }
  }

  summary(): RecordSummary {
    return {
      namespace: this.values.namespace,
      recorded: this.recorded,
      skipped: this.skipped,
      failed: this.failed,
      interrupted: this.options.signal?.aborted === true,
      namespaceOutcome: !this.namespaceCreated ? "never created" : this.namespaceLeft ? "left behind" : "deleted",
    };
  }

  private warn(message: string): void {
    this.options.warn(this.redact(message));
  }

  private redact(text: string): string {
    return redactSecrets(text, this.options.target.secrets);
  }
}

/** A whole answer. */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

/** Errors that end the run: it cannot go on (RecordError), or the table asked for a write outside the run (a bug). */
function isFatal(error: unknown): boolean {
  return error instanceof RecordError || error instanceof InterlockError;
}

function parseJson(bytes: Uint8Array): any {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
