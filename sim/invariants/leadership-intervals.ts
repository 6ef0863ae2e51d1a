/**
 * Leadership intervals in true time, from the recorded starts and stops and the crashes of the
 * candidates' processes: the input of the leader election checkers and of the report's timeline.
 */
import type { ControlPlaneHistory } from "./control-plane-history.ts";

/** One candidate acting as leader from `startMs` to `endMs` (the run's end when `open`). */
export interface LeadershipInterval {
  readonly candidate: string;
  readonly identity: string;
  readonly startMs: number;
  readonly endMs: number;
  /** How it ended: "renew-deadline", "crash", or "run-end" (still leading when the run stopped). */
  readonly ended: string;
}

/** Every leadership interval of `history`, by start time. */
export function leadershipIntervals(history: ControlPlaneHistory): LeadershipInterval[] {
  type Event = { atMs: number; order: number; apply: () => void };
  const open = new Map<string, { identity: string; startMs: number }>();
  const intervals: LeadershipInterval[] = [];
  const close = (candidate: string, atMs: number, ended: string): void => {
    const started = open.get(candidate);
    if (started === undefined) return;
    intervals.push({ candidate, identity: started.identity, startMs: started.startMs, endMs: atMs, ended });
    open.delete(candidate);
  };
  const events: Event[] = [];
  history.leadership.forEach((record, order) =>
    events.push({
      atMs: record.atMs,
      order,
      apply: () => (record.change === "start" ? open.set(record.candidate, { identity: record.identity, startMs: record.atMs }) : close(record.candidate, record.atMs, record.reason ?? "stop")),
    }),
  );
  history.faults.forEach((fault, order) => {
    if (fault.kind !== "crash") return;
    // A crash at the same instant as a start comes after it (the start was recorded first).
    events.push({ atMs: fault.atMs, order: history.leadership.length + order, apply: () => fault.processes.forEach((process) => close(process, fault.atMs, "crash")) });
  });
  events.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
  for (const event of events) event.apply();
  for (const candidate of [...open.keys()]) close(candidate, history.endMs, "run-end");
  return intervals.sort((a, b) => a.startMs - b.startMs || (a.candidate < b.candidate ? -1 : 1));
}
