/**
 * The catalog of invariants the fuzzers and checkers enforce: stable ids, the rule in words, and
 * the clauses of the documents each one rests on (docs/ARCHITECTURE.md, "Invariants and checkers").
 */

/** One invariant. */
export interface Invariant {
  readonly id: string;
  readonly rule: string;
  /** Clause references, e.g. "doc 1 §4.7". */
  readonly clauses: readonly string[];
}

/** Invariants of the MVCC store (sim/store), checked by `fuzz --target store`. */
export const storeInvariants = [
  {
    id: "store/revision-monotonic",
    rule: "every write takes a new revision, strictly greater than every earlier one, and it is the object's resourceVersion",
    clauses: ["doc 1 §2.2 metadata.resourceVersion", "doc 1 §4.7"],
  },
  {
    id: "store/list-at-revision",
    rule: "a list at any retained revision returns exactly the state at that revision, in key order",
    clauses: ["doc 1 §4.7 Exact", "doc 1 §2.3"],
  },
  {
    id: "store/paging-consistent",
    rule: "the pages of one list, with writes between them, concatenate to the snapshot at the first page's revision: no duplicates, no misses, every page at that revision, remainingItemCount the number of later items",
    clauses: ["doc 1 §4.6.3", "doc 1 §4.7 Continue Token, Exact", "doc 1 §2.3 remainingItemCount"],
  },
  {
    id: "watch/no-gap",
    rule: "a watch from revision r delivers every change after r, in order, exactly once; a watcher that reconnects from the last revision it saw ends with a cache equal to the store",
    clauses: ["doc 1 §4.6.1", "doc 1 §4.6.2", "doc 1 §4.7 Start at Exact"],
  },
  {
    id: "store/expired-never-partial",
    rule: "reads, watches and continue tokens at a compacted revision fail with Expired (410) and never return partial or wrong data; at retained revisions they never fail",
    clauses: ["doc 1 §7 410 Gone", "doc 1 §8"],
  },
  {
    id: "watch/bookmark-order",
    rule: "bookmarks never go backwards and never precede an event they claim was sent",
    clauses: ["doc 1 §6 BOOKMARK"],
  },
  {
    id: "store/stale-write-rejected",
    rule: "a write with a stale resourceVersion precondition fails with Conflict and changes nothing",
    clauses: ["doc 1 §4.7", "doc 1 §2.2 metadata.resourceVersion"],
  },
] as const satisfies readonly Invariant[];

/** Id of a store invariant. */
export type StoreInvariantId = (typeof storeInvariants)[number]["id"];
