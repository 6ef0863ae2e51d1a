/**
 * Planted defects (issue #5, "proof of teeth"): semantic bugs the embedded server can be told to
 * have, one rule of doc 1 broken each, so a test can show the conformance suite notices every one
 * (conformance/defects.test.ts) and a person can watch it happen (`orb-harness serve --defect NAME`).
 *
 * Off unless asked for: `ApiServerOptions.defects` defaults to none, and only `serve --defect`
 * and the defects test pass any. Each defect is planted at the one place its bug belongs, a few
 * lines marked `// Planted defect "<name>" (sim/apiserver/defects/defects.ts)`; grep for that to find them.
 *
 * Not in the catalog: a Table without the Created At column (doc 1 §2.5's default Table). The
 * embedded server serves no type without a Table of its own (Kubernetes 1.26 prints its own
 * columns for every type it serves; only CustomResourceDefinitions get the default Table on a
 * real server), so no request to it could show that bug, and a defect no case can catch proves
 * nothing. It can be planted once the server serves a type printed with the default Table.
 *
 * Two kinds (`caughtBy`). Most defects break a rule one client can see on its own, in sequence:
 * the conformance suite must catch each (conformance/defects.test.ts). The concurrency defects
 * (issue #15) break a rule only when requests overlap: two writes committing at one instant, a
 * list while writes are in flight, a write arriving while another waits for storage, a write
 * landing while a watch resumes or a page is answered. A sequential client cannot make that happen,
 * so the suite cannot see them (sim/apiserver/defects/concurrency-defects.test.ts shows both: the bug under
 * concurrent requests, none with the same requests in sequence); `orb-harness soak` must find each
 * one from its recorded history, through the history invariant named by `historyRule`.
 *
 * The embedded server commits a write synchronously once its body is read, so without help no two
 * writes are ever in flight inside it together. Three concurrency defects therefore also give
 * writes a storage round trip (write-pipeline.ts), as a server in front of etcd has; the other two
 * wait inside the request whose window they need. Without a concurrency defect none of it exists.
 */
import type { ClauseId } from "../../../spec/doc1/clauses.ts";
import type { HistoryInvariantId } from "../../../spec/invariants-history.ts";

/** One planted defect: its name, what goes wrong, and the clauses of doc 1 it breaks. */
export interface Defect {
  /** kebab-case, as `serve --defect` takes it. */
  readonly name: string;
  /** What the server does wrong, in one sentence. */
  readonly description: string;
  /** The rules of doc 1 the defect breaks (a failing case must name one of them, or a parent or child of one). */
  readonly clauses: readonly ClauseId[];
  /**
   * What shows the defect: the conformance suite's sequential cases, or only a concurrent
   * workload's history (`orb-harness soak` and its checkers).
   */
  readonly caughtBy: "suite" | "soak";
  /**
   * For a soak defect: the history invariant (spec/invariants-history.ts) that a soak's history
   * against it violates, whatever else it also violates.
   */
  readonly historyRule?: HistoryInvariantId;
  /**
   * Why `fuzz --target api` cannot find it, where it cannot: its operations and model cover the
   * built-in types, not the custom types a CustomResourceDefinition makes.
   */
  readonly beyondApiFuzz?: string;
}

/** Every defect the server can plant, in the order `serve --defect help` lists them. */
export const defects = [
  {
    name: "paging-skips-after-write",
    description: "a continued list drops the first item of its page when a write landed since the first chunk",
    clauses: ["doc1/4.6/paging/snapshot", "doc1/4.7/semantic/continue-token-exact", "doc1/4.6/paging/follow-continue"],
    caughtBy: "suite",
  },
  {
    name: "continue-tokens-never-expire",
    description: "a continue token whose version was compacted still serves the rest of the list (at the latest state) instead of 410",
    clauses: ["doc1/8/continue-token-lifetime", "doc1/7/410/continue-expired"],
    caughtBy: "suite",
  },
  {
    name: "remaining-item-count-off-by-one",
    description: "metadata.remainingItemCount counts one item more than the list has left",
    clauses: ["doc1/2.3/remaining-item-count/later-items"],
    caughtBy: "suite",
  },
  {
    name: "resumed-watch-drops-first-event",
    description: "a watch started from a resourceVersion (Start at Exact) never sends the first change after it",
    clauses: ["doc1/4.7/watch/start-at-exact/changes-after", "doc1/4.6/watch/restart", "doc1/4.6/watch/list-then-watch"],
    caughtBy: "suite",
  },
  {
    name: "bookmarks-go-backwards",
    description: "a BOOKMARK carries a resourceVersion older than the last event the watch already sent",
    clauses: ["doc1/6/bookmark/meaning"],
    caughtBy: "suite",
  },
  {
    name: "deleted-events-missing",
    description: "watches never send DELETED events",
    clauses: ["doc1/6/itemize", "doc1/6/event-names/not-shown"],
    caughtBy: "suite",
  },
  {
    name: "exact-list-from-latest",
    description: "a list with resourceVersionMatch=Exact is served from the latest state, not at the version asked for",
    clauses: ["doc1/4.7/semantic/exact", "doc1/4.7/semantic/exact/list", "doc1/4.7/list/exact/limit-unset/rv-other", "doc1/4.7/list/exact/limit-no-continue/rv-other"],
    caughtBy: "suite",
  },
  {
    name: "dry-run-persists",
    description: "a dry-run create stores the object",
    clauses: ["doc1/4.4/no-side-effects"],
    caughtBy: "suite",
  },
  {
    name: "finalizers-ignored-on-delete",
    description: "deleting an object with finalizers removes it at once instead of setting deletionTimestamp and keeping it",
    clauses: ["doc1/3/first-delete", "doc1/3/two-phases", "doc1/3/finalizers/entries-remain", "doc1/2.2/deletion-timestamp/first-delete"],
    caughtBy: "suite",
  },
  {
    name: "protobuf-wrong-prefix",
    description: "objects and lists in Protobuf start with 0x6b 0x38 0x73 0x01 instead of the prefix 0x6b 0x38 0x73 0x00",
    clauses: ["doc1/2.6/protobuf/prefix"],
    caughtBy: "suite",
  },
  {
    name: "readyz-verbose-without-last-line",
    description: "/readyz?verbose lists its checks but leaves out the closing 'check passed' line",
    clauses: ["doc1/4.5/verbose/last-line"],
    caughtBy: "suite",
  },
  {
    name: "gone-answered-as-500",
    description: "every 410 Gone answer (expired continue token, compacted resourceVersion) goes out as a 500 InternalError",
    clauses: ["doc1/7/410/continue-expired", "doc1/7/410/watch-too-old", "doc1/7/410/exact-unavailable", "doc1/7/410/outside-retained"],
    caughtBy: "suite",
  },
  {
    name: "stale-update-accepted",
    description: "an update (PUT, or a PATCH that sets metadata.resourceVersion) carrying a resourceVersion that is no longer current is applied instead of answered 409 Conflict",
    clauses: ["doc1/2.2/resource-version/last-modified"],
    caughtBy: "suite",
  },
  {
    name: "table-wrong-api-version",
    description: "a Table asked for with v=v1 comes back as apiVersion <meta-group>/v1beta1",
    clauses: ["doc1/2.5/api-version", "doc1/9/table-version"],
    caughtBy: "suite",
  },
  {
    name: "accept-list-first-only",
    description: "only the first media type of an Accept list is considered, so a fallback after an unserved type is 406",
    clauses: ["doc1/4.3/accept/fallback"],
    caughtBy: "suite",
  },
  {
    name: "content-type-always-json",
    description: "answers with an object or a list say Content-Type application/json whatever they are, Protobuf too",
    clauses: ["doc1/4.3/content-type/response"],
    caughtBy: "suite",
  },
  {
    name: "no-synthetic-added",
    description: "a watch without a resourceVersion (Get State) sends no ADDED events for the objects that already exist",
    clauses: ["doc1/4.7/watch/get-state/synthetic-added", "doc1/6/added/synthetic", "doc1/4.7/watch/rv-unset"],
    caughtBy: "suite",
  },
  {
    name: "apply-ignores-conflicts",
    description: "a server-side apply that changes fields another manager owns succeeds and takes them, as if forced, instead of 409",
    clauses: ["doc1/1/verbs/apply/conflict"],
    caughtBy: "suite",
  },
  {
    name: "custom-resource-schema-ignored",
    description: "custom resources are written without their definition's schema: a wrong type or a missing required field is stored, nothing is pruned or defaulted",
    clauses: ["k8s/crd/schema-validated", "k8s/crd/defaults", "k8s/crd/pruning"],
    caughtBy: "suite",
    beyondApiFuzz: "the API fuzzer writes built-in types only, never a CustomResourceDefinition",
  },
  {
    name: "managed-fields-not-updated",
    description: "a create, update or non-apply patch leaves metadata.managedFields as they were: the writer gets no Update entry and takes no field",
    clauses: ["doc1/1/verbs/apply/update-operation"],
    caughtBy: "suite",
  },
  // Concurrency defects: only overlapping requests show them (see the header).
  {
    name: "watch-drops-simultaneous-write",
    description: "writes commit together at 1 ms storage ticks, and no watcher gets the event of a write committed at the same instant as the write before it",
    clauses: ["doc1/6/itemize", "doc1/6/added/create", "doc1/6/modified/update", "doc1/4.7/watch/get-state/synthetic-added", "doc1/4.7/watch/start-at-exact/changes-after"],
    caughtBy: "soak",
    // Every live watcher misses the write, so the steady watchers' streams lose it (watch/no-gap
    // also fails once a resumed watch replays the dropped change from the history).
    historyRule: "history/acknowledged-write-durable",
  },
  {
    name: "most-recent-list-lags",
    description: "while a write is in flight (writes wait 1 ms for storage), a Most Recent list is served from a cache one write behind, missing the latest write even once it was answered",
    clauses: ["doc1/4.7/semantic/most-recent", "doc1/4.7/list/match-unset/limit-unset/rv-unset", "doc1/4.7/list/match-unset/limit-no-continue/rv-unset"],
    caughtBy: "soak",
    historyRule: "history/read-freshness",
  },
  {
    name: "versions-assigned-before-commit",
    description: "a write takes its resourceVersion when it arrives and commits after a storage delay of 0 to 4 ms, so a later write with a greater version can become visible first",
    clauses: ["doc1/4.7/watch/start-at-exact/changes-after", "doc1/4.6/watch/restart", "doc1/4.6/watch/list-then-watch", "doc1/4.7/semantic/exact"],
    caughtBy: "soak",
    // Only concurrent writes swap, so history/write-order holds; but a list whose version is the
    // later-numbered write's shows the other write, which watches deliver after it (and resumes
    // from such versions repeat or skip changes: watch/no-gap; same-key swaps: read-freshness).
    historyRule: "history/read-state",
  },
  {
    name: "resumed-watch-skips-concurrent-writes",
    description: "a watch from a resourceVersion reads the history after it at once but joins the live changes 20 ms later, so writes committed in between are never sent",
    clauses: ["doc1/4.7/watch/start-at-exact/changes-after", "doc1/4.6/watch/restart", "doc1/4.6/watch/list-then-watch"],
    caughtBy: "soak",
    historyRule: "watch/no-gap",
  },
  {
    name: "paged-list-mixes-snapshots",
    description: "a first page's continue token is made 2 ms after the page was read, from the state then, so a write landing meanwhile puts the later pages in another snapshot",
    clauses: ["doc1/4.6/paging/constant-resource-version", "doc1/4.6/paging/snapshot", "doc1/4.7/semantic/continue-token-exact"],
    caughtBy: "soak",
    historyRule: "store/paging-consistent",
  },
] as const satisfies readonly Defect[];

/** The name of a defect the catalog has. */
export type DefectName = (typeof defects)[number]["name"];

/** One entry of the catalog, its name typed as a DefectName. */
export type CatalogDefect = Defect & { readonly name: DefectName };

/** The defects the conformance suite must catch (conformance/defects.test.ts). */
export const suiteDefects: readonly CatalogDefect[] = defects.filter((defect) => defect.caughtBy === "suite");

/** The concurrency defects: only a concurrent workload's history shows them (`orb-harness soak`). */
export const soakDefects: readonly CatalogDefect[] = defects.filter((defect) => defect.caughtBy === "soak");

/** No defects: what every server has unless told otherwise. */
export const NO_DEFECTS: ReadonlySet<DefectName> = new Set<DefectName>();

const byName = new Map<string, Defect>(defects.map((defect) => [defect.name, defect]));

/** Whether `name` is a defect of the catalog. */
export function isDefectName(name: string): name is DefectName {
  return byName.has(name);
}

/** The defect called `name`; throws on a name the catalog does not have. */
export function defectByName(name: string): Defect {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`unknown defect "${name}" (not in sim/apiserver/defects/defects.ts)`);
  return found;
}
