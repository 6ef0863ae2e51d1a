/**
 * Periodic compaction, as kube-apiserver runs it against etcd (every 5 minutes by default): each
 * tick drops history older than the store's window, so history lives one to two intervals.
 */
import type { Clock, TimerHandle } from "../kernel/clock.ts";
import type { MvccStore } from "./mvcc-store.ts";

/** Starts compacting `store` every `intervalMs`; the handle stops it. */
export function startCompactor(store: MvccStore, clock: Clock, intervalMs: number): TimerHandle {
  if (!(intervalMs > 0)) throw new Error(`compaction interval must be positive, got ${intervalMs}`);
  let timer: TimerHandle;
  const tick = (): void => {
    store.compactExpiredHistory();
    timer = clock.setTimer(intervalMs, tick);
  };
  timer = clock.setTimer(intervalMs, tick);
  return { cancel: () => timer.cancel() };
}
