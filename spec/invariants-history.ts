/**
 * The invariants of a recorded API history (issue 15, `orb-harness soak`): what a concurrent
 * workload of writers, watchers and readers may observe of one namespace of a correct server, by
 * doc 1. Checked by the pure functions of sim/history/ (`checkHistory`), one verdict per entry, in
 * this order. Where a rule is the one the store fuzzers already enforce (spec/invariants.ts), the
 * entry is that one, imported, so the words exist once.
 *
 * The server's order of changes is never read from resource versions (doc 1 §4.7: opaque, compare
 * for equality only): it is learned from the order in which watch streams deliver changes.
 */
import { storeInvariants, type Invariant, type StoreInvariantId } from "./invariants.ts";

type StoreInvariant<Id extends StoreInvariantId> = Extract<(typeof storeInvariants)[number], { readonly id: Id }>;

/** The store invariant `id`, shared with the store fuzzers. */
function storeInvariant<Id extends StoreInvariantId>(id: Id): StoreInvariant<Id> {
  const found = storeInvariants.find((invariant) => invariant.id === id);
  if (found === undefined) throw new Error(`spec/invariants.ts has no invariant ${id}`);
  return found as StoreInvariant<Id>;
}

/** History invariants, in the order `checkHistory` reports them. */
export const historyInvariants = [
  {
    id: "history/write-versions",
    rule: "every change has one resourceVersion, the same in the write's answer, in every watch event that delivers it and on every object read that it produced; no two changes share one",
    clauses: ["doc 1 §2.2 metadata.resourceVersion", "doc 1 §4.7"],
  },
  {
    id: "history/write-order",
    rule: "if write A was acknowledged before write B was sent, A's change precedes B's in the server's order of changes (as the watch streams deliver it)",
    clauses: ["doc 1 §4.7 Most Recent", "doc 1 §4.6.1", "doc 1 §2.2 metadata.resourceVersion"],
  },
  storeInvariant("watch/no-gap"),
  {
    id: "history/watch-event-content",
    rule: "each watch event has the right type and object: ADDED for a creation or an object entering the label selector, MODIFIED for an update inside it, DELETED for a deletion (carrying the object's last state with the deletion's version) or an object leaving it; no event for a change the selector does not see",
    clauses: ["doc 1 §6", "doc 1 §2.4", "doc 1 §4.6.1"],
  },
  {
    id: "history/watch-initial-state",
    rule: "a watch without resourceVersion (or with 0) begins with synthetic ADDED events equal to one state of the namespace (restricted to its selector), then sends the changes after that state; without resourceVersion that state reflects every write acknowledged before the watch was sent",
    clauses: ["doc 1 §4.7 watch: Get State and Start at Most Recent, Start at Any", "doc 1 §6 ADDED"],
  },
  storeInvariant("watch/bookmark-order"),
  {
    id: "history/read-state",
    rule: "the items of a list are the objects matching its selector in one state of the namespace, each once; when the list's resourceVersion is a version of a known change, it is the state at that version; two lists at the same version with the same selector have the same items",
    clauses: ["doc 1 §2.3 metadata.resourceVersion", "doc 1 §4.7 Exact"],
  },
  {
    id: "history/read-freshness",
    rule: "a read without resourceVersion (Most Recent) reflects every write acknowledged before it was sent; Not older than is at or after the given version; Exact answers the requested version; no read reflects a write sent after it was answered",
    clauses: ["doc 1 §4.7 Most Recent", "doc 1 §4.7 Not older than", "doc 1 §4.7 Exact", "doc 1 §4.7 Any"],
  },
  storeInvariant("store/paging-consistent"),
  storeInvariant("store/stale-write-rejected"),
  {
    id: "history/failed-write-no-effect",
    rule: "a write answered with a client error (4xx: NotFound, AlreadyExists, Invalid, Forbidden, TooManyRequests…) never takes effect",
    clauses: ["doc 1 §7"],
  },
  {
    id: "history/acknowledged-write-durable",
    rule: "no acknowledged write is lost: a watch stream that delivered a change acknowledged before the write was sent and one sent after it was acknowledged also delivered the write (when its selector sees it)",
    clauses: ["doc 1 §4.6.1", "doc 1 §6", "doc 1 §4.7 Most Recent"],
  },
  {
    id: "history/write-atomic",
    rule: "a write takes effect whole (its value and every label it sets, in one change) and at most once; a write without an answer (timeout, reset, or a 5xx) may have taken effect or not, and both are accepted, but never twice and never half",
    clauses: ["doc 1 §4.6.1", "doc 1 §2.2 metadata.resourceVersion"],
  },
] as const satisfies readonly Invariant[];

/** Id of a history invariant. */
export type HistoryInvariantId = (typeof historyInvariants)[number]["id"];
