/**
 * What a conformance case is: an id, the doc 1 clauses it checks, tags, and a body that speaks
 * HTTP only through the runner's client (issue #5). Cases live in conformance/cases/, in files
 * by topic of around 300 lines at most; what several share is in conformance/cases/support/.
 */
import type { ClauseId } from "../spec/doc1/clauses.ts";
import type { CaseContext } from "./case-context.ts";

/**
 * Tags the runner acts on: `mutating` cases write (skipped by --read-only); `slow` cases wait in
 * real time against a real server (run only with --slow); `virtual-time` cases move the clock and
 * run against an embedded server in virtual time; `needs-second-identity` cases need
 * --restricted-token or --restricted-kubeconfig.
 */
export type CaseTag = "mutating" | "slow" | "virtual-time" | "needs-second-identity";

/** One conformance case. */
export interface ConformanceCase {
  /** `<area>/<name>`, unique. */
  readonly id: string;
  readonly area: string;
  readonly clauses: readonly ClauseId[];
  readonly tags: readonly CaseTag[];
  readonly run: (context: CaseContext) => Promise<void>;
}

/** Declares the cases of one area: ids are prefixed with the area. */
export function defineCases(area: string, cases: ReadonlyArray<Omit<ConformanceCase, "area" | "id"> & { readonly name: string }>): ConformanceCase[] {
  return cases.map(({ name, ...rest }) => ({ ...rest, id: `${area}/${name}`, area }));
}
