/**
 * A finding of validation: which rule a value breaks, where, and how badly. Validation reports
 * every finding at once, so a user fixes a configuration in one pass.
 */
import type { Severity } from "../../spec/doc2/config-rule.ts";

/** One broken rule: the option or field path, the offending value, the rule's id and what is wrong. */
export interface Finding {
  /** `--leader-elect-renew-deadline` for an option; `evictionHard[memory.available]` for a field. */
  readonly path: string;
  /** The value as given (or as defaulted, when the rule reads a default). */
  readonly value: unknown;
  readonly ruleId: string;
  readonly message: string;
  readonly severity: Severity;
}

/** Builds a finding. */
export function finding(severity: Severity, ruleId: string, path: string, value: unknown, message: string): Finding {
  return { path, value, ruleId, message, severity };
}

/** Whether any finding is an error (the configuration is invalid). */
export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((entry) => entry.severity === "error");
}

/** One line per finding: `error doc2/2.2/…: --leader-elect-renew-deadline=20s: message` (no `=value` when there is none). */
export function formatFinding(entry: Finding): string {
  const value = entry.value === undefined ? "" : `=${displayValue(entry.value)}`;
  return `${entry.severity} ${entry.ruleId}: ${entry.path}${value}: ${entry.message}`;
}

/** A value as a finding shows it: strings bare, absent as `(not set)`, anything else as JSON. */
export function displayValue(value: unknown): string {
  if (value === undefined) return "(not set)";
  if (typeof value === "string") return value === "" ? '""' : value;
  if (typeof value === "bigint") return value.toString();
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "bigint" ? inner.toString() : inner));
}

/** Errors first, then warnings; within each, in the order found. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings.filter((entry) => entry.severity === "error"), ...findings.filter((entry) => entry.severity === "warning")];
}
