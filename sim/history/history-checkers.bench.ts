/**
 * The history checkers at soak scale (`npm run bench:micro`, or alone: `npx vitest bench --run
 * sim/history`): a generated history of about 100,000 operations (some 95,000 writes by 9
 * writers, 7,000 lists and 4,000 gets by 10 readers, 20 watchers of which 18 watch the whole
 * namespace throughout: about 900,000 watch events), checked against every invariant. Issue 15's
 * budget is 10 s on the 2-core machine; the measured time is printed with the history's size.
 */
import { bench, describe } from "vitest";
import { checkHistory } from "./check-history.ts";
import { simulateHistory, simulatedWorkload } from "./simulated-history.ts";

const workload = simulatedWorkload(7, {
  durationMs: 32_000,
  writers: 9,
  readers: 10,
  watchers: 20,
  steadyWatchers: 18,
  names: 300,
  hotNames: 20,
  retentionMs: 3_000,
  bookmarkIntervalMs: 500,
  foreignRevisions: true,
});

describe("history checkers", () => {
  const { history } = simulateHistory(workload);
  const events = history.operations.reduce((sum, operation) => sum + (operation.kind === "watch" ? operation.events.length : 0), 0);
  const name = `check ${history.operations.length.toLocaleString("en")} operations, ${events.toLocaleString("en")} watch events`;
  bench(
    name,
    () => {
      // vitest times each check (its min, max and mean are the figure; the budget is 10 s). Inside
      // sim/ nothing reads a clock, this bench included; a valid history must also pass.
      const failed = checkHistory(history)
        .filter((verdict) => !verdict.held)
        .map((verdict) => verdict.id);
      if (failed.length > 0) throw new Error(`a valid history failed ${failed.join(", ")}`);
    },
    { iterations: 3, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
