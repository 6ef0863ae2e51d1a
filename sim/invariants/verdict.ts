/**
 * A checker's answer (docs/ARCHITECTURE.md, "Invariants and checkers"): held or violated, how many
 * obligations were checked, and for a violation its witness: the smallest set of recorded events
 * that shows it, with a sentence saying what they show.
 */
import { controlPlaneInvariants, type ControlPlaneInvariantId } from "../../spec/invariants-control-plane.ts";

/** The evidence of a violation. */
export interface Witness {
  readonly explanation: string;
  readonly events: readonly unknown[];
}

/** The verdict of one invariant on one run. */
export interface Verdict {
  readonly id: ControlPlaneInvariantId;
  readonly held: boolean;
  /** Obligations checked (intervals, marks, decisions, evictions…): 0 means nothing was exercised. */
  readonly checked: number;
  readonly witness?: Witness;
}

/** A verdict that held. */
export function held(id: ControlPlaneInvariantId, checked: number): Verdict {
  return { id, held: true, checked };
}

/** A violated verdict with its witness. */
export function violated(id: ControlPlaneInvariantId, checked: number, explanation: string, events: readonly unknown[]): Verdict {
  return { id, held: false, checked, witness: { explanation, events } };
}

/** The catalog's words for `id`. */
export function ruleOf(id: ControlPlaneInvariantId): string {
  return controlPlaneInvariants.find((invariant) => invariant.id === id)?.rule ?? id;
}
