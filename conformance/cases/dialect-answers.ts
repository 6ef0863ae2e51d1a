/**
 * Which answers a case accepts where doc 1 and real Kubernetes part ways (spec/dialects.ts,
 * `deviations`; issue #5: "where the dialect records a documented deviation, assert the dialect's
 * answer … never fail a correct server, and never pass an incorrect one"). The rule lives here
 * only; each case classifies what it got into one of the forms below and asks.
 *
 * The recorded answers are looked up by the target's dialect NAME in spec/dialects.ts, never read
 * from the dialect object the target carries: a target that calls itself `orb` is held to what
 * the orb dialect records, whatever its own object claims.
 */
import { CaseFailure } from "../case-outcome.ts";
import { dialectByName, dialects, type Dialect, type DialectName } from "../../spec/dialects.ts";

/**
 * The forms of an answer the suite tells apart, per deviation: the behaviour switches of
 * `Dialect.answers`, plus rv0-limit-ignored, where the embedded server gives doc 1's answer in
 * both dialects but a real Kubernetes server may serve every item from its watch cache.
 */
export type AnswerForms = Dialect["answers"] & { readonly "rv0-limit-ignored": "at-most-limit" | "every-item" };
export type DeviationId = keyof AnswerForms;

/**
 * `recorded`: only the form the target's dialect records (the entry gives one answer per dialect
 * and real servers of that dialect agree). `every-form`: every form (doc 1 reads two ways, or real
 * servers of that dialect legitimately vary). The reason for each is the comment beside it.
 */
type Tolerance = "recorded" | "every-form";

const RULES: { readonly [K in DeviationId]: Readonly<Record<DialectName, Tolerance>> } = {
  // Doc 1 §4.4.4 accepts a bare dryRun; Kubernetes always answers 422 (transcript dryrun-bare).
  "bare-dry-run": { orb: "recorded", kubernetes: "recorded" },
  // Doc 1 §1: a PUT of a missing object is a create; Kubernetes answers 404 for ConfigMaps, which
  // do not allow create on update (transcript update-missing). One answer each.
  "put-missing": { orb: "recorded", kubernetes: "recorded" },
  // Doc 1 §4.1: DELETE returns the resulting object; Kubernetes a Success Status when the object
  // is removed at once (transcript delete-plain). One answer each.
  "delete-response": { orb: "recorded", kubernetes: "recorded" },
  // Doc 1 §7: a watch from a version no longer retained gets the HTTP status 410 Gone, and §2.4/§6
  // know no ERROR event, so an orb client would not understand one: strict for orb. Kubernetes 1.26
  // sends HTTP 200 then an ERROR event carrying the 410 (transcript expiry-watch-old); client-go
  // handles a plain HTTP 410 alike, and releases have sent either, so both pass for kubernetes.
  "watch-expired": { orb: "recorded", kubernetes: "every-form" },
  // Doc 1 §2.3 "Empty string when the list is complete" reads two ways for JSON (an empty string
  // field, or a field left out because it is empty): interpretation, every form for everyone.
  "continue-when-complete": { orb: "every-form", kubernetes: "every-form" },
  // Doc 1 §2.4 and §6: a BOOKMARK object carries only metadata.resourceVersion: strict for orb.
  // Kubernetes 1.26 adds creationTimestamp: null (transcript watch-from-rv), an artifact of
  // serializing Go zero values that differs between releases: either for kubernetes.
  "bookmark-object": { orb: "recorded", kubernetes: "every-form" },
  // Doc 1 §8: "The server returns at most that many": strict for orb. Kubernetes serves
  // resourceVersion=0 from its watch cache when the cache is on, ignoring limit (transcript
  // list-rv0-limit), and pages when it is off: cache dependent, both pass for kubernetes.
  "rv0-limit-ignored": { orb: "recorded", kubernetes: "every-form" },
};

/** Every deviation with a form per dialect, in RULES order. */
export const deviationIds = Object.keys(RULES) as DeviationId[];

/** The form a dialect records for `id` (rv0-limit-ignored: both embedded dialects honour limit). */
function recordedForm<K extends DeviationId>(name: DialectName, id: K): AnswerForms[K] {
  if (id === "rv0-limit-ignored") return "at-most-limit" as AnswerForms[K];
  return dialectByName(name).answers[id as keyof Dialect["answers"]] as AnswerForms[K];
}

/** Every form of `id` a correct server of some dialect may give. */
function everyForm<K extends DeviationId>(id: K): Array<AnswerForms[K]> {
  if (id === "rv0-limit-ignored") return ["at-most-limit", "every-item"] as Array<AnswerForms[K]>;
  return [...new Set(dialects.map((d) => recordedForm(d.name, id)))];
}

/** The forms of deviation `id` a target speaking `dialect` may answer with. */
export function acceptedForms<K extends DeviationId>(dialect: Pick<Dialect, "name">, id: K): ReadonlyArray<AnswerForms[K]> {
  return RULES[id][dialect.name] === "recorded" ? [recordedForm(dialect.name, id)] : everyForm(id);
}

/** Fails unless `got`, the form the target answered with, is one its dialect may give. */
export function checkAnswerForm<K extends DeviationId>(dialect: Pick<Dialect, "name">, id: K, got: AnswerForms[K], what: string): void {
  const accepted = acceptedForms(dialect, id);
  if (!accepted.includes(got)) {
    throw new CaseFailure(`${what}: answered in the form "${got}", but a target of dialect ${dialect.name} must answer ${accepted.map((form) => `"${form}"`).join(" or ")} (deviation ${id}, spec/dialects.ts)`);
  }
}

/**
 * The last line a verbose health body of `endpoint` must end with (deviation health-last-line):
 * exactly the one the dialect records. Doc 1 §4.5.2 names `healthz check passed` for every
 * endpoint; Kubernetes names the endpoint (transcripts health-*-verbose) in every recent release.
 */
export function acceptedLastLines(dialect: Pick<Dialect, "name">, endpoint: keyof Dialect["health"]["verboseLastLine"]): string[] {
  return [dialectByName(dialect.name).health.verboseLastLine[endpoint]];
}
