/**
 * Label selectors as the checkers apply them: parsed once per distinct text with the server's own
 * parser (sim/apiserver/request/label-selector.ts, Kubernetes' grammar), so that "which changes does this
 * watch see" and "which objects belong in this list" are answered as a server answers them.
 */
import { isEverythingLabelSelector, matchesLabels, parseLabelSelector, type LabelSelector } from "../apiserver/request/label-selector.ts";

/** A selector ready to match. `valid` is false for text the server would have refused (400). */
export interface SelectorMatcher {
  /** The selector text, or "" for none (the key used for per-selector state tables). */
  readonly key: string;
  readonly valid: boolean;
  /** Selects every object (no selector, or one without requirements). */
  readonly everything: boolean;
  matches(labels: Readonly<Record<string, string>>): boolean;
}

/** The matcher of no selector at all. */
export const everything: SelectorMatcher = { key: "", valid: true, everything: true, matches: () => true };

/** Parses each distinct selector text once. */
export class SelectorCache {
  private readonly cache = new Map<string, SelectorMatcher>();

  get(text: string | undefined): SelectorMatcher {
    if (text === undefined || text === "") return everything;
    const cached = this.cache.get(text);
    if (cached !== undefined) return cached;
    const made = parse(text);
    this.cache.set(text, made);
    return made;
  }
}

function parse(text: string): SelectorMatcher {
  let selector: LabelSelector;
  try {
    selector = parseLabelSelector(text);
  } catch {
    return { key: text, valid: false, everything: false, matches: () => false };
  }
  // Same tables as no selector at all: a selector without requirements selects everything.
  if (isEverythingLabelSelector(selector)) return everything;
  return { key: text, valid: true, everything: false, matches: (labels) => matchesLabels(selector, labels) };
}
