/**
 * Which answers a case accepts where doc 1 and real Kubernetes part ways (spec/dialects.ts,
 * `deviations`; issue #5: "where the dialect records a documented deviation, assert the dialect's
 * answer … never fail a correct server, and never pass an incorrect one"). How strictly each
 * dialect is held is data in spec/dialects.ts (`suiteHolds`, beside its words in `suiteAccepts`);
 * this applies it: each case classifies what it got into one of the forms below and asks.
 *
 * The recorded answers are looked up by the target's dialect NAME in spec/dialects.ts, never read
 * from the dialect object the target carries: a target that calls itself `orb` is held to what
 * the orb dialect records, whatever its own object claims.
 */
import { CaseFailure } from "../../case-outcome.ts";
import { dialectByName, dialects, deviations, type Dialect, type DialectName, type SuiteTolerance } from "../../../spec/dialects.ts";

/**
 * The forms of an answer the suite tells apart, per deviation: the behaviour switches of
 * `Dialect.answers`, plus two where the embedded server gives doc 1's answer in both dialects but a
 * real Kubernetes server varies with its watch cache: rv0-limit-ignored (with the cache on, every
 * item is served), future-version-no-wait (with the cache off, a 504 comes at once, without
 * Retry-After) and not-older-than-cache-lag (with the cache on, a NotOlderThan read at a version
 * of a consistent read may wait for the cache, then answer 504).
 */
export type AnswerForms = Dialect["answers"] & {
  readonly "rv0-limit-ignored": "at-most-limit" | "every-item";
  readonly "future-version-no-wait": "waits" | "answers-at-once";
  readonly "not-older-than-cache-lag": "served" | "too-large";
};
export type DeviationId = keyof AnswerForms;

/** The forms of the deviations no dialect switches on: doc 1's (what both embedded dialects answer) first. */
const CACHE_DEPENDENT_FORMS: { readonly [K in Exclude<DeviationId, keyof Dialect["answers"]>]: ReadonlyArray<AnswerForms[K]> } = {
  "rv0-limit-ignored": ["at-most-limit", "every-item"],
  "future-version-no-wait": ["waits", "answers-at-once"],
  "not-older-than-cache-lag": ["served", "too-large"],
};

function isCacheDependent(id: DeviationId): id is keyof typeof CACHE_DEPENDENT_FORMS {
  return Object.hasOwn(CACHE_DEPENDENT_FORMS, id);
}

/** How strictly a target of `dialect` is held on `id`: spec/dialects.ts, the deviation's `suiteHolds`. */
function tolerance(dialect: DialectName, id: DeviationId): SuiteTolerance {
  const holds = deviations.find((deviation) => deviation.id === id)?.suiteHolds;
  if (holds === undefined) throw new Error(`spec/dialects.ts: deviation ${id} has a form per dialect but no suiteHolds`);
  return holds[dialect];
}

/** Every deviation with a form per dialect (those spec/dialects.ts gives a `suiteHolds`). */
export const deviationIds = deviations.filter((deviation) => deviation.suiteHolds !== undefined).map((deviation) => deviation.id as DeviationId);

/** The form a dialect records for `id` (the cache-dependent ones: doc 1's, which both embedded dialects give). */
function recordedForm<K extends DeviationId>(name: DialectName, id: K): AnswerForms[K] {
  if (isCacheDependent(id)) return CACHE_DEPENDENT_FORMS[id][0] as AnswerForms[K];
  return dialectByName(name).answers[id as keyof Dialect["answers"]] as AnswerForms[K];
}

/** Every form of `id` a correct server of some dialect may give. */
function everyForm<K extends DeviationId>(id: K): Array<AnswerForms[K]> {
  if (isCacheDependent(id)) return [...CACHE_DEPENDENT_FORMS[id]] as Array<AnswerForms[K]>;
  return [...new Set(dialects.map((d) => recordedForm(d.name, id)))];
}

/** The forms of deviation `id` a target speaking `dialect` may answer with. */
export function acceptedForms<K extends DeviationId>(dialect: Pick<Dialect, "name">, id: K): ReadonlyArray<AnswerForms[K]> {
  return tolerance(dialect.name, id) === "recorded" ? [recordedForm(dialect.name, id)] : everyForm(id);
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
