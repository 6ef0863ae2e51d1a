/**
 * A watch read in the background for as long as the recording keeps it open, then cancelled:
 * the stream's bytes as they came (JSON lines or protobuf frames), bounded in size so that a
 * chatty server cannot fill memory.
 */
import type { Transport } from "../client/conformance-client.ts";

/** More than a line keeps (transcript-line.ts cuts at 24,000), so the cut is the line's, not ours. */
const MAX_CAPTURED_BYTES = 256 * 1024;

/** What a closed watch answered. */
export interface CapturedWatch {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

/** An open watch. */
export interface WatchCapture {
  /** When the response headers came (performance.now()), what holds count from. */
  readonly openedAtMs: number;
  /** Stops reading and hands back everything read. */
  close(): Promise<CapturedWatch>;
}

/** Sends the watch request and starts reading; resolves once the server answered with headers. */
export async function openWatch(transport: Transport, request: Request): Promise<WatchCapture> {
  const response = await transport(request);
  const openedAtMs = performance.now();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  const pumping = (async () => {
    if (reader === undefined) return;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      chunks.push(value);
      size += value.byteLength;
      if (size >= MAX_CAPTURED_BYTES) return void (await reader.cancel());
    }
  })().catch(() => undefined); // a cancelled or broken stream ends the capture; what came is kept
  return {
    openedAtMs,
    async close() {
      await reader?.cancel().catch(() => undefined);
      await pumping;
      return { status: response.status, headers: response.headers, bytes: Buffer.concat(chunks) };
    },
  };
}
