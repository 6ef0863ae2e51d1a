/**
 * Assertions for case bodies. A failed one throws CaseFailure with a message a reader of the
 * report understands without the source: what was expected, what came back.
 */
import { isDeepStrictEqual } from "node:util";
import { CaseFailure } from "./case-outcome.ts";

/** Fails with `message` unless `condition` holds. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CaseFailure(message);
}

/** Fails unless `actual` deep-equals `expected`. */
export function checkEqual<T>(actual: T, expected: T, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new CaseFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

/** Fails unless `actual` is one of `allowed` (where real servers legitimately differ). */
export function checkOneOf<T>(actual: T, allowed: readonly T[], what: string): void {
  if (!allowed.some((value) => isDeepStrictEqual(value, actual))) {
    throw new CaseFailure(`${what}: expected one of ${allowed.map(show).join(", ")}, got ${show(actual)}`);
  }
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
