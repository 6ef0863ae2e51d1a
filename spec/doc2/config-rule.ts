/**
 * The shape of a configuration rule of doc 2 (daemon options) or doc 3 (node agent configuration):
 * a stable id, a severity, the clause, the rule in words, and where the rule comes from. Where a
 * document says "not shown", or is silent, the rule follows real Kubernetes and says so.
 */

/** How bad breaking a rule is: an error makes the configuration invalid; a warning does not. */
export type Severity = "error" | "warning";

/** Where a rule comes from: the document's own words, or Kubernetes where the document is silent. */
export type RuleOrigin = "doc" | "kubernetes";

/** One checked rule. */
export interface ConfigRule {
  /** `doc2/<section>/<slug>` or `doc3/<section>/<slug>`; never reused for another rule. */
  readonly id: string;
  readonly severity: Severity;
  /** "doc 2 §2.2". */
  readonly clause: string;
  /** The rule in words. */
  readonly rule: string;
  readonly origin: RuleOrigin;
  /** What Kubernetes 1.26 does, where the document is silent or where it differs. */
  readonly kubernetes?: string;
  /** The options or field paths the rule reads. */
  readonly fields: readonly string[];
}

/** A rule that computes a value (a default, an effective setting) rather than rejecting one. */
export interface DerivationRule {
  readonly id: string;
  readonly clause: string;
  readonly rule: string;
  readonly origin: RuleOrigin;
  readonly kubernetes?: string;
  readonly fields: readonly string[];
}

/** "doc 2 §2.2" for `doc2/2.2/…`. */
export function clauseOf(id: string): string {
  const [documentPart = "", section = ""] = id.split("/");
  return `doc ${documentPart.replace("doc", "")} §${section}`;
}

/** A rule the document states. */
export function docRule(id: string, severity: Severity, fields: readonly string[], rule: string, kubernetes?: string): ConfigRule {
  const entry = { id, severity, clause: clauseOf(id), rule, origin: "doc" as const, fields };
  return kubernetes === undefined ? entry : { ...entry, kubernetes };
}

/** A rule the document does not show, taken from Kubernetes (`kubernetes` says from where). */
export function kubernetesRule(id: string, severity: Severity, fields: readonly string[], rule: string, kubernetes: string): ConfigRule {
  return { id, severity, clause: clauseOf(id), rule, origin: "kubernetes", kubernetes, fields };
}
