/**
 * What `orb-harness soak` prints at the end of a run: operations/s, counts by kind, one line per
 * history invariant (`held  id  (N checked)` or `VIOLATED  id`), then for each violation its
 * rule, its witness (the operations and events with their clients and times), the seed and the
 * replay command.
 */
import { outcomeText, type OutcomeTally } from "../conformance/soak/soak-counts.ts";
import type { SoakResults } from "./soak-results.ts";

/** The figures: operations/s and counts by kind. */
export function soakFigureLines(results: SoakResults): string[] {
  const { counts } = results;
  const group = (title: string, tallies: Readonly<Record<string, OutcomeTally>>) => {
    const total = Object.values(tallies).reduce((sum, tally) => sum + tally.total, 0);
    return [`${title} ${total}:`, ...Object.entries(tallies).map(([sort, tally]) => `  ${sort.padEnd(26)} ${String(tally.total).padStart(6)}  ${outcomeText(tally)}`)];
  };
  const details = counts.watchDetails;
  const events = Object.entries(details.eventTypes).map(([type, count]) => `${count} ${type}`).join(", ");
  const endings = Object.entries(details.endings).map(([ending, count]) => `${count} ${ending}`).join(", ");
  return [
    `${counts.operations} operations in ${results.workloadSeconds.toFixed(1)} s: ${results.operationsPerSecond.toFixed(0)} operations/s`,
    ...group("writes", counts.writes),
    ...group("gets", counts.gets),
    ...group("lists", counts.lists),
    `  ${counts.pages.total} pages; ${counts.pages.multiPageLists} lists of more than one page`,
    ...group("watches", counts.watches),
    `  ${details.withBookmarks} with bookmarks, ${details.withSelector} with a label selector; ${details.events} events (${events || "none"})`,
    `  streams ended: ${endings || "none"}`,
  ];
}

/** One line per invariant. */
export function soakVerdictLines(results: SoakResults): string[] {
  const width = Math.max(0, ...results.invariants.map((result) => result.id.length));
  return results.invariants.map((result) => (result.held ? `held      ${result.id.padEnd(width)}  (${result.checked} checked)` : `VIOLATED  ${result.id.padEnd(width)}  (${result.checked} checked)`));
}

/** Each violation: rule, witness, seed, replay. */
export function soakViolationLines(results: SoakResults): string[] {
  const lines: string[] = [];
  for (const result of results.invariants) {
    if (result.held) continue;
    lines.push(
      "",
      `VIOLATED ${result.id}`,
      `  rule: ${result.rule}`,
      `  clauses: ${result.clauses.join(", ") || "(none named)"}`,
      `  witness: ${result.witness?.explanation ?? "(no witness given)"}`,
      ...(result.witness?.lines ?? []).map((line) => `    ${line}`),
      `  seed: ${results.seed}`,
      `  replay: ${results.replayCommand}`,
    );
  }
  return lines;
}
