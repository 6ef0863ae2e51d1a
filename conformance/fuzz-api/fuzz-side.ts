/**
 * One side of a `fuzz --target api` run: a server (the model or the target) and what each client
 * of the program remembers of it: the versions and uids it last saw of each key, the version of
 * its last list, its open watch and the last version that watch delivered. Both sides run the
 * same steps and fill in their own remembered versions, so a step means the same on both.
 *
 * The target's side also records the history (sim/history/api-history.ts) the history checkers
 * read: writes, JSON gets and lists, and watches, with the times of its clock.
 */
import type { FailedAnswer, ListPage, Operation, WatchEvent as HistoryEvent } from "../../sim/history/api-history.ts";
import { deletedObjectState, failedAnswer, objectState, watchEvent } from "../soak/history-objects.ts";
import { readWatchLines } from "../soak/watch-stream-reader.ts";
import { FUZZ_CLIENTS, FUZZ_FINALIZER, FUZZ_KEYS, SELECTED_LABEL, SELECTED_SELECTOR, type ApiStep, type FuzzKey, type ReadVersion, type Representation } from "./api-steps.ts";
import type { FuzzAnswer, FuzzServer } from "./fuzz-server.ts";
import { parsedJson, seenObject, statusReason, type Observation, type SeenEvent, type SeenPage } from "./fuzz-observation.ts";

/** The ConfigMap every namespace of a real cluster gets (kube-controller-manager publishes it); the model's namespaces get one too, so lists compare. */
export const ROOT_CA_CONFIGMAP = "kube-root-ca.crt";

const PROTOBUF = "application/vnd.kubernetes.protobuf";
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
/** An Accept list whose first type no server serves: the server must fall back to the second. */
const FALLBACK = "application/x-orb-unserved, application/json";
const MERGE_PATCH = "application/merge-patch+json";

/** What one client remembers. */
interface ClientMemory {
  readonly seen: Map<FuzzKey, { resourceVersion: string; uid: string }>;
  /** The version of each key seen before the one remembered: a stale precondition. */
  readonly before: Map<FuzzKey, string>;
  listVersion: string | undefined;
  /** The recorded list operation that version came from (undefined for a page read alone, which is not recorded). */
  listOperation: number | undefined;
  watch: OpenWatch | undefined;
  /** The version of the last event of the client's last watch. */
  watchVersion: string | undefined;
  /** The recorded watch operation that version came from. */
  watchOperation: number | undefined;
}

/** A watch a client holds open. */
interface OpenWatch {
  readonly control: AbortController;
  /** Events so far, bookmarks too. */
  readonly events: SeenEvent[];
  /** Every line, bookmarks too, for the history. */
  readonly recorded: HistoryEvent[];
  readonly ended: Promise<"ended" | "stopped" | "broken">;
  readonly record: ((ending: "server-closed" | "client-closed" | "connection-lost" | "run-ended") => void) | undefined;
  /** Opened alone, so the model's watch saw the same start: its events are compared. */
  readonly compared: boolean;
}

/** A failure to run a step at all (no answer): the run fails with it. */
export class NoAnswerError extends Error {}

/** The history being recorded (target side only). */
export interface SideRecorder {
  /** The time of what is recorded now: strictly increasing, so that what was answered before a request was sent shows as before it. */
  now(): number;
  begin(): { readonly id: number; readonly startMs: number };
  record(operation: Operation): void;
}

/** One server and its clients' memories. */
export class FuzzSide {
  // One more than the program's clients: the steady watcher (watchSteadily).
  private readonly clients: ClientMemory[] = Array.from({ length: FUZZ_CLIENTS + 1 }, () => ({ seen: new Map(), before: new Map(), listVersion: undefined, listOperation: undefined, watch: undefined, watchVersion: undefined, watchOperation: undefined }));
  private readonly collection: string;
  /**
   * The list read a page at a time, last begun by any client: its query and the continue token of
   * its next page. Any client may continue it (a token is bound to no client).
   */
  private paging: { readonly query: URLSearchParams; readonly token: string } | undefined;
  /** What the step running now reads may not be what the model reads (see `run`): sent with others, or at Any. */
  private uncertain = false;

  constructor(
    readonly server: FuzzServer,
    readonly namespace: string,
    private readonly recorder: SideRecorder | undefined,
  ) {
    this.collection = `/api/v1/namespaces/${namespace}/configmaps`;
  }

  /** Creates the run's namespace and sees that it holds the root CA ConfigMap (publishing it where no controller does). */
  async setUp(publishRootCa: boolean): Promise<void> {
    const created = await this.json("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: this.namespace } });
    if (created.status !== 201) throw new NoAnswerError(`creating namespace ${this.namespace} was answered ${created.status}: ${new TextDecoder().decode(created.bytes).slice(0, 300)}`);
    if (publishRootCa) {
      const published = await this.json("POST", this.collection, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: ROOT_CA_CONFIGMAP }, data: { "ca.crt": "model" } });
      if (published.status !== 201) throw new NoAnswerError(`publishing ${ROOT_CA_CONFIGMAP} was answered ${published.status}`);
      return;
    }
    for (let tries = 0; tries < 100; tries++) {
      if ((await this.json("GET", `${this.collection}/${ROOT_CA_CONFIGMAP}`)).status === 200) return;
      await this.server.pause(100);
    }
    throw new NoAnswerError(`${ROOT_CA_CONFIGMAP} did not appear in ${this.namespace} within 10 s (is kube-controller-manager running?)`);
  }

  /**
   * Opens a watch of the whole namespace, with bookmarks, held until the end of the run (client
   * `c${FUZZ_CLIENTS}`): it only feeds the history, where it tells the checkers the server's order
   * of every change, as soak's steady watchers do.
   */
  async watchSteadily(): Promise<void> {
    await this.run({ op: "watch", client: FUZZ_CLIENTS, selected: false, start: "now", bookmarks: true }, "", true);
  }

  /** Stops every watch and deletes the namespace (a real server's cleanup; the model is simply dropped). */
  async tearDown(deleteNamespace: boolean): Promise<void> {
    for (const client of this.clients) await this.stopWatch(client, "run-ended");
    if (!deleteNamespace) return;
    // An object still holding the run's finalizer would keep the namespace terminating for ever.
    for (const key of FUZZ_KEYS) {
      await this.exchange("PATCH", `${this.collection}/${key}`, { "content-type": MERGE_PATCH }, JSON.stringify({ metadata: { finalizers: null } })).catch(() => undefined);
    }
    await this.json("DELETE", `/api/v1/namespaces/${this.namespace}`).catch(() => undefined);
  }

  /**
   * Runs one step (not a group): what it saw. `value` is the unique `data.v` a write sets. A step
   * sent `concurrently` with others may see their writes or not: what it reads is left out of the
   * clients' memories (so later steps mean the same on both sides), and a watch it opens is left
   * out of the comparison (the history checkers judge it).
   */
  async run(step: Exclude<ApiStep, { op: "together" }>, value: string, concurrently = false): Promise<Observation> {
    // At Any, or Not older than, a server may answer from a cache behind the latest write (doc 1
    // §4.4, §4.7): such a read is as uncertain as one sent with other steps.
    this.uncertain = concurrently || readsFromCache(step);
    switch (step.op) {
      case "create":
        return this.create(step, value);
      case "update":
        return this.update(step, value);
      case "patch":
        return this.patch(step, value);
      case "delete":
        return this.delete(step);
      case "apply":
        return this.apply(step, value);
      case "release":
        return this.write(step.client, step.key, "patch", "PATCH", `${this.collection}/${step.key}`, { metadata: { finalizers: null }, data: { v: value } }, MERGE_PATCH, { value, labels: {}, precondition: undefined, recorded: true });
      case "get":
        return this.get(step);
      case "list":
        return this.list(step);
      case "first-page":
        return this.firstPage(step);
      case "next-page":
        if (step.waitMs > 0 && this.paging !== undefined) await this.server.pause(step.waitMs);
        return this.nextPage(step.client);
      case "watch":
        return this.watch(step);
      case "stop-watch":
        // Its events so far were compared before it ran (run-api-program.ts).
        await this.stopWatch(this.clients[step.client]!, "client-closed");
        return { kind: "none" };
      case "advance":
        await this.server.pause(step.ms);
        return { kind: "none" };
      case "readyz":
        return this.readyz();
    }
  }

  /** The events a client's open watch has delivered so far (bookmarks left out); undefined without one that is compared. */
  watchEvents(client: number): readonly SeenEvent[] | undefined {
    const watch = this.clients[client]!.watch;
    return watch?.compared === true ? watch.events : undefined;
  }

  /** Clients with a watch open that is compared. */
  comparedWatches(): number[] {
    return this.clients.flatMap((client, index) => (client.watch?.compared === true ? [index] : []));
  }

  private async create(step: Extract<ApiStep, { op: "create" }>, value: string): Promise<Observation> {
    const labels = { [SELECTED_LABEL]: step.selected ? "yes" : "no" };
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: step.key, labels, ...(step.finalizer && { finalizers: [FUZZ_FINALIZER] }) }, data: { v: value } };
    return this.write(step.client, step.key, "create", "POST", `${this.collection}${step.dryRun ? "?dryRun=All" : ""}`, body, "application/json", {
      value,
      labels,
      precondition: undefined,
      recorded: !step.dryRun,
    });
  }

  private async update(step: Extract<ApiStep, { op: "update" }>, value: string): Promise<Observation> {
    const memory = this.clients[step.client]!;
    const precondition = step.precondition === "none" ? undefined : step.precondition === "remembered" ? memory.seen.get(step.key)?.resourceVersion : (memory.before.get(step.key) ?? memory.seen.get(step.key)?.resourceVersion);
    const labels = { [SELECTED_LABEL]: step.selected ? "yes" : "no" };
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: step.key, labels, ...(precondition !== undefined && { resourceVersion: precondition }) }, data: { v: value } };
    return this.write(step.client, step.key, "update", "PUT", `${this.collection}/${step.key}`, body, "application/json", { value, labels, precondition, recorded: true });
  }

  private async patch(step: Extract<ApiStep, { op: "patch" }>, value: string): Promise<Observation> {
    const precondition = step.precondition === "remembered" ? this.clients[step.client]!.seen.get(step.key)?.resourceVersion : undefined;
    const selected = step.selected ? "yes" : "no";
    const path = `${this.collection}/${step.key}`;
    const recording = { value, labels: { [SELECTED_LABEL]: selected }, precondition, recorded: true };
    if (step.patchType === "json") {
      const operations = [
        { op: "add", path: "/data", value: { v: value } },
        { op: "add", path: `/metadata/labels`, value: { [SELECTED_LABEL]: selected } },
        ...(precondition !== undefined ? [{ op: "replace", path: "/metadata/resourceVersion", value: precondition }] : []),
      ];
      return this.write(step.client, step.key, "patch", "PATCH", path, operations, "application/json-patch+json", recording);
    }
    const body = { metadata: { labels: { [SELECTED_LABEL]: selected }, ...(precondition !== undefined && { resourceVersion: precondition }) }, data: { v: value } };
    return this.write(step.client, step.key, "patch", "PATCH", path, body, step.patchType === "merge" ? MERGE_PATCH : "application/strategic-merge-patch+json", recording);
  }

  /** A server-side apply: labels and data.v, owned by the client's own manager; a conflict with the other client's is a 409 unless forced. */
  private async apply(step: Extract<ApiStep, { op: "apply" }>, value: string): Promise<Observation> {
    const labels = { [SELECTED_LABEL]: step.selected ? "yes" : "no" };
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: step.key, labels }, data: { v: value } };
    const path = `${this.collection}/${step.key}?fieldManager=fuzz-c${step.client}${step.force ? "&force=true" : ""}`;
    return this.write(step.client, step.key, "apply", "PATCH", path, body, "application/apply-patch+yaml", { value, labels, precondition: undefined, recorded: true });
  }

  private async delete(step: Extract<ApiStep, { op: "delete" }>): Promise<Observation> {
    const seen = this.clients[step.client]!.seen.get(step.key);
    const preconditions =
      step.precondition === "remembered" && seen !== undefined ? { resourceVersion: seen.resourceVersion } : step.precondition === "uid" && seen !== undefined ? { uid: seen.uid } : undefined;
    // Beside a body, Kubernetes reads no DeleteOptions from the query (recorded in
    // spec/reference/kube-apiserver-1.26/transcripts-delete-options.jsonl): dryRun goes where the options go.
    const body = preconditions === undefined ? undefined : { apiVersion: "v1", kind: "DeleteOptions", preconditions, ...(step.dryRun && { dryRun: ["All"] }) };
    const path = `${this.collection}/${step.key}${step.dryRun && body === undefined ? "?dryRun=All" : ""}`;
    return this.write(step.client, step.key, "delete", "DELETE", path, body, "application/json", {
      value: undefined,
      labels: undefined,
      precondition: preconditions?.resourceVersion,
      // A uid precondition is not a version one: the checkers' precondition rule would misread it.
      recorded: !step.dryRun && preconditions?.uid === undefined,
    });
  }

  /** Sends a write, remembers what it answered, and records it. */
  private async write(
    client: number,
    key: FuzzKey,
    verb: "create" | "update" | "patch" | "delete" | "apply",
    method: string,
    path: string,
    body: unknown,
    contentType: string,
    recording: { value: string | undefined; labels: Record<string, string | null> | undefined; precondition: string | undefined; recorded: boolean },
  ): Promise<Observation> {
    const begun = this.recorder?.begin();
    const answer = await this.exchange(method, path, body === undefined ? {} : { "content-type": contentType }, body === undefined ? undefined : JSON.stringify(body));
    const parsed = parsedJson(answer.bytes);
    const ok = answer.status >= 200 && answer.status < 300;
    const object = ok ? seenObject(parsed) : undefined;
    if (object !== undefined && object.resourceVersion !== "") this.remember(client, key, object.resourceVersion, object.uid);
    if (begun !== undefined && recording.recorded) {
      this.recorder!.record({
        kind: "write",
        id: begun.id,
        client: `c${client}`,
        startMs: begun.startMs,
        endMs: this.recordedNow(),
        // An apply is a create when it made the object (201), else a patch: it merges what it names.
        verb: verb === "apply" ? (answer.status === 201 ? "create" : "patch") : verb,
        name: key,
        precondition: recording.precondition,
        value: recording.value,
        labels: recording.labels,
        answer: ok ? { type: "ok", code: answer.status, object: verb === "delete" ? deletedObjectState(parsed) : objectState(parsed) } : failedAnswer(answer.status, parsed),
      });
    }
    const statusKind = (parsed as { kind?: unknown } | undefined)?.kind;
    return { kind: "answer", code: answer.status, reason: ok ? "" : statusReason(parsed), object, statusKind: typeof statusKind === "string" ? statusKind : undefined };
  }

  private async get(step: Extract<ApiStep, { op: "get" }>): Promise<Observation> {
    const path = `${this.collection}/${step.key}${step.version === "any" ? "?resourceVersion=0" : ""}`;
    if (step.representation !== "json") return this.representation(path, step.representation);
    const begun = this.recorder?.begin();
    const answer = await this.exchange("GET", path, { accept: "application/json" });
    const parsed = parsedJson(answer.bytes);
    const object = answer.status === 200 ? seenObject(parsed) : undefined;
    if (object !== undefined && !this.uncertain) this.remember(step.client, step.key, object.resourceVersion, object.uid);
    if (begun !== undefined) {
      this.recorder!.record({
        kind: "get",
        id: begun.id,
        client: `c${step.client}`,
        startMs: begun.startMs,
        endMs: this.recordedNow(),
        name: step.key,
        resourceVersion: step.version === "any" ? "0" : undefined,
        answer: answer.status === 200 ? { type: "ok", object: objectState(parsed) } : failedAnswer(answer.status, parsed),
      });
    }
    return { kind: "answer", code: answer.status, reason: answer.status === 200 ? "" : statusReason(parsed), object, statusKind: undefined };
  }

  private async list(step: Extract<ApiStep, { op: "list" }>): Promise<Observation> {
    const concurrently = this.uncertain;
    const { query, resourceVersion, match } = this.listQuery(step.client, step.selected, step.limit, step.version);
    if (step.representation !== "json") {
      // The representation is what is checked here, not paging (a cache may ignore the limit).
      query.delete("limit");
      return this.representation(`${this.collection}?${query}`, step.representation);
    }
    const begun = this.recorder?.begin();
    const pages: SeenPage[] = [];
    const recordedPages: ListPage[] = [];
    let token: string | undefined;
    do {
      if (token !== undefined && step.pausePagesMs > 0) await this.server.pause(step.pausePagesMs);
      const read = await this.readPage(query, token);
      pages.push(read.page);
      recordedPages.push(read.recorded);
      if (!concurrently) this.rememberPage(step.client, read, token === undefined, begun?.id);
      token = read.next;
    } while (token !== undefined);
    if (begun !== undefined) {
      this.recorder!.record({
        kind: "list",
        id: begun.id,
        client: `c${step.client}`,
        startMs: begun.startMs,
        endMs: this.recordedNow(),
        labelSelector: step.selected ? SELECTED_SELECTOR : undefined,
        resourceVersion,
        resourceVersionMatch: match,
        limit: step.limit,
        pages: recordedPages,
      });
    }
    return { kind: "list", pages };
  }

  /** The first page of a list read a page at a time (never recorded: the history's lists are whole). */
  private async firstPage(step: Extract<ApiStep, { op: "first-page" }>): Promise<Observation> {
    const { query } = this.listQuery(step.client, step.selected, step.limit, step.version);
    const read = await this.readPage(query, undefined);
    this.rememberPage(step.client, read, true, undefined);
    this.paging = read.next === undefined ? undefined : { query, token: read.next };
    return { kind: "list", pages: [read.page] };
  }

  /** The next page of the list last read a page at a time; nothing when there is none. */
  private async nextPage(client: number): Promise<Observation> {
    const paging = this.paging;
    if (paging === undefined) return { kind: "none" };
    const read = await this.readPage(paging.query, paging.token);
    this.rememberPage(client, read, false, undefined);
    this.paging = read.next === undefined ? undefined : { query: paging.query, token: read.next };
    return { kind: "list", pages: [read.page] };
  }

  private listQuery(client: number, selected: boolean, limit: number | undefined, version: ReadVersion) {
    const memory = this.clients[client]!;
    const query = new URLSearchParams();
    if (selected) query.set("labelSelector", SELECTED_SELECTOR);
    if (limit !== undefined) query.set("limit", String(limit));
    let resourceVersion: string | undefined;
    let match: "Exact" | "NotOlderThan" | undefined;
    if (version === "any") resourceVersion = "0";
    else if (version !== "most-recent" && memory.listVersion !== undefined) {
      resourceVersion = memory.listVersion;
      match = version === "exact-remembered" ? "Exact" : "NotOlderThan";
    }
    if (resourceVersion !== undefined) query.set("resourceVersion", resourceVersion);
    if (match !== undefined) query.set("resourceVersionMatch", match);
    return { query, resourceVersion, match };
  }

  /** The list a watch starts from when its client has none: recorded, and left out of the client's memory. */
  private async listForWatch(client: number, selected: boolean): Promise<{ version: string | undefined; operation: number | undefined }> {
    const { query } = this.listQuery(client, selected, undefined, "most-recent");
    const begun = this.recorder?.begin();
    const read = await this.readPage(query, undefined);
    if (begun !== undefined) {
      this.recorder!.record({
        kind: "list",
        id: begun.id,
        client: `c${client}`,
        startMs: begun.startMs,
        endMs: this.recordedNow(),
        labelSelector: selected ? SELECTED_SELECTOR : undefined,
        resourceVersion: undefined,
        resourceVersionMatch: undefined,
        limit: undefined,
        pages: [read.recorded],
      });
    }
    return { version: read.version, operation: begun?.id };
  }

  /** Reads one page: `token` undefined for the first. */
  private async readPage(query: URLSearchParams, token: string | undefined): Promise<{ page: SeenPage; recorded: ListPage; next: string | undefined; version: string | undefined }> {
    const pageQuery = new URLSearchParams(query);
    if (token !== undefined) {
      // A continued page names neither a version nor a match: the token carries them (doc 1 §4.5).
      pageQuery.delete("resourceVersion");
      pageQuery.delete("resourceVersionMatch");
      pageQuery.set("continue", token);
    }
    const startMs = this.recordedNow();
    const answer = await this.exchange("GET", `${this.collection}?${pageQuery}`, { accept: "application/json" });
    const parsed = parsedJson(answer.bytes) as { metadata?: { resourceVersion?: unknown; continue?: unknown; remainingItemCount?: unknown }; items?: unknown[] } | undefined;
    const ok = answer.status === 200;
    const items = ok && Array.isArray(parsed?.items) ? parsed.items : [];
    const next = ok && typeof parsed?.metadata?.continue === "string" && parsed.metadata.continue !== "" ? parsed.metadata.continue : undefined;
    const remaining = typeof parsed?.metadata?.remainingItemCount === "number" ? parsed.metadata.remainingItemCount : undefined;
    const version = ok && typeof parsed?.metadata?.resourceVersion === "string" ? parsed.metadata.resourceVersion : undefined;
    return {
      page: { code: answer.status, reason: ok ? "" : statusReason(parsed), items: items.map(seenObject).filter((item) => item !== undefined), more: next !== undefined, remainingItemCount: remaining },
      recorded: {
        startMs,
        endMs: this.recordedNow(),
        continueSent: token,
        answer: ok ? { type: "ok", resourceVersion: version ?? "", items: items.map(objectState), continue: next, remainingItemCount: remaining } : failedAnswer(answer.status, parsed),
      },
      next,
      version,
    };
  }

  /** Remembers a page's objects, and a first page's version as the client's list version. */
  private rememberPage(client: number, read: { page: SeenPage; version: string | undefined }, first: boolean, operation: number | undefined): void {
    if (first && read.version !== undefined) {
      this.clients[client]!.listVersion = read.version;
      this.clients[client]!.listOperation = operation;
    }
    for (const item of read.page.items) if (isFuzzKey(item.name)) this.remember(client, item.name, item.resourceVersion, item.uid);
  }

  private async representation(path: string, representation: Exclude<Representation, "json">): Promise<Observation> {
    const accept = representation === "protobuf" ? PROTOBUF : representation === "table" ? TABLE : FALLBACK;
    const answer = await this.exchange("GET", path, { accept });
    const mediaType = answer.contentType.split(";")[0]!.trim().toLowerCase();
    const ok = answer.status === 200;
    const parsed = mediaType === "application/json" ? parsedJson(answer.bytes) : undefined;
    return { kind: "representation", code: answer.status, reason: ok ? "" : statusReason(parsed), mediaType, body: ok ? bodyIdentity(mediaType, answer.bytes, parsed) : "" };
  }

  private async watch(step: Extract<ApiStep, { op: "watch" }>): Promise<Observation> {
    const memory = this.clients[step.client]!;
    const compared = !this.uncertain;
    await this.stopWatch(memory, "client-closed");
    const query = new URLSearchParams({ watch: "1" });
    if (step.selected) query.set("labelSelector", SELECTED_SELECTOR);
    if (step.bookmarks) query.set("allowWatchBookmarks", "true");
    // A client with no list to resume from lists first, as an informer starts (a reflector's list, then watch).
    const listed = step.start === "remembered-list" && memory.listVersion === undefined ? await this.listForWatch(step.client, step.selected) : undefined;
    const resumed = step.start === "remembered-list" ? (listed?.version ?? memory.listVersion) : step.start === "remembered-watch" ? memory.watchVersion : undefined;
    // The checkers place a version foreign to the namespace by the list or watch it came from.
    const from = step.start === "remembered-list" ? (listed !== undefined ? listed.operation : memory.listOperation) : step.start === "remembered-watch" ? memory.watchOperation : undefined;
    const resumes = resumed === undefined || from === undefined ? undefined : { kind: step.start === "remembered-list" ? ("list" as const) : ("watch" as const), operation: from };
    const resourceVersion = step.start === "any" ? "0" : resumed;
    if (resourceVersion !== undefined) query.set("resourceVersion", resourceVersion);
    const begun = this.recorder?.begin();
    const control = new AbortController();
    let response: Response;
    try {
      response = await this.server.openStream(`${this.collection}?${query}`, { accept: "application/json" }, control.signal);
    } catch (error) {
      throw new NoAnswerError(`watch ${query}: no answer (${(error as Error).message})`);
    }
    const historyBase = {
      kind: "watch" as const,
      id: begun?.id ?? 0,
      client: `c${step.client}`,
      startMs: begun?.startMs ?? 0,
      labelSelector: step.selected ? SELECTED_SELECTOR : undefined,
      resourceVersion,
      allowWatchBookmarks: step.bookmarks,
      resumes,
    };
    if (response.status !== 200 || response.body === null) {
      const parsed = parsedJson(new Uint8Array(await response.arrayBuffer()));
      if (begun !== undefined) this.recorder!.record({ ...historyBase, endMs: this.recordedNow(), opened: failedAnswer(response.status, parsed) as FailedAnswer, events: [], ending: "server-closed" });
      return { kind: "watch-opened", code: response.status, reason: statusReason(parsed) };
    }
    const events: SeenEvent[] = [];
    const recorded: HistoryEvent[] = [];
    const ended = readWatchLines(
      response.body,
      (line) => {
        const parsed = parsedJson(new TextEncoder().encode(line));
        const event = watchEvent(parsed, this.recordedNow());
        if (event !== undefined) recorded.push(event);
        const type = (parsed as { type?: unknown } | undefined)?.type;
        if (typeof type !== "string") return;
        const object = (parsed as { object?: unknown }).object;
        if (type === "BOOKMARK") {
          if (event?.bookmarkVersion !== undefined) events.push({ type, bookmarkVersion: event.bookmarkVersion, object: undefined, code: undefined });
          return;
        }
        const seen = type === "ERROR" ? undefined : seenObject(object);
        if (compared && seen !== undefined && seen.resourceVersion !== "") {
          memory.watchVersion = seen.resourceVersion;
          memory.watchOperation = begun?.id;
        }
        events.push({ type, object: seen, code: type === "ERROR" ? Number((object as { code?: unknown } | undefined)?.code ?? 0) : undefined });
      },
      control.signal,
    );
    const record =
      begun === undefined
        ? undefined
        : (ending: "server-closed" | "client-closed" | "connection-lost" | "run-ended") =>
            this.recorder!.record({ ...historyBase, endMs: this.recordedNow(), opened: { type: "ok" }, events: [...recorded], ending });
    // Two watches of one client sent at once both found no watch to replace: the one opened last
    // replaces the other here, which must still be closed (on a real server it stayed open, and
    // kept the campaign's process from exiting).
    const replaced = memory.watch;
    memory.watch = { control, events, recorded, ended, record, compared };
    if (replaced !== undefined) await this.closeWatch(replaced, "client-closed");
    return { kind: "watch-opened", code: 200, reason: "" };
  }

  private async stopWatch(memory: ClientMemory, ending: "client-closed" | "run-ended"): Promise<void> {
    const watch = memory.watch;
    if (watch === undefined) return;
    memory.watch = undefined;
    await this.closeWatch(watch, ending);
  }

  private async closeWatch(watch: OpenWatch, ending: "client-closed" | "run-ended"): Promise<void> {
    await this.server.flush();
    const endedBefore = await Promise.race([watch.ended, Promise.resolve("open" as const)]);
    watch.control.abort();
    await watch.ended;
    watch.record?.(endedBefore === "ended" ? "server-closed" : endedBefore === "broken" ? "connection-lost" : ending);
  }

  private async readyz(): Promise<Observation> {
    const answer = await this.exchange("GET", "/readyz?verbose", {});
    const lines = new TextDecoder().decode(answer.bytes).trim().split("\n");
    return { kind: "readyz", code: answer.status, lastLine: lines.at(-1) ?? "" };
  }

  private recordedNow(): number {
    return this.recorder?.now() ?? this.server.nowMs();
  }

  private remember(client: number, key: FuzzKey, resourceVersion: string, uid: string): void {
    const memory = this.clients[client]!;
    const previous = memory.seen.get(key);
    if (previous?.resourceVersion === resourceVersion) return;
    if (previous !== undefined) memory.before.set(key, previous.resourceVersion);
    memory.seen.set(key, { resourceVersion, uid });
  }

  private json(method: string, path: string, body?: unknown): Promise<FuzzAnswer> {
    return this.exchange(method, path, body === undefined ? {} : { "content-type": "application/json" }, body === undefined ? undefined : JSON.stringify(body));
  }

  private async exchange(method: string, path: string, headers: Record<string, string>, body?: string): Promise<FuzzAnswer> {
    try {
      return await this.server.exchange(method, path, headers, body);
    } catch (error) {
      throw new NoAnswerError(`${method} ${path}: no answer (${(error as Error).message})`);
    }
  }
}

/**
 * A read a server may serve from a cache: at Any or Not older than (doc 1 §4.4), or a watch at Any
 * (§4.7). A first page has a limit, which kube-apiserver 1.26 reads from etcd unless at Any, which
 * first pages never ask for.
 */
export function readsFromCache(step: ApiStep): boolean {
  if (step.op === "get") return step.version === "any";
  if (step.op === "list") return step.version === "any" || step.version === "not-older-than-remembered";
  return step.op === "watch" && step.start === "any";
}

function isFuzzKey(name: string): name is FuzzKey {
  return /^k\d$/.test(name);
}

/** What identifies a body of another representation: Protobuf's 4-byte prefix, a Table's columns and rows, a JSON object's or list's names. */
function bodyIdentity(mediaType: string, bytes: Uint8Array, parsed: unknown): string {
  if (mediaType === PROTOBUF) return `prefix ${Buffer.from(bytes.subarray(0, 4)).toString("hex")}`;
  const body = parsed as { kind?: unknown; apiVersion?: unknown; columnDefinitions?: { name?: unknown }[]; rows?: { cells?: unknown[] }[]; items?: { metadata?: { name?: unknown } }[]; metadata?: { name?: unknown } } | undefined;
  if (body?.kind === "Table") {
    const columns = (body.columnDefinitions ?? []).map((column) => String(column.name));
    // Sorted: a list served from a cache keeps no key order (see list()).
    const rows = (body.rows ?? []).map((row) => String(row.cells?.[0])).sort();
    return `${String(body.apiVersion)} Table columns [${columns.join(", ")}] rows [${rows.join(", ")}]`;
  }
  if (Array.isArray(body?.items)) return `${String(body.kind)} [${body.items.map((item) => String(item.metadata?.name)).sort().join(", ")}]`;
  return `${String(body?.kind)} ${String(body?.metadata?.name)}`;
}
