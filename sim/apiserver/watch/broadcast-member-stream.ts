/**
 * The response stream of one watcher of a broadcast (watch-broadcast.ts): its own start first (the
 * events the store replayed when it opened), then the broadcast's batches as they are sealed, each
 * sent as it is, the same bytes every member sends. The stream ends when its timeout passes, when
 * the broadcast cuts it off or closes, or when its client goes.
 */
import type { Clock, TimerHandle } from "../../kernel/clock.ts";
import { joinedBytes } from "./joined-bytes.ts";
import type { BroadcastMember } from "./watch-broadcast.ts";

/** The event stream of `member`, lasting `durationMs` at most. */
export function broadcastMemberStream(
  clock: Clock,
  member: BroadcastMember,
  start: readonly Uint8Array[],
  durationMs: number,
  maxFlushBytes: number,
): ReadableStream<Uint8Array> {
  let timer: TimerHandle | undefined;
  let startSent = start.length === 0;
  const finish = (): void => {
    timer?.cancel();
    member.leave();
  };
  return new ReadableStream<Uint8Array>({
    start() {
      // Leave at once: a stream nobody reads would otherwise hold the broadcast (its subscription
      // and batches) until it fell a buffer behind, which on a quiet collection is never.
      timer = clock.setTimer(durationMs, () => member.leave());
    },
    async pull(controller) {
      if (!startSent) {
        startSent = true;
        // One write per maxFlushBytes of the start, not one per event (a large collection's state).
        let group: Uint8Array[] = [];
        let bytes = 0;
        for (const chunk of start) {
          group.push(chunk);
          bytes += chunk.length;
          if (bytes < maxFlushBytes) continue;
          controller.enqueue(joinedBytes(group));
          group = [];
          bytes = 0;
        }
        if (group.length > 0) controller.enqueue(joinedBytes(group));
        return;
      }
      await member.waitForBatch();
      const batches = member.take(maxFlushBytes);
      if (batches.length === 0) {
        finish();
        controller.close();
        return;
      }
      for (const batch of batches) controller.enqueue(batch);
    },
    cancel() {
      finish();
    },
  });
}
