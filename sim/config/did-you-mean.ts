/**
 * "Did you mean" for unknown flags and fields: the known name closest to a typo, by edit
 * distance, when it is close enough to be a likely intent (at most a third of the name wrong).
 */

/** The known name nearest to `unknown`, or undefined when none is plausibly meant. */
export function closestName(unknown: string, known: Iterable<string>): string | undefined {
  const budget = Math.max(1, Math.floor(unknown.length / 3));
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const name of known) {
    const distance = editDistance(unknown.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
