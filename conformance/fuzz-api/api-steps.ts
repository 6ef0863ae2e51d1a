/**
 * The operations `fuzz --target api` generates (issue 16), as plain data: a program is a list of
 * steps, printed, shrunk and replayed as it is. A step never names a resourceVersion or a continue
 * token: it says which one to use ("the version this client last saw of the key", "the version of
 * its last list"), and each server, the target and the model, fills in its own. So a shrunk
 * program still means the same thing on both sides, and versions stay opaque (doc 1 §2.2).
 *
 * Objects are ConfigMaps named by a small set of keys, so that writes collide; every write that
 * sets data sets `data.v` to a value no other write of the run sets (the history's convention,
 * sim/history/api-history.ts), which names the write behind every object seen.
 */

/** The keys the writes pick from: few, so that they collide (conflicts, recreations). */
export const FUZZ_KEYS = ["k0", "k1", "k2"] as const;
export type FuzzKey = (typeof FUZZ_KEYS)[number];

/** The label that selected lists and watches filter on, and the finalizer a create may add. */
export const SELECTED_LABEL = "fuzz/selected";
export const SELECTED_SELECTOR = `${SELECTED_LABEL}=yes`;
export const FUZZ_FINALIZER = "orb-harness.io/fuzz";

/**
 * The clients of a program: each remembers what it saw, as informers and controllers do. Two, so
 * that a client's later step often has something of its own to resume from or condition on.
 */
export const FUZZ_CLIENTS = 2;

/** Which resourceVersion a conditional write carries. */
export type WritePrecondition = "none" | "remembered" | "stale";
/** How a read asks for its version (doc 1 §4.4). */
export type ReadVersion = "most-recent" | "any" | "exact-remembered" | "not-older-than-remembered";
/** How a watch starts (doc 1 §4.7). */
export type WatchStart = "now" | "any" | "remembered-list" | "remembered-watch";
/** The representation a read asks for (doc 1 §7): JSON, Protobuf, a Table, or an Accept list whose first type is not served. */
export type Representation = "json" | "protobuf" | "table" | "fallback";

export type ApiStep =
  | { readonly op: "create"; readonly client: number; readonly key: FuzzKey; readonly selected: boolean; readonly finalizer: boolean; readonly dryRun: boolean }
  | { readonly op: "update"; readonly client: number; readonly key: FuzzKey; readonly selected: boolean; readonly precondition: WritePrecondition }
  | { readonly op: "patch"; readonly client: number; readonly key: FuzzKey; readonly patchType: "merge" | "strategic" | "json"; readonly selected: boolean; readonly precondition: "none" | "remembered" }
  | { readonly op: "delete"; readonly client: number; readonly key: FuzzKey; readonly precondition: "none" | "remembered" | "uid"; readonly dryRun: boolean }
  /** A server-side apply of the key's labels and data as the client's own field manager (`fuzz-c<client>`). */
  | { readonly op: "apply"; readonly client: number; readonly key: FuzzKey; readonly selected: boolean; readonly force: boolean }
  | { readonly op: "release"; readonly client: number; readonly key: FuzzKey }
  | { readonly op: "get"; readonly client: number; readonly key: FuzzKey; readonly version: "most-recent" | "any"; readonly representation: Representation }
  | { readonly op: "list"; readonly client: number; readonly selected: boolean; readonly limit: number | undefined; readonly version: ReadVersion; readonly representation: Representation; readonly pausePagesMs: number }
  | { readonly op: "first-page"; readonly client: number; readonly selected: boolean; readonly limit: number; readonly version: ReadVersion }
  | { readonly op: "next-page"; readonly client: number; readonly waitMs: number }
  | { readonly op: "watch"; readonly client: number; readonly selected: boolean; readonly start: WatchStart; readonly bookmarks: boolean }
  | { readonly op: "stop-watch"; readonly client: number }
  | { readonly op: "advance"; readonly ms: number }
  | { readonly op: "readyz" }
  | {
      readonly op: "together";
      readonly steps: readonly ApiStep[];
      /** When each member is sent, in ms after the first (0: at once): a write may land while another member is under way. */
      readonly lagsMs: readonly number[];
    };

/** A step in one line, as the shrunk program prints it. */
export function describeStep(step: ApiStep): string {
  switch (step.op) {
    case "create":
      return `c${step.client} create ${step.key}${flags(step.selected && "selected", step.finalizer && "finalizer", step.dryRun && "dryRun=All")}`;
    case "update":
      return `c${step.client} update ${step.key}${flags(step.selected && "selected", step.precondition !== "none" && `resourceVersion=${step.precondition}`)}`;
    case "patch":
      return `c${step.client} patch ${step.key} (${step.patchType})${flags(step.selected && "selected", step.precondition !== "none" && `resourceVersion=${step.precondition}`)}`;
    case "delete":
      return `c${step.client} delete ${step.key}${flags(step.precondition !== "none" && `precondition ${step.precondition}`, step.dryRun && "dryRun=All")}`;
    case "apply":
      return `c${step.client} apply ${step.key} (fieldManager fuzz-c${step.client})${flags(step.selected && "selected", step.force && "force")}`;
    case "release":
      return `c${step.client} remove the finalizer of ${step.key}`;
    case "get":
      return `c${step.client} get ${step.key}${flags(step.version !== "most-recent" && `resourceVersion ${step.version}`, step.representation !== "json" && step.representation)}`;
    case "list":
      return `c${step.client} list${flags(
        step.selected && SELECTED_SELECTOR,
        step.limit !== undefined && `limit=${step.limit}`,
        step.version !== "most-recent" && `resourceVersion ${step.version}`,
        step.representation !== "json" && step.representation,
        step.pausePagesMs > 0 && `${step.pausePagesMs} ms between pages`,
      )}`;
    case "first-page":
      return `c${step.client} list its first page${flags(step.selected && SELECTED_SELECTOR, `limit=${step.limit}`, step.version !== "most-recent" && `resourceVersion ${step.version}`)}`;
    case "next-page":
      return `c${step.client} list the next page of the last paged list (its continue token)${flags(step.waitMs > 0 && `after ${step.waitMs} ms`)}`;
    case "watch":
      return `c${step.client} watch from ${step.start}${flags(step.selected && SELECTED_SELECTOR, step.bookmarks && "bookmarks")}`;
    case "stop-watch":
      return `c${step.client} stop watching`;
    case "advance":
      return `wait ${step.ms} ms`;
    case "readyz":
      return "GET /readyz?verbose";
    case "together":
      return `at once: ${step.steps.map((member, index) => `${describeStep(member)}${(step.lagsMs[index] ?? 0) > 0 ? ` (+${step.lagsMs[index]} ms)` : ""}`).join(" | ")}`;
  }
}

function flags(...items: (string | false)[]): string {
  const shown = items.filter((item): item is string => item !== false);
  return shown.length === 0 ? "" : ` (${shown.join(", ")})`;
}

/** The steps of a program, groups flattened, in order. */
export function flatSteps(program: readonly ApiStep[]): ApiStep[] {
  return program.flatMap((step) => (step.op === "together" ? flatSteps(step.steps) : [step]));
}
